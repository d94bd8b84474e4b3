package launch

import (
	"fmt"

	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/lock"
)

// Command runs a Claude command that is not a session ('mcp list',
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
// session applies what waits. FindClaude has run.
func (w *Workspace) Command(args []string, io IO) (Status, error) {
	if err := w.Launchable(); err != nil {
		return Status{}, err
	}
	sigs := w.signals()
	defer func() { go sigs.Stop() }()
	applied, busy, err := w.prepareCommand(io)
	if err != nil {
		return Status{}, err
	}
	w.warnRelease(io)
	stamp := configdir.Stamp(w.Layout)
	st, err := Run(Spec{
		Path: w.Claude.Path, Args: args, Env: w.ClaudeEnv().List(), Dir: w.dir,
		Stdin: io.Stdin, Stdout: io.Stdout, Stderr: io.Stderr, Signals: sigs,
	})
	switch {
	case err == nil && applied && !busy && !st.Stopped:
		// 'mcp add -s user' shares its server with the account's other
		// worktrees, as a session's would; with a session running here,
		// that session's own after-exit pass takes it in when it ends.
		w.harvest(stamp, io)
	case err == nil && busy && !st.Stopped:
		// A login made beside the session ('auth login') bills every
		// config dir of the account at once (the credentials are shared),
		// so who it is must reach the ledger now, not when that session
		// ends: the identity check of a launch elsewhere reads it there.
		w.harvestBeside(stamp)
	case !busy:
		if release, lerr := lock.Account(w.lockDir, w.Account.Name); lerr == nil {
			w.leave(io)
			release()
		}
	}
	return st, err
}

// prepareCommand applies the plan when no session runs in the config dir
// (under the account's lock, so none starts planning meanwhile); busy says a
// session runs there.
func (w *Workspace) prepareCommand(io IO) (applied, busy bool, err error) {
	releaseShared, err := lock.Account(w.lockDir, w.Account.Name)
	if err != nil {
		return false, false, err
	}
	plan, err := configdir.MakePlan(w.Input())
	if err != nil {
		releaseShared()
		return false, false, err
	}
	defer plan.Close()
	holders, err := w.Holders()
	busy = len(holders) > 0
	switch {
	case err != nil:
	case len(plan.Steps) == 0:
		applied = true // nothing to write
	case busy:
		io.Note(fmt.Sprintf("claude (%s) runs in %s as PID %d, so %s is left as that session keeps it for this command (%d changes wait for the next session)",
			holders[0].Account, w.Where(), holders[0].PID, w.Layout.ConfigDir, len(plan.Steps)))
	default:
		err = plan.Apply()
		applied = err == nil
	}
	if err == nil {
		// The account's file, not this config dir's, which the Claude of
		// any worktree may change at any time: beside a session too.
		w.knowMarketplaces(io)
	}
	releaseShared()
	if err != nil {
		return false, busy, err
	}
	if applied {
		for _, n := range append(w.Context.Notes, plan.Notes...) {
			io.Note(n)
		}
	}
	return applied, busy, nil
}
