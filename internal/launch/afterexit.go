package launch

import (
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/worktree"
)

// afterExit is the pass after Claude's session: what Claude changed in what
// the account shares is recorded (harvest), the runtime is marked as left
// alone, and — when Claude ran — an ephemeral worktree it left without work
// is removed. The instance lock is released by then.
func (w *Workspace) afterExit(since configdir.StateStamp, ran bool, io IO) {
	w.harvest(since, io)
	if ran {
		w.removeIfEphemeral(io)
	}
}

// harvest records what Claude changed in the shared state during the session
// (servers it added or removed, the repository's trust, the account's keys)
// as a second plan, applied like the first, so the account's other worktrees
// get it at their next launch. A failure here loses nothing: the next launch
// in this worktree harvests the same.
func (w *Workspace) harvest(since configdir.StateStamp, io IO) {
	if configdir.Stamp(w.Layout) == since && w.leftAlone() {
		// Claude did not write its state, and nothing else in the runtime
		// changed since it was last left alone: nothing to take in and
		// nothing to record, so no lock to wait for.
		return
	}
	release, err := lock.Account(w.lockDir, w.Account.Name)
	if err != nil {
		return
	}
	defer release()
	defer w.leave(io)
	plan, err := configdir.Harvest(w.Input(), since)
	if err != nil {
		return
	}
	defer plan.Close()
	if err := plan.Apply(); err != nil {
		io.Note(err.Error())
	}
}

// leave is Leave, with a failure said, not returned: the session is over.
func (w *Workspace) leave(io IO) {
	if err := w.Leave(); err != nil {
		io.Note(err.Error())
	}
}

// removeIfEphemeral removes an ephemeral worktree Claude left without work
// (worktree.AfterExit), its conversations archived first to the accounts a
// launch of each finds (AccountDirs): without them, every runtime holding a
// transcript would keep the worktree.
func (w *Workspace) removeIfEphemeral(io IO) {
	if w.Context.Kind != gitctx.Linked {
		return // only a linked worktree is ever ephemeral: nothing to list
	}
	o := worktree.RemoveOptions{Running: lock.RunningIn(w.lockDir, func(err error) { io.Note(err.Error()) }),
		AccountDir: AccountDirs(w.env, w.Account), Now: w.now()}
	for _, note := range worktree.AfterExit(w.Context, w.Account.WorktreeDir(w.env), w.env.List(), o, w.env.TildePath) {
		io.Note(note)
	}
}
