package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/doctor"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/worktree"
)

// RunCmd is `claude-account run`: detect → plan → apply → launch.
type RunCmd struct {
	AccountFlags
	Worktree  string   `placeholder:"NAME" help:"Run in this worktree of the current repository, making it first if needed (see 'worktree new')."`
	Ephemeral bool     `help:"With --worktree: remove the worktree after Claude exits if it holds no work."`
	DryRun    bool     `help:"Print what would change and the command that would start, then stop."`
	Args      []string `arg:"" optional:"" passthrough:"" name:"claude-args" help:"Arguments for Claude, passed verbatim ('--' before them is optional)."`
}

// Help is shown under the command's usage.
func (c *RunCmd) Help() string {
	return `In a git worktree, Claude runs with CLAUDE_CONFIG_DIR=$GIT_DIR/claude-runtime/<account>,
that worktree's own sessions and .claude.json. Its settings.json, commands/,
agents/, skills/ and CLAUDE.md link to the account dir. The login and plugins
are the account's, and memory the repository's, kept in the account dir, through
CLAUDE_SECURESTORAGE_CONFIG_DIR, CLAUDE_CODE_PLUGIN_CACHE_DIR and
CLAUDE_CODE_REMOTE_MEMORY_DIR (unless you set them).
Outside git and in bare repositories it runs with the account dir itself.
With no --account, CLAUDE_ACCOUNT or claude<name> program name, the directory's
binding names the account (see 'bind').

A session (interactive, or -p) takes the workspace's lock and gets the launcher's
hooks for 'ps' as flag settings (claude --settings). Claude's own commands (mcp,
plugin, auth, doctor, --version, --help …, those its release has) are not
sessions: they run beside one.
Flags after Claude's arguments are Claude's: put --account before them.

Examples:
  claude-account run --account max
  claude-account run --account max -- -p "summarise this repository"
  claude-account run --dry-run --account max`
}

// Run builds the config dir and starts Claude.
func (c *RunCmd) Run(d *Deps) error {
	if c.Ephemeral && c.Worktree == "" {
		return UsageError{errors.New("--ephemeral goes with --worktree NAME")}
	}
	if c.Worktree != "" && c.Account == "" {
		// The account is the one of the directory run was called in: a
		// worktree may live outside the bound directory ([worktree] dir).
		name, ok, err := c.accountName(d)
		if err != nil {
			return err
		}
		if ok {
			c.Account = name
		}
	}
	if c.Worktree != "" && c.DryRun {
		// A dry run changes nothing: no worktree, no branch.
		done, err := c.dryRunWorktree(d)
		if err != nil || done {
			return err
		}
	}
	if c.Worktree != "" && !c.DryRun {
		res, _, err := newWorktree(d, c.AccountFlags, c.Worktree, "", c.Ephemeral)
		if err != nil {
			return err
		}
		for _, n := range res.Notes {
			d.notef("%s", n)
		}
		in := *d
		in.Dir = res.Path
		d = &in
	}
	args := c.Args
	if len(args) > 0 && args[0] == "--" {
		// kong keeps the separator; it was ours, not Claude's.
		args = args[1:]
	}
	ws, err := c.load(d)
	if err != nil {
		var ue UsageError
		if errors.As(err, &ue) && c.Account == "" && strings.HasPrefix(ue.Error(), "no account given") {
			if hint := accountAmongClaudeArgs(args); hint != "" {
				return UsageError{errors.New(hint)}
			}
		}
		return err
	}
	bin, err := ws.findClaude(d)
	if err != nil {
		return err
	}
	claude := bin.Path
	// Which words are Claude's commands depends on its release ("auth" is a
	// prompt on 2.0.77): findClaude has just identified it.
	inv := session.Classify(args, bin)
	if c.DryRun {
		return c.dryRun(d, ws, claude, args, inv)
	}
	if !inv.Session {
		return c.runCommand(d, ws, claude, args)
	}
	// The lock comes before the plan: a plan made while another Claude
	// still ran would splice a .claude.json that Claude rewrites as it exits.
	held, err := ws.acquire(d)
	if err != nil {
		return withStop(d, ws, err)
	}
	defer held.Release()
	// What the account's config dirs share is planned and written by one
	// launch at a time.
	releaseShared, err := lock.Account(lock.Dir(d.Env), ws.account.Name)
	if err != nil {
		return err
	}
	plan, err := configdir.MakePlan(ws.input(d))
	if err == nil && plan.SetsAside {
		// With several instances allowed, another Claude may hold a slot of
		// this runtime: it is never moved from under it.
		err = ws.notInUse(d, held)
	}
	if err != nil {
		plan.Close()
		releaseShared()
		return err
	}
	// The plan maps Claude's state; unmap it before waiting for the session.
	defer plan.Close()
	for _, n := range ws.context.Notes {
		d.notef("%s", n)
	}
	err = plan.Apply()
	releaseShared()
	if err != nil {
		return err
	}
	// Said once done: a failed launch changed nothing, so its error is all.
	for _, n := range plan.Notes {
		d.notef("%s", n)
	}
	restoreArchived(d, ws)
	plan.Close()
	stamp := configdir.Stamp(ws.layout)
	quick := doctor.Input{Account: ws.account, Context: ws.context, Layout: ws.layout, Claude: ws.claude}
	warnOnce(d, quick)
	warnRelease(d, quick)

	id, token := sessionOf(held)
	hold := launch.HoldSignals()
	defer hold()
	watch := watchRelease(d, ws)
	st, err := launch.Run(launch.Spec{
		Path: claude, Args: sessionArgs(d, ws, id, token, args), Env: launchEnv(d, ws).List(), Dir: d.Dir,
		Stdin: d.Stdin, Stdout: d.Stdout, Stderr: d.Stderr,
		Started: func(pid int) { _ = held.SetClaudePID(pid); watch.start(pid) },
	})
	watch.stop()
	session.Forget(lock.Dir(d.Env), id, token)
	held.Release()
	// Even when Claude did not start: the harvest also records that the
	// launcher left the runtime alone (workspace.leave).
	harvest(d, ws, stamp)
	if err == nil {
		afterExit(d, ws)
	}
	hold()
	return exitStatus(st, err)
}

// exitStatus is how Claude ended, as the launcher's own.
func exitStatus(st launch.Status, err error) error {
	switch {
	case err != nil:
		return err
	case st.Signal != 0:
		return SignalError{st}
	case st.Code != 0:
		return ExitCodeError(st.Code)
	}
	return nil
}

// runCommand runs a Claude command that is not a session ('mcp list',
// '--version', 'auth status'; session.Classify) beside any session: without
// the instance lock and without the launcher's hooks. It sees what a session
// would (the account's servers and settings): its config dir is planned and
// applied under the account's short lock, as for a session — unless a
// session runs in this config dir now and the plan would change anything.
// That session's Claude owns .claude.json: it re-reads the file before each
// write (measured on 2.0.77, 2.1.90 and 2.1.330), so a write of ours that is
// done survives, but one that falls between its read and its rename loses
// Claude's, and ours is a splice of what we read before. So the command then
// runs on the config dir as the session keeps it, and says so; the next
// session applies what waits.
func (c *RunCmd) runCommand(d *Deps, ws *workspace, claude string, args []string) error {
	releaseShared, err := lock.Account(lock.Dir(d.Env), ws.account.Name)
	if err != nil {
		return err
	}
	plan, err := configdir.MakePlan(ws.input(d))
	if err != nil {
		releaseShared()
		return err
	}
	defer plan.Close()
	// Under the account's lock no session starts planning, so one found
	// free stays free until the plan is applied.
	busy, err := lock.List(lock.Dir(d.Env), func(k string) bool { return k == ws.lockKey() })
	applied := false
	switch {
	case err != nil:
	case len(plan.Steps) == 0:
		applied = true // nothing to write
	case len(busy) > 0:
		d.notef("claude (%s) runs in %s as PID %d, so %s is left as that session keeps it for this command (%d changes wait for the next session)",
			busy[0].Account, ws.where(d), busy[0].PID, ws.layout.ConfigDir, len(plan.Steps))
	default:
		err = plan.Apply()
		applied = err == nil
	}
	releaseShared()
	if err != nil {
		return err
	}
	if applied {
		for _, n := range append(ws.context.Notes, plan.Notes...) {
			d.notef("%s", n)
		}
	}
	plan.Close()
	warnRelease(d, doctor.Input{Account: ws.account, Context: ws.context, Layout: ws.layout, Claude: ws.claude})
	stamp := configdir.Stamp(ws.layout)
	hold := launch.HoldSignals()
	defer hold()
	st, err := launch.Run(launch.Spec{
		Path: claude, Args: args, Env: launchEnv(d, ws).List(), Dir: d.Dir,
		Stdin: d.Stdin, Stdout: d.Stdout, Stderr: d.Stderr,
	})
	switch {
	case err == nil && applied && len(busy) == 0:
		// 'mcp add -s user' shares its server with the account's other
		// worktrees, as a session's would; with a session running here,
		// that session's own harvest takes it in when it ends.
		harvest(d, ws, stamp)
	case len(busy) == 0:
		if release, lerr := lock.Account(lock.Dir(d.Env), ws.account.Name); lerr == nil {
			ws.leave(d)
			release()
		}
	}
	hold()
	return exitStatus(st, err)
}

// sessionOf names a session by its instance lock: the lock's name, and a
// token of its holder (PID and start) that no later holder shares.
func sessionOf(held *lock.Lock) (id, token string) {
	h := held.Holder()
	return strings.TrimSuffix(filepath.Base(held.Path), ".lock"), session.Token(h.PID, h.Started.UnixNano())
}

// sessionArgs adds to Claude's arguments what the launcher gives a session
// for itself, as flag settings (session.Spec): the state hooks for 'ps', and
// the status line and worktree hooks that account.toml asks for. They name
// the launcher running now, so they follow the binary the user runs and go
// away with the option; the account's settings.json never holds them.
func sessionArgs(d *Deps, ws *workspace, id, token string, args []string) []string {
	spec := session.Spec{Exe: executable(), ID: id, Token: token, Claude: ws.claude}
	if spec.Exe == "" {
		d.notef("the launcher cannot find its own path, so this session runs without its hooks ('ps' shows it as starting)")
		return args
	}
	a := ws.account
	if a.Config.StatusLine {
		// Flag settings win over the account's: ours only where it has none.
		data, _ := fsx.ReadFile(filepath.Join(a.Dir, "settings.json"))
		spec.StatusLine = !gjson.GetBytes(data, "statusLine").Exists()
	}
	if a.Config.Worktree.UseHooks {
		if ws.claude.Has(session.WorktreeHooksSince) {
			// The hook runs inside Claude, where CLAUDE_ACCOUNT_DIR is not
			// set: name the account dir when it is not the default one.
			spec.WorktreeHooks = " --account " + a.Name
			if filepath.Base(a.Dir) != ".claude-"+a.Name {
				spec.WorktreeHooks += " --account-dir " + session.ShellQuote(a.Dir)
			}
		} else {
			d.notef("[worktree] use_hooks needs Claude Code %s or later (this is %s); claude --worktree makes its own worktrees", session.WorktreeHooksSince, ws.claude.Label())
		}
	}
	out, err := session.WithSettings(args, spec.JSON(), d.Dir)
	if err != nil {
		d.notef("%v; Claude runs with your --settings as given, without the launcher's hooks", err)
		return args
	}
	return out
}

// accountAmongClaudeArgs explains an --account that came after Claude's
// arguments, where it is Claude's: kong hands everything after the first of
// them to Claude.
func accountAmongClaudeArgs(args []string) string {
	for i, a := range args {
		name, rest := "", []string(nil)
		switch {
		case (a == "--account" || a == "-a") && i+1 < len(args):
			name, rest = args[i+1], append(slices.Clone(args[:i]), args[i+2:]...)
		case strings.HasPrefix(a, "--account="):
			name, rest = strings.TrimPrefix(a, "--account="), append(slices.Clone(args[:i]), args[i+1:]...)
		default:
			continue
		}
		return fmt.Sprintf("no account given: %s after Claude's arguments goes to Claude; put it before them: claude-account run --account %s -- %s",
			strings.SplitN(a, "=", 2)[0], shellWord(name), shellWords(rest))
	}
	return ""
}

// dryRunWorktree handles --dry-run --worktree: an existing worktree is
// planned like any other (d moves into it); a missing one is described, and
// nothing more can be planned for a directory that does not exist yet.
func (c *RunCmd) dryRunWorktree(d *Deps) (done bool, err error) {
	if err := worktree.ValidateSlug(c.Worktree); err != nil {
		return true, UsageError{err}
	}
	r, _, _, err := repoFor(d, c.AccountFlags)
	if err != nil {
		return true, err
	}
	path := r.PathFor(c.Worktree)
	if e, err := r.Find(path); err == nil && e != nil {
		d.Dir = path
		return false, nil
	}
	fmt.Fprintf(d.Stdout, "would create worktree %s on branch %s (claude-account worktree new %s), then build its runtime and start Claude there\n",
		path, worktree.Branch(c.Worktree), c.Worktree)
	return true, nil
}

// dryRun prints what a launch would change and start; it takes no lock and
// writes nothing.
func (c *RunCmd) dryRun(d *Deps, ws *workspace, claude string, args []string, inv session.Invocation) error {
	plan, err := configdir.MakePlan(ws.input(d))
	if err != nil {
		return err
	}
	defer plan.Close()
	if err := plan.Verify(); err != nil {
		return err
	}
	fmt.Fprint(d.Stdout, plan.String())
	for _, n := range append(ws.context.Notes, plan.Notes...) {
		fmt.Fprintln(d.Stdout, "note: "+n)
	}
	if inv.Session {
		// The session's name is its lock's; its holder is not known yet.
		args = sessionArgs(d, ws, strings.TrimSuffix(lock.Name(ws.lockKey(), 0), ".lock"), "PID-START", args)
	} else {
		fmt.Fprintf(d.Stdout, "note: 'claude %s' is a command, not a session: it runs beside a session in this workspace, without the instance lock\n", inv.Command)
	}
	fmt.Fprintln(d.Stdout, "exec "+envWords(d.Env, launchEnv(d, ws))+" "+shellWords(append([]string{claude}, args...)))
	return nil
}

// envWords is what the launcher changes in Claude's environment, as words
// for env(1), which sh runs after exec as it would not run assignments:
// env -u for each variable it removes, then CLAUDE_CONFIG_DIR, then the
// others sorted.
func envWords(from, to env.Env) string {
	var set, unset []string
	for k, v := range to {
		if w, ok := from[k]; (!ok || w != v) && k != "CLAUDE_CONFIG_DIR" {
			set = append(set, k+"="+shellWord(v))
		}
	}
	for k := range from {
		if _, ok := to[k]; !ok {
			unset = append(unset, "-u "+shellWord(k))
		}
	}
	slices.Sort(set)
	slices.Sort(unset)
	words := append(append([]string{"env"}, unset...), "CLAUDE_CONFIG_DIR="+shellWord(to["CLAUDE_CONFIG_DIR"]))
	return strings.Join(append(words, set...), " ")
}

// shellWord quotes s for sh when it needs it.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./_-", r))
	}) < 0 {
		return s
	}
	return session.ShellQuote(s)
}

// shellWords quotes each word for sh, joined by spaces.
func shellWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shellWord(w)
	}
	return strings.Join(q, " ")
}

// claudeCandidates lists where the Claude binary may come from, in order.
func claudeCandidates(d *Deps, a *account.Account) []launch.Candidate {
	return []launch.Candidate{
		{Source: "claude in " + d.Env.TildePath(filepath.Join(a.Dir, account.FileName)), Name: d.Env.ExpandHome(a.Config.Claude)},
		{Source: "$CLAUDE_ACCOUNT_CLAUDE", Name: d.Env.Get("CLAUDE_ACCOUNT_CLAUDE")},
		{Source: "PATH", Name: "claude"}, // the last resort is always set
	}
}

// launchEnv is Claude's environment: ours plus the config dir, the account
// and — in a workspace, unless the user chose one — a task list of its own.
func launchEnv(d *Deps, ws *workspace) env.Env {
	e := d.Env.With("CLAUDE_CONFIG_DIR", ws.layout.ConfigDir, "CLAUDE_ACCOUNT", ws.account.Name)
	// The login, the memory and the plugins are the account's, in every
	// worktree: see configdir.SharedVia.
	for _, s := range configdir.SharedEnv(ws.account, ws.layout, d.Env, ws.claude) {
		e[s.Variable] = s.Path
	}
	// A wrapper's account dir and Claude binary must not leak into a
	// launcher started from inside Claude for another account (claudepro
	// within claudemax): it would use this account's Claude.
	delete(e, "CLAUDE_ACCOUNT_DIR")
	delete(e, "CLAUDE_ACCOUNT_CLAUDE")
	if ws.inWorkTree() && e.Get("CLAUDE_CODE_TASK_LIST_ID") == "" && ws.claude.Has(claudever.TaskListID) {
		e["CLAUDE_CODE_TASK_LIST_ID"] = "ws-" + ws.context.Fingerprint
		if m := worktree.ReadMeta(ws.context.GitDir); m != nil && ws.context.Kind == gitctx.Linked {
			e["CLAUDE_CODE_TASK_LIST_ID"] = worktree.Flatten(m.Slug)
		}
	}
	return e
}

// harvest records what Claude changed in the shared state during the session
// (servers it added or removed, the repository's trust), so the account's
// other worktrees get it at their next launch. A failure here loses nothing:
// the next launch in this worktree harvests the same.
func harvest(d *Deps, ws *workspace, since configdir.StateStamp) {
	release, err := lock.Account(lock.Dir(d.Env), ws.account.Name)
	if err != nil {
		return
	}
	defer release()
	defer ws.leave(d)
	plan, err := configdir.Harvest(ws.input(d), since)
	if err != nil {
		return
	}
	defer plan.Close()
	if err := plan.Apply(); err != nil {
		d.notef("%v", err)
	}
}

// afterExit removes an ephemeral worktree Claude left without work
// (worktree.AfterExit).
func afterExit(d *Deps, ws *workspace) {
	note := worktree.AfterExit(ws.context, ws.account.WorktreeDir(d.Env), d.Env.List(),
		worktree.RemoveOptions{Running: runningIn(d), Now: d.Now()}, d.Env.TildePath)
	if note != "" {
		d.notef("%s", note)
	}
}

// executable is this program's path, for the hooks a session runs: the
// binary itself, not a claude<name> link to it, which would start Claude.
func executable() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		return real
	}
	return exe
}
