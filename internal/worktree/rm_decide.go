package worktree

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/shell"
)

// Reason is why Remove refuses a worktree, one for each refusal, so that a
// caller tells them apart without reading the message.
type Reason int

const (
	// ReasonMain: the main worktree; only linked worktrees are removed.
	ReasonMain Reason = iota + 1
	// ReasonRunning: a Claude the launcher started runs there.
	ReasonRunning
	// ReasonClaude: a Claude process works there, however it was started;
	// --force refuses too.
	ReasonClaude
	// ReasonClaudeUnknown: whether a Claude works there cannot be told.
	ReasonClaudeUnknown
	// ReasonAccountUnfound: a runtime there holds transcripts of an account
	// whose dir the removal cannot find, to archive them in.
	ReasonAccountUnfound
	// ReasonAsideAccountUnfound: so does a runtime set aside there.
	ReasonAsideAccountUnfound
	// ReasonRecordChanged: the worktree's dir is gone, but git's record of
	// it names a git dir whose runtime the launcher made for a worktree that
	// is there: pruning would cut that one from git (a planted gitdir).
	ReasonRecordChanged
	// ReasonNestedRepo: a git repository inside holds work that --force
	// cannot save (NestedRepoError); --force refuses too.
	ReasonNestedRepo
	// ReasonUncommitted: uncommitted changes; --force saves them first.
	ReasonUncommitted
	// ReasonCommits: commits found on no other branch or remote and not
	// merged; --force keeps them reachable.
	ReasonCommits
	// ReasonBackground: Claude's fleet lives there: a background session
	// works in it, or a supervisor runs in its runtime; --force refuses too.
	ReasonBackground
	// ReasonLocked: git's lock on it is not a stale one of Claude's (a
	// session that still runs, or a lock of someone else's); unforced, any
	// lock refuses, and --force lifts only Claude's stale one.
	ReasonLocked
)

var reasonNames = [...]string{ReasonMain: "main", ReasonRunning: "running", ReasonClaude: "claude",
	ReasonClaudeUnknown: "claude-unknown", ReasonAccountUnfound: "account-unfound",
	ReasonAsideAccountUnfound: "aside-account-unfound", ReasonRecordChanged: "record-changed",
	ReasonNestedRepo: "nested-repo", ReasonUncommitted: "uncommitted", ReasonCommits: "commits",
	ReasonBackground: "background", ReasonLocked: "locked"}

func (r Reason) String() string {
	if r > 0 && int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", int(r))
}

// Refusal is Remove refusing a worktree: why, and one sentence that says
// so with its fix.
type Refusal struct {
	Reason Reason
	Path   string // the worktree
	// Account, for ReasonAccountUnfound and ReasonAsideAccountUnfound, is
	// the account whose dir the removal cannot find.
	Account string
	msg     string
	cause   error // what says more: a *NestedRepoError, why Claudes cannot tell
}

func (e *Refusal) Error() string { return e.msg }

// Unwrap is the refusal's cause, when another error says it.
func (e *Refusal) Unwrap() error { return e.cause }

// removalFacts is what deciding a removal reads: observeRemoval reads it,
// decideRemoval decides from it alone.
type removalFacts struct {
	// Path, Branch ("" when detached) and HEAD are the worktree as git
	// lists it; Prunable, that its directory is gone and git's record of
	// it is not.
	Path, Branch, HEAD string
	Prunable           bool
	Main               bool // the main worktree, or a bare repository's entry
	Force              bool
	SpareUnfound       bool // RemoveOptions.SpareUnfound
	// Running names the accounts whose launcher-started Claude runs there.
	Running []string
	// Background is what of Claude's fleet lives there (RemoveOptions.Background).
	Background []Hosted
	// Lock is git's lock on it, nil when it has none; LockLive, that the
	// process a lock of Claude's names runs (always, for another lock).
	Lock     *Lock
	LockLive bool
	// Claudes are the PIDs of Claude processes that work there, however
	// they were started; ClaudesErr says that cannot be told. Not read for
	// a prunable one: no process works in a dir that is gone.
	Claudes    []int
	ClaudesErr error
	// GitDir is the worktree's git dir (for a prunable one, the admin dir
	// git keeps of it); Meta, our record in it; Base, what its work is
	// measured against. Slug is the name 'worktree new' makes it again
	// under, at the same path; "" when it would not.
	GitDir string
	Meta   *Meta
	Base   string
	Slug   string
	// Unfound is a runtime in GitDir holding transcripts of the account
	// UnfoundAccount, whose dir cannot be found; UnfoundAside, one set
	// aside holding its conversations. Read unless forced.
	Unfound, UnfoundAccount           string
	UnfoundAside, UnfoundAsideAccount string
	// AdminDir is, for a prunable one, the admin dir git's record of it
	// names; LiveElsewhere, the worktree that is there whose runtime the
	// launcher made in that admin dir (liveElsewhere).
	AdminDir, LiveElsewhere string
	// Nested is what checkNested found: a *NestedRepoError, or why a
	// nested repository cannot be read. Work is what the worktree holds
	// (Changes, Commits; Merged, read only for commits when not forced),
	// and ChangesErr and CommitsErr why it cannot be read. None of them is
	// read for a prunable one.
	Nested                 error
	Work                   work
	ChangesErr, CommitsErr error
}

// observeRemoval reads what decideRemoval needs, in the order it weighs
// it, and each fact only when none read before it refuses the removal or
// cannot be read: a worktree refused as the main one, or for a Claude
// working in it, is neither walked nor asked of git, and a refusal among
// the first facts wins over a failure to read the later ones, as
// decideRemoval's order says.
func (r *Repo) observeRemoval(e *Entry, o RemoveOptions) removalFacts {
	f := removalFacts{Path: e.Path, Branch: e.Branch, HEAD: e.HEAD, Prunable: e.Prunable, Force: o.Force, SpareUnfound: o.SpareUnfound,
		Main: e.Bare || r.isMain(e)}
	g := r.Git.In(e.Path)
	reads := []func(){
		func() {
			if o.Running != nil {
				f.Running = o.Running(e.Path)
			}
		},
		func() {
			if o.Background != nil {
				gitDir, _ := GitDir(e.Path)
				if gitDir == "" {
					gitDir = r.adminDir(e.Path)
				}
				f.Background = o.Background(e.Path, gitDir)
			}
		},
		func() {
			if o.Claudes != nil && !e.Prunable {
				f.Claudes, f.ClaudesErr = o.Claudes(e.Path)
			}
		},
		func() {
			f.GitDir, _ = GitDir(e.Path)
			if f.GitDir == "" && e.Prunable {
				f.GitDir = r.adminDir(e.Path) // our record outlives the directory
			}
			f.Meta = ReadMeta(f.GitDir)
			f.Base = r.defaultBase()
			if m := f.Meta; m != nil && m.Base != "" {
				f.Base = m.Base
			}
			if o.Base != "" {
				f.Base = o.Base
			}
			if m := f.Meta; m != nil && m.Slug != "" && fsx.SamePath(r.PathFor(m.Slug), e.Path) {
				f.Slug = m.Slug
			}
		},
		func() {
			if !o.Force || o.SpareUnfound {
				f.Unfound, f.UnfoundAccount = unfoundAccount(f.GitDir, o)
			}
		},
		func() {
			if !o.Force || o.SpareUnfound {
				f.UnfoundAside, f.UnfoundAsideAccount = unfoundAsideAccount(f.GitDir, o)
			}
		},
		func() {
			if !e.Locked {
				return
			}
			if f.Lock = r.lockOf(e.Path); f.Lock == nil {
				f.Lock = &Lock{} // locked, its reason unreadable
			}
			f.LockLive = !f.Lock.Claude || o.Alive == nil || o.Alive(f.Lock.PID)
		},
		func() {
			if e.Prunable {
				if f.AdminDir = r.adminDir(e.Path); f.AdminDir != "" {
					f.LiveElsewhere = liveElsewhere(f.AdminDir, e.Path, o)
				}
			}
		},
		func() {
			if !e.Prunable {
				f.Nested = checkNested(g, e.Path)
			}
		},
		func() {
			if !e.Prunable {
				f.Work.Changes, f.ChangesErr = uncommitted(g)
			}
		},
		func() {
			if e.Prunable || e.HEAD == "" {
				return
			}
			f.Work.Commits, f.CommitsErr = unique(g, e.HEAD, e.Branch)
			if f.CommitsErr == nil && f.Work.Commits > 0 && !o.Force {
				f.Work.Merged, _ = contained(g, f.Base, e.HEAD)
			}
		},
	}
	for _, read := range reads {
		if _, err := decideRemoval(f); err != nil {
			break
		}
		read()
	}
	return f
}

// removalPlan is what Remove does once nothing refuses, in this order.
type removalPlan struct {
	// KeepDetached counts the commits of a detached HEAD found on no other
	// branch or remote, kept reachable from WIPRef-head.
	KeepDetached int
	// SaveWIP: the uncommitted changes are saved as a commit under WIPRef;
	// Again is the slug 'worktree new' puts them back under ("" none).
	SaveWIP bool
	WIPRef  string
	Again   string
	// Archive: the transcripts of the runtimes in ArchiveDir go to their
	// accounts' archives under the name ArchiveAs, with a record of the
	// worktree that names RecordBase.
	Archive               bool
	ArchiveDir, ArchiveAs string
	RecordBase            string
	// Prune: when git cannot remove it (its dir is gone), git worktree
	// prune forgets it.
	Prune bool
	// Unlock: Claude's lock on it names a process that is gone; lifted
	// before git removes it. Lock is that lock.
	Unlock bool
	Lock   Lock
	// KeepBranch: the branch is the user's, kept whatever it holds.
	// DropBranch: the branch New made for it goes when merged into Base.
	KeepBranch, DropBranch bool
	Base                   string
}

// decideRemoval decides, from facts alone, whether a worktree may be
// removed, and what its removal does; a refusal is a *Refusal. The first
// that applies refuses:
//   - the main worktree;
//   - a Claude working there: one the launcher started (the lock it holds),
//     Claude's fleet (a background session working there, a supervisor in
//     its runtime: named with Claude's command that stops it), one found in
//     the process table, even forced;
//   - unless forced, a runtime (or one set aside) holding conversations of
//     an account whose dir the removal cannot find: they would go with the
//     worktree, unarchived;
//   - unless forced, a Claude that may work there (where it works cannot
//     be read): after the conversations, so that the --force it names
//     archives them all;
//   - git's lock on it: Claude's, of a session whose process is gone, only
//     unforced (--force lifts it); Claude's of a live one, or anyone else's,
//     even forced;
//   - its dir gone, a git record that names the git dir of a worktree that
//     is there (pruning would cut that one from git);
//   - a git repository inside holding work --force cannot save;
//   - unless forced, the work it holds (holdsWork): uncommitted changes, or
//     commits neither merged into its base nor found elsewhere.
//
// A fact that could not be read fails the removal where it is weighed.
// Forced, uncommitted work is saved first under refs/claude-account/wip/
// <name>, a detached HEAD's commits kept under <that>-head. Only a branch
// New made for the worktree goes with it, and only when merged into a base
// found on another branch, tag or remote (applyRemoval: the record naming
// the base is a file of the repository).
//
// Pinned by testscripts worktree-rm-safe, worktree-rm-running,
// worktree-rm-live-claude, worktree-ephemeral-live-claude,
// worktree-rm-account-elsewhere, worktree-rm-planted-runtime,
// worktree-rm-set-aside-conversations, worktree-gc-set-aside-conversations,
// harden-gc-planted-gitdir, worktree-rm-nested-repo, harden-git-filter,
// worktree-rm-hidden-edits, worktree-rm-sparse, worktree-rm-squash-merged,
// worktree-rm-plain-git, worktree-rm-archive, worktree-new-after-rm-force,
// worktree-rm-resume-cycle, worktree-ephemeral-after-session, worktree-gc,
// worktree-gc-gone-archives, harden-rm-base-is-branch,
// real-claude-worktree-rm-live, real-claude-ephemeral-after-session,
// real-claude-fleet-rm-refuses, real-claude-fleet-rm-runtime-supervisor and
// worktree-rm-force-stale-claude-lock; and by TestDecideRemoval.
func decideRemoval(f removalFacts) (removalPlan, error) {
	refuse := func(why Reason, cause error, format string, args ...any) (removalPlan, error) {
		return removalPlan{}, &Refusal{Reason: why, Path: f.Path, msg: fmt.Sprintf(format, args...), cause: cause}
	}
	refuseFor := func(acct string, why Reason, format string, args ...any) (removalPlan, error) {
		return removalPlan{}, &Refusal{Reason: why, Path: f.Path, Account: acct, msg: fmt.Sprintf(format, args...)}
	}
	if f.Main {
		return refuse(ReasonMain, nil, "%s is the main worktree; only linked worktrees can be removed", f.Path)
	}
	if len(f.Running) > 0 {
		// The close names the worktree: rm runs from anywhere in the repository.
		return refuse(ReasonRunning, nil, "claude (%s) runs in %s; stop it first ('claude-account close --account %s %s')", f.Running[0], f.Path, f.Running[0], shell.Quote(f.Path))
	}
	if len(f.Background) > 0 {
		return refuse(ReasonBackground, nil, "%s", backgroundRefusal(f.Path, f.Background, "rm"))
	}
	if len(f.Claudes) > 0 {
		return refuse(ReasonClaude, nil, "claude (PID %d) works in %s; let it finish or stop it (kill %d), then run rm again", f.Claudes[0], f.Path, f.Claudes[0])
	}
	// Before anything is saved or removed: what is archived goes to the
	// account the runtime is named for, found where a launch finds it. One
	// kept in a dir of its own (init --dir, --account-dir) this removal was
	// not told about would go with the worktree unarchived.
	if (!f.Force || f.SpareUnfound) && f.Unfound != "" {
		acct := f.UnfoundAccount
		return refuseFor(acct, ReasonAccountUnfound, "%s holds transcripts of account %s, whose dir this removal cannot find; if it is yours, name it (--account %s --account-dir DIR) to archive them there, else (it came with the repository) --force removes them with the worktree", f.Unfound, acct, acct)
	}
	// A runtime set aside keeps conversations of an account whose dir must
	// be found to archive them, as for any runtime.
	if (!f.Force || f.SpareUnfound) && f.UnfoundAside != "" {
		acct := f.UnfoundAsideAccount
		return refuseFor(acct, ReasonAsideAccountUnfound, "%s, a runtime set aside, holds conversations of account %s, whose dir this removal cannot find; if it is yours, name it (--account %s --account-dir DIR) to archive them there, else --force removes them with the worktree", f.UnfoundAside, acct, acct)
	}
	// After the conversations: the --force this names must archive them all.
	if f.ClaudesErr != nil && !f.Force {
		// Not a guess either way: --force saves the work first.
		return refuse(ReasonClaudeUnknown, f.ClaudesErr, "cannot tell whether a Claude works in %s: %v; stop it, or remove anyway with 'claude-account worktree rm --force %s'", f.Path, f.ClaudesErr, shell.Quote(f.Path))
	}
	var unlock bool
	if l := f.Lock; l != nil {
		switch {
		case l.Claude && f.LockLive:
			// The PID runs; whether it is still that session no file
			// proves (a reused PID, or a reason a repository wrote), so the
			// way out is named too.
			return refuse(ReasonLocked, nil, "%s is locked by Claude's %s %s, and its PID %d runs; let it finish or stop it, then run rm again (if that process is not the session, 'git worktree unlock %s' lifts the lock)", f.Path, l.Kind, l.Name, l.PID, shell.Quote(f.Path))
		case l.Claude && !f.Force:
			return refuse(ReasonLocked, nil, "%s is locked by Claude's %s %s (PID %d), which has ended; 'claude-account worktree rm --force %s' lifts the lock and removes it, saving its work first", f.Path, l.Kind, l.Name, l.PID, shell.Quote(f.Path))
		case l.Claude:
			unlock = true
		case l.Reason == "":
			return refuse(ReasonLocked, nil, "%s is locked (git worktree lock); if nothing uses it, run 'git worktree unlock %s', then rm again", f.Path, shell.Quote(f.Path))
		default:
			return refuse(ReasonLocked, nil, "%s is locked (git worktree lock: %s); if nothing uses it, run 'git worktree unlock %s', then rm again", f.Path, oneLine(l.Reason), shell.Quote(f.Path))
		}
	}
	if f.LiveElsewhere != "" {
		return refuse(ReasonRecordChanged, nil, "git records %s as the checkout of %s, and it is gone, but claude-account made that worktree's runtime for %s, which is there and names that git dir: git's record changed (it came with the repository?); run 'git worktree repair' in %s", f.Path, f.AdminDir, f.LiveElsewhere, f.LiveElsewhere)
	}
	name := filepath.Base(f.Path)
	p := removalPlan{WIPRef: "refs/claude-account/wip/" + name, Base: f.Base, Unlock: unlock}
	if unlock {
		p.Lock = *f.Lock
	}
	if f.Prunable {
		// Its directory is gone, but git's record of it (and the runtime
		// inside, with Claude's transcripts) is not: archived before
		// pruning.
		if f.AdminDir != "" {
			p.Archive, p.ArchiveDir, p.ArchiveAs = true, f.AdminDir, filepath.Base(f.AdminDir)
		}
		p.Prune = true
	} else {
		// Before anything is saved: --force cannot save a nested
		// repository's work, so it must not say it did.
		var ne *NestedRepoError
		switch {
		case errors.As(f.Nested, &ne):
			return refuse(ReasonNestedRepo, f.Nested, "%s", f.Nested.Error())
		case f.Nested != nil:
			return removalPlan{}, f.Nested
		case f.ChangesErr != nil:
			return removalPlan{}, f.ChangesErr
		}
		held := holdsWork(f.Work)
		if held == heldChanges && !f.Force {
			return refuse(ReasonUncommitted, nil, "%s has %d uncommitted change(s); commit them, or --force saves them under %s first", f.Path, f.Work.Changes, p.WIPRef)
		}
		if f.HEAD != "" {
			if f.CommitsErr != nil {
				return removalPlan{}, f.CommitsErr
			}
			if held == heldCommits && !f.Force {
				keep := "branch " + f.Branch
				if f.Branch == "" {
					keep = p.WIPRef + "-head"
				}
				return refuse(ReasonCommits, nil, "%s has %d commit(s) found on no other branch or remote; push or merge them, or --force keeps them reachable from %s", f.Path, f.Work.Commits, keep)
			}
			if f.Work.Commits > 0 && f.Branch == "" {
				// A detached HEAD has no branch to keep its commits alive.
				p.KeepDetached = f.Work.Commits
			}
		}
		if f.Work.Changes > 0 {
			p.SaveWIP, p.Again = true, f.Slug
		}
		p.Archive, p.ArchiveDir, p.ArchiveAs, p.RecordBase = true, f.GitDir, name, f.Base
	}
	// Only a branch New made for this worktree goes with it (or Remake,
	// making a removed one again on the branch New would make: its record
	// says so too): one the user made (git worktree add -b, or a
	// worktree-NAME branch New checked out as it was) is theirs, merged or
	// not.
	made := f.Meta != nil && f.Meta.MadeBranch && f.Branch == Branch(f.Meta.Slug)
	p.KeepBranch = f.Branch != "" && !made
	p.DropBranch = made && f.HEAD != ""
	return p, nil
}

// backgroundRefusal says, in one sentence, what of Claude's fleet keeps the
// worktree at path and the command that stops each; cmd is the command to
// run again then.
func backgroundRefusal(path string, hs []Hosted, cmd string) string {
	whats := make([]string, len(hs))
	stops := make([]string, 0, len(hs))
	seen := map[string]bool{}
	for i, h := range hs {
		whats[i] = h.What
		if !seen[h.Stop] {
			seen[h.Stop] = true
			stops = append(stops, "'"+h.Stop+"'")
		}
	}
	verb, it := "lives", "it"
	if len(hs) > 1 {
		verb, it = "live", "them"
	}
	return fmt.Sprintf("Claude's %s %s in %s; stop %s first (%s), then run %s again", strings.Join(whats, " and "), verb, path, it, strings.Join(stops, ", "), cmd)
}

// oneLine is a lock reason on one short line, as a message quotes it.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)), " ")
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}
