package launch

import (
	"fmt"

	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/runtimes"
	"github.com/claude-account/claude-account/internal/worktree"
)

// afterExit is the pass after Claude's session: what Claude changed in what
// the account shares is recorded (harvest), the runtime is marked as left
// alone, and — when Claude ran — an ephemeral worktree it left without work
// is removed. The instance lock is released by then.
func (w *Workspace) afterExit(since configdir.StateStamp, ran bool, io IO) {
	// The transcripts to keep are found before harvest moves the runtime's
	// quiet time on: one planted before this session must not pass for one
	// of its Claude.
	rec := w.record()
	todo, first, refresh := w.unkept(rec)
	w.harvestWith(since, rec, io)
	w.keepCopies(todo, first || refresh, io)
	if ran {
		w.removeIfEphemeral(io)
	}
}

// harvest records what Claude changed in the shared state during the session
// (servers it added or removed, the repository's trust, the account's keys)
// as a second plan, applied like the first, so the account's other worktrees
// get it at their next launch. A failure here loses nothing: the next launch
// in this worktree harvests the same.
func (w *Workspace) harvest(since configdir.StateStamp, io IO) { w.harvestWith(since, nil, io) }

// harvestWith is harvest, asking the account's record of runtimes rec
// (read once for the whole after-exit pass; nil: read here) whether the
// runtime was left alone.
func (w *Workspace) harvestWith(since configdir.StateStamp, rec *runtimes.Record, io IO) {
	if configdir.Stamp(w.Layout) == since && w.leftAloneIn(rec) {
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

// harvestBeside is harvest for a command that ran beside a session in this
// config dir: it records what the command changed (a login, a server) in
// the ledger and in this config dir's record of what it saw, and writes
// nothing of Claude's. The runtime is not marked left alone (leave): its
// session still runs, and its own exit does that.
func (w *Workspace) harvestBeside(since configdir.StateStamp) {
	if configdir.Stamp(w.Layout) == since {
		return // the command wrote nothing of Claude's state
	}
	release, err := lock.Account(w.lockDir, w.Account.Name)
	if err != nil {
		return
	}
	defer release()
	plan, err := configdir.Harvest(w.Input(), since)
	if err != nil {
		return
	}
	defer plan.Close()
	_ = plan.Apply() // a failure loses nothing: the session's exit harvests the same
}

// unkept lists the transcripts of the runtime the account has no current
// copy of and this session's Claude wrote, or on the first pass for a
// runtime of an earlier version, one of an earlier session
// (worktree.FindUnkept): the quiet time it trusts is the record's before
// this session, or when the last launcher here died in a session, the time
// it was last known alive (what changed until then was that session's
// Claude's). first says the runtime's first pass is due, refresh that the
// record beside the copies is out of date. A session that
// wrote no transcript costs a read of the record and a stat of each
// transcript, and no lock.
func (w *Workspace) unkept(rec *runtimes.Record) (todo []worktree.Unkept, first, refresh bool) {
	if rec == nil || !w.InWorkTree() {
		return nil, false, false
	}
	// Whether the launcher made the dir is asked under the lock
	// (KeepCopies), when there is something to do.
	e, ok := rec.Runtimes[w.Layout.ConfigDir]
	if !ok {
		return nil, false, false
	}
	todo, touched := worktree.FindUnkept(w.Layout.ConfigDir, w.copiesDir, w.started, !e.Kept, max(e.Quiet, w.Unclean))
	// A session that went on with conversations the account keeps already
	// (a hard link follows them) may have switched branches: the record
	// resume makes the worktree again from says the one it is on now.
	refresh = touched && len(todo) == 0 && worktree.RecordStale(w.copiesDir(), w.Context.GitDir)
	return todo, !e.Kept, refresh
}

func (w *Workspace) copiesDir() string {
	return worktree.CopiesDir(w.Account.Dir, w.Context.CommonDir, w.Layout.ConfigDir)
}

// keepCopies gives the account its own copy (a hard link) of each
// transcript unkept listed (and on the first pass for the runtime, the
// record that it is over), under the account's lock, so that the
// conversation outlives the worktree's git dir (`rm -rf` of the worktree,
// then git worktree prune): worktree.KeepCopies. A failure loses nothing:
// the next session here tries again.
func (w *Workspace) keepCopies(todo []worktree.Unkept, record bool, io IO) {
	if len(todo) == 0 && !record {
		return
	}
	release, err := lock.Account(w.lockDir, w.Account.Name)
	if err != nil {
		return
	}
	defer release()
	k, err := worktree.KeepCopies(w.Account.Dir, w.Layout.ConfigDir, w.copiesDir(), todo, record, w.now(), conversation.Keep(w.Account.Dir))
	if err != nil {
		io.Note(err.Error())
	}
	if k.Copied > 0 && k.First {
		// Once per runtime: every later session copies its changes again.
		io.Note(fmt.Sprintf("the account keeps its own copy of this worktree's conversations in %s, and cannot hard-link them there (%s): they are copied after each session, and take disk space until Claude's cleanup period (cleanupPeriodDays) is over or 'claude-account purge' removes them", w.copiesDir(), k.CopiedWhy))
	}
}

// record is the account's record of its runtimes, when the workspace runs
// in a runtime and it can be read; else nil.
func (w *Workspace) record() *runtimes.Record {
	if !w.Layout.IsRuntime {
		return nil
	}
	rec, err := runtimes.Read(runtimes.Path(w.Account.Dir))
	if err != nil {
		return nil
	}
	return rec
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
	if m := worktree.ReadMeta(w.Context.GitDir); m == nil || !m.Ephemeral {
		return
	}
	if in := w.backgroundIn(w.Context.Toplevel); len(in) > 0 {
		// The session went on in the background (--bg, ←): never removed
		// under it, and still ephemeral for the pass after the next.
		io.Note(fmt.Sprintf("kept the ephemeral worktree %s: background session %s works in it; it stays ephemeral, and is removed after a later session there once no session works in it",
			w.env.TildePath(w.Context.Toplevel), in[0].ID))
		return
	}
	o := worktree.RemoveOptions{Running: lock.RunningIn(w.lockDir, func(err error) { io.Note(err.Error()) }),
		AccountDir: AccountDirs(w.env, w.Account), Now: w.now()}
	for _, note := range worktree.AfterExit(w.Context, w.Account.WorktreeDir(w.env), w.env.List(), o, w.env.TildePath) {
		io.Note(note)
	}
}
