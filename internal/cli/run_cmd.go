package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/doctor"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/lock"
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
	ws, err := c.load(d)
	if err != nil {
		return err
	}
	args := c.Args
	if len(args) > 0 && args[0] == "--" {
		// kong keeps the separator; it was ours, not Claude's.
		args = args[1:]
	}
	bin, err := ws.findClaude(d)
	if err != nil {
		return err
	}
	claude := bin.Path
	if c.DryRun {
		return c.dryRun(d, ws, claude, args)
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

	st, err := launch.Run(launch.Spec{
		Path: claude, Args: args, Env: launchEnv(d, ws).List(), Dir: d.Dir,
		Stdin: d.Stdin, Stdout: d.Stdout, Stderr: d.Stderr,
		Started: func(pid int) { _ = held.SetClaudePID(pid) },
	})
	held.Release()
	if err == nil {
		harvest(d, ws, stamp)
		afterExit(d, ws)
	}
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
func (c *RunCmd) dryRun(d *Deps, ws *workspace, claude string, args []string) error {
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
	fmt.Fprintf(d.Stdout, "exec CLAUDE_CONFIG_DIR=%s %s %q\n", ws.layout.ConfigDir, claude, args)
	return nil
}

// claudeCandidates lists where the Claude binary may come from, in order.
func claudeCandidates(d *Deps, a *account.Account) []launch.Candidate {
	return []launch.Candidate{
		{Source: "claude in " + d.Env.TildePath(filepath.Join(a.Dir, account.FileName)), Name: a.Config.Claude},
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
	// A wrapper's account dir must not leak into a launcher started from
	// inside Claude for another account (claudepro within claudemax).
	delete(e, "CLAUDE_ACCOUNT_DIR")
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

// executable is this program's path, for the hooks registered in settings.
func executable() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return exe
}
