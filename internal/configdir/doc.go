// Package configdir builds and repairs the config dir Claude runs with: layer 3,
// a writable per-workspace dir inside the git dir, whose read-only content is
// linked to the account (layer 2), never straight into the Nix store.
//
// A launch asks it for one value, a Plan, and applies it:
//
//  1. Locate (layout.go): which dir becomes CLAUDE_CONFIG_DIR, the account
//     dir outside a work tree, else the workspace's runtime.
//  2. Observe: MakePlan reads what each decision needs, every input read and
//     checked before any step is planned (observeRuntime, stateFacts,
//     settingsFacts): a bad file stops the launch with nothing written.
//  3. Decide: from those facts alone, reading no file (decideRuntime,
//     decideSettings, decideState), so each case is a table test
//     (state_test.go) and the testscripts each names pin the rest.
//  4. Plan: the decisions become Steps, which can be printed (--dry-run,
//     Lines) and checked (Verify, for doctor) without touching disk; nothing
//     is listed for what is already right, so a second launch plans nothing.
//  5. Apply: the steps in order, large writes staged while their input is
//     validated, so a broken input leaves everything as it was.
//
// After Claude exits, Harvest plans the same way the recording of what
// Claude changed in what the account shares.
//
// Where each part lives. The plan:
//
//   - plan.go: Step, Plan, Input and MakePlan, which runs everything below in
//     order.
//   - apply.go: Apply, Verify, the staging of large writes, a step's error.
//   - layout.go: Locate and the Layout.
//   - harvest.go: Harvest, the after-exit pass, and the stamp that says
//     whether Claude wrote its state at all.
//
// The runtime dir and its entries:
//
//   - runtimedir.go: observeRuntime and decideRuntime: use the runtime, set
//     it aside, or refuse it; a worktree that moved keeps its conversations.
//   - workspace.go: workspace.json, the binding of a runtime to its workspace.
//   - linked.go: the links to the account's entries (Linked), and what is
//     kept aside where one belongs.
//   - ide.go: ide, the link to ~/.claude/ide where the IDEs write their
//     lock files (planIDE), so /ide finds them on every release.
//   - stray.go: any other link in a runtime, kept aside before Claude starts.
//   - login.go: the account's login, shared the way the Claude in use reads
//     it.
//   - shared.go: what a config dir shares with its account, and how
//     (SharedVia, SharedEnv, SharedState); what a runtime still keeps for
//     itself (Earlier), and its memory moved to the account.
//   - plugins.go: plugins installed in one runtime by an earlier version,
//     moved to the account (Rebase rewrites Claude's records).
//   - temps.go: the temporary files a killed write leaves (Temps), swept.
//   - inspect.go: each link's state and chain, for status and doctor.
//   - keychain.go: on macOS, an account whose dir is ~/.claude itself.
//
// The state Claude and the account both write:
//
//   - state.go: planState, and this config dir's .claude.json: MCP servers,
//     account keys and trust (stateFacts, decideState).
//   - settings.go: the account's settings.json, coalesced from what it
//     declares (decideSettings), and a runtime's link to it.
//   - entries.go: what an earlier launcher wrote into settings.json for
//     itself, taken out.
//   - accountdir.go: changes to the account dir's own .claude.json, taken
//     into the ledger.
//   - accountkeys.go: which keys of .claude.json the account's config dirs
//     share.
//   - overlay.go: the workspace's trusted project MCP servers.
//   - capabilities.go: an account's MCP servers and plugins by name, and
//     what a handoff to another account lacks (CapabilitiesOf, HandoffGaps).
//   - projecttrust.go: the paths Claude keys a repository's trust by.
//   - record.go: the launcher's record in a config dir (ManagedFile).
//   - insync.go, granularity_*.go: the stamp that spares an in-sync launch
//     reading a large .claude.json.
//   - files.go: reading optional and mapped files, and wording their errors.
package configdir
