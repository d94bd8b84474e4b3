// Package launch is the launch of Claude Code for one account in one
// workspace, top to bottom. The commands (claude-account run, claude<name>)
// are thin: they choose the account and hand over the arguments.
//
//  1. Open the workspace (Open): the account, the git context of the working
//     directory, the config dir Claude will use (the fallback matrix), and
//     whether the last Claude there ended without its launcher.
//  2. Find Claude (FindClaude): the binary and its release, which decides
//     what each row of the config dir shares and which words are commands.
//  3. Prepare (Session, Command): take the locks, plan the config dir
//     (configdir.MakePlan: a value that can be printed and tested), apply it.
//  4. Start Claude (process.go): the terminal, signals and exit status pass
//     through; the launcher stays the parent and keeps the instance lock.
//  5. The after-exit pass (afterExit): record what Claude changed in what the
//     account shares (configdir.Harvest, applied like any plan), mark the
//     runtime quiet, and remove an ephemeral worktree left without work.
//
// Claude's fleet (fleet.go: claude --bg, agents, attach, logs, stop, rm,
// respawn, daemon) skips 3's lock and hooks and all of 5: it runs with the
// account dir as its config dir, wherever it starts, so that the account has
// one supervisor of background sessions.
//
// DryRun prints steps 3 and 4 without doing them.
package launch
