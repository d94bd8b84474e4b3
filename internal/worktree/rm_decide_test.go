package worktree

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

// Remove's decision on facts alone: each refusal with its reason and its
// words, which refusal wins when several apply, what --force lets through,
// and what a removal does then.
func TestDecideRemoval(t *testing.T) {
	const path, gitDir = "/src/app.worktrees/x", "/src/app/.git/worktrees/x"
	head := "0123456789abcdef0123456789abcdef01234567"
	// A clean worktree New made, on the branch it made, everything merged.
	clean := removalFacts{Path: path, Branch: "worktree-x", HEAD: head, GitDir: gitDir,
		Meta: &Meta{Slug: "x", Base: "main", MadeBranch: true}, Base: "main", Slug: "x"}
	nested := &NestedRepoError{Repo: path + "/vendor/lib", Commits: 2}
	unreadable := errors.New("git status: exit status 128")
	type plan = removalPlan
	archived := plan{WIPRef: "refs/claude-account/wip/x", Base: "main", Archive: true, ArchiveDir: gitDir, ArchiveAs: "x", RecordBase: "main", DropBranch: true}
	with := func(p plan, f func(*plan)) plan { f(&p); return p }
	for _, c := range []struct {
		name    string
		f       func(*removalFacts)
		reason  Reason // the refusal, 0 when none
		account string // the account whose dir is not found, of such a refusal
		err     string // its words, or those of a fact that could not be read
		plan    *plan  // what it does, when nothing refuses
	}{
		{name: "clean and merged: archived, its branch dropped when merged", f: func(*removalFacts) {}, plan: &archived},
		{name: "the main worktree", f: func(f *removalFacts) { f.Main, f.Running = true, []string{"max"} },
			reason: ReasonMain, err: path + " is the main worktree; only linked worktrees can be removed"},
		{name: "a Claude the launcher started runs there", f: func(f *removalFacts) { f.Running, f.Claudes = []string{"max"}, []int{812} },
			reason: ReasonRunning, err: "claude (max) runs in " + path + "; stop it first ('claude-account close --account max " + path + "')"},
		{name: "a background session lives there, forced too: before the process table, naming Claude's stop", f: func(f *removalFacts) {
			f.Force, f.Claudes = true, []int{812}
			f.Background = []Hosted{{What: "background session 1a2b3c4d (max)", Stop: "claudemax stop 1a2b3c4d"}}
		}, reason: ReasonBackground, err: "Claude's background session 1a2b3c4d (max) lives in " + path + "; stop it first ('claudemax stop 1a2b3c4d'), then run rm again"},
		{name: "a supervisor in its runtime and its session: one command stops both", f: func(f *removalFacts) {
			stop := "CLAUDE_CONFIG_DIR=" + gitDir + "/claude-runtime/max claude daemon stop --any"
			f.Background = []Hosted{{What: "supervisor (max, PID 9)", Stop: stop}, {What: "background session 1a2b3c4d (max)", Stop: stop}}
		}, reason: ReasonBackground, err: "Claude's supervisor (max, PID 9) and background session 1a2b3c4d (max) live in " + path + "; stop them first ('CLAUDE_CONFIG_DIR=" + gitDir + "/claude-runtime/max claude daemon stop --any'), then run rm again"},
		{name: "Claude's lock of a session that runs, forced too", f: func(f *removalFacts) {
			f.Force, f.Lock, f.LockLive = true, &Lock{Claude: true, Kind: "session", Name: "x", PID: 77}, true
		}, reason: ReasonLocked, err: path + " is locked by Claude's session x, and its PID 77 runs; let it finish or stop it, then run rm again (if that process is not the session, 'git worktree unlock " + path + "' lifts the lock)"},
		{name: "Claude's lock of a session that ended, unforced: --force named", f: func(f *removalFacts) {
			f.Lock = &Lock{Claude: true, Kind: "session", Name: "x", PID: 77}
		}, reason: ReasonLocked, err: path + " is locked by Claude's session x (PID 77), which has ended; 'claude-account worktree rm --force " + path + "' lifts the lock and removes it, saving its work first"},
		{name: "Claude's lock of a session that ended, forced: lifted", f: func(f *removalFacts) {
			f.Force, f.Lock = true, &Lock{Claude: true, Kind: "session", Name: "x", PID: 77}
		}, plan: ptr(with(archived, func(p *plan) { p.Unlock, p.Lock = true, Lock{Claude: true, Kind: "session", Name: "x", PID: 77} }))},
		{name: "someone else's lock, forced too", f: func(f *removalFacts) {
			f.Force, f.Lock, f.LockLive = true, &Lock{Reason: "on a USB\x1b disk"}, true
		}, reason: ReasonLocked, err: path + " is locked (git worktree lock: on a USB disk); if nothing uses it, run 'git worktree unlock " + path + "', then rm again"},
		{name: "a Claude works there, forced too", f: func(f *removalFacts) {
			f.Force, f.Claudes, f.Unfound, f.UnfoundAccount = true, []int{812, 813}, gitDir+"/claude-runtime/max", "max"
		}, reason: ReasonClaude, err: "claude (PID 812) works in " + path + "; let it finish or stop it (kill 812), then run rm again"},
		{name: "cannot tell whether a Claude works there", f: func(f *removalFacts) {
			f.ClaudesErr, f.Work.Changes = errors.New("lsof is not on PATH"), 2
		}, reason: ReasonClaudeUnknown, err: "cannot tell whether a Claude works in " + path + ": lsof is not on PATH; stop it, or remove anyway with 'claude-account worktree rm --force " + path + "'"},
		{name: "cannot tell, and transcripts of an account whose dir is not found: the conversations first, as the --force named would drop them", f: func(f *removalFacts) {
			f.ClaudesErr, f.Unfound, f.UnfoundAccount = errors.New("lsof is not on PATH"), gitDir+"/claude-runtime/max", "max"
		}, reason: ReasonAccountUnfound, account: "max", err: gitDir + "/claude-runtime/max holds transcripts of account max, whose dir this removal cannot find; if it is yours, name it (--account max --account-dir DIR) to archive them there, else (it came with the repository) --force removes them with the worktree"},
		{name: "cannot tell whether a Claude works there, forced", f: func(f *removalFacts) { f.Force, f.ClaudesErr = true, errors.New("lsof is not on PATH") }, plan: &archived},
		{name: "transcripts of an account whose dir is not found", f: func(f *removalFacts) {
			f.Unfound, f.UnfoundAccount = gitDir+"/claude-runtime/max", "max"
			f.UnfoundAside, f.UnfoundAsideAccount = gitDir+"/claude-runtime/pro.moved-20010909T014640Z", "pro"
			f.Work.Changes = 3
		}, reason: ReasonAccountUnfound, account: "max", err: gitDir + "/claude-runtime/max holds transcripts of account max, whose dir this removal cannot find; if it is yours, name it (--account max --account-dir DIR) to archive them there, else (it came with the repository) --force removes them with the worktree"},
		{name: "transcripts of an account whose dir is not found, forced", f: func(f *removalFacts) {
			f.Force, f.Unfound, f.UnfoundAccount = true, gitDir+"/claude-runtime/max", "max"
		}, plan: &archived},
		{name: "transcripts of an account whose dir is not found, forced by Claude's hook", f: func(f *removalFacts) {
			f.Force, f.SpareUnfound, f.Unfound, f.UnfoundAccount = true, true, gitDir+"/claude-runtime/max", "max"
		}, reason: ReasonAccountUnfound, account: "max", err: gitDir + "/claude-runtime/max holds transcripts of account max, whose dir this removal cannot find; if it is yours, name it (--account max --account-dir DIR) to archive them there, else (it came with the repository) --force removes them with the worktree"},
		{name: "a runtime set aside of an account whose dir is not found", f: func(f *removalFacts) {
			f.UnfoundAside, f.UnfoundAsideAccount = gitDir+"/claude-runtime/pro.moved-20010909T014640Z", "pro"
		}, reason: ReasonAsideAccountUnfound, account: "pro", err: gitDir + "/claude-runtime/pro.moved-20010909T014640Z, a runtime set aside, holds conversations of account pro, whose dir this removal cannot find; if it is yours, name it (--account pro --account-dir DIR) to archive them there, else --force removes them with the worktree"},
		{name: "gone: archived from git's admin dir, then pruned", f: func(f *removalFacts) {
			f.Prunable, f.AdminDir = true, "/src/app/.git/worktrees/x1"
		}, plan: &plan{WIPRef: "refs/claude-account/wip/x", Base: "main", Archive: true, ArchiveDir: "/src/app/.git/worktrees/x1", ArchiveAs: "x1", Prune: true, DropBranch: true}},
		{name: "gone, and git keeps no admin dir of it: pruned", f: func(f *removalFacts) { f.Prunable = true },
			plan: &plan{WIPRef: "refs/claude-account/wip/x", Base: "main", Prune: true, DropBranch: true}},
		{name: "gone, and git's record names the git dir of a worktree that is there", f: func(f *removalFacts) {
			f.Prunable, f.Force, f.AdminDir, f.LiveElsewhere = true, true, "/src/app/.git/worktrees/y", "/src/app.worktrees/y"
		}, reason: ReasonRecordChanged, err: "git records " + path + " as the checkout of /src/app/.git/worktrees/y, and it is gone, but claude-account made that worktree's runtime for /src/app.worktrees/y, which is there and names that git dir: git's record changed (it came with the repository?); run 'git worktree repair' in /src/app.worktrees/y"},
		{name: "a nested repository's work, forced too", f: func(f *removalFacts) { f.Force, f.Nested, f.Work.Changes = true, nested, 2 },
			reason: ReasonNestedRepo, err: nested.Error()},
		{name: "a nested repository git cannot read", f: func(f *removalFacts) { f.Nested, f.Work.Changes = unreadable, 2 }, err: unreadable.Error()},
		{name: "the worktree git cannot read", f: func(f *removalFacts) { f.ChangesErr = unreadable }, err: unreadable.Error()},
		{name: "uncommitted changes", f: func(f *removalFacts) { f.Work.Changes, f.CommitsErr = 2, unreadable },
			reason: ReasonUncommitted, err: path + " has 2 uncommitted change(s); commit them, or --force saves them under refs/claude-account/wip/x first"},
		{name: "uncommitted changes, forced: saved, put back by worktree new", f: func(f *removalFacts) { f.Force, f.Work.Changes = true, 2 },
			plan: ptr(with(archived, func(p *plan) { p.SaveWIP, p.Again = true, "x" }))},
		{name: "uncommitted changes, forced, made again elsewhere: saved", f: func(f *removalFacts) { f.Force, f.Work.Changes, f.Slug = true, 2, "" },
			plan: ptr(with(archived, func(p *plan) { p.SaveWIP = true }))},
		{name: "commits git cannot count, forced", f: func(f *removalFacts) { f.Force, f.Work.Changes, f.CommitsErr = true, 2, unreadable }, err: unreadable.Error()},
		{name: "commits on no other branch or remote", f: func(f *removalFacts) { f.Work.Commits = 3 },
			reason: ReasonCommits, err: path + " has 3 commit(s) found on no other branch or remote; push or merge them, or --force keeps them reachable from branch worktree-x"},
		{name: "detached commits on no other branch or remote", f: func(f *removalFacts) { f.Branch, f.Work.Commits = "", 3 },
			reason: ReasonCommits, err: path + " has 3 commit(s) found on no other branch or remote; push or merge them, or --force keeps them reachable from refs/claude-account/wip/x-head"},
		{name: "commits squash-merged: the branch goes when merged", f: func(f *removalFacts) { f.Work.Commits, f.Work.Merged = 3, true }, plan: &archived},
		{name: "detached commits, forced: kept", f: func(f *removalFacts) { f.Force, f.Branch, f.Work.Commits = true, "", 3 },
			plan: ptr(with(archived, func(p *plan) { p.KeepDetached, p.DropBranch = 3, false }))},
		{name: "detached commits merged: kept all the same", f: func(f *removalFacts) { f.Branch, f.Work.Commits, f.Work.Merged = "", 3, true },
			plan: ptr(with(archived, func(p *plan) { p.KeepDetached, p.DropBranch = 3, false }))},
		{name: "no HEAD: no commits weighed", f: func(f *removalFacts) { f.HEAD, f.Work.Commits = "", 3 },
			plan: ptr(with(archived, func(p *plan) { p.DropBranch, p.KeepBranch = false, false }))},
		{name: "a branch the user made: kept", f: func(f *removalFacts) { f.Meta = &Meta{Slug: "x"} },
			plan: ptr(with(archived, func(p *plan) { p.DropBranch, p.KeepBranch = false, true }))},
		{name: "a worktree made with plain git: its branch kept", f: func(f *removalFacts) { f.Meta, f.Slug, f.Branch = nil, "", "feature" },
			plan: ptr(with(archived, func(p *plan) { p.DropBranch, p.KeepBranch = false, true }))},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := clean
			c.f(&f)
			p, err := decideRemoval(f)
			var re *Refusal
			switch {
			case c.err == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.err != "" && (err == nil || err.Error() != c.err):
				t.Fatalf("error %v\nwant     %s", err, c.err)
			case c.reason != 0 && (!errors.As(err, &re) || re.Reason != c.reason || re.Path != path || re.Account != c.account):
				t.Fatalf("error %#v, want a refusal for %s of %s (account %q)", err, c.reason, path, c.account)
			case c.reason == 0 && errors.As(err, &re):
				t.Fatalf("refused (%s), want the error itself", re.Reason)
			case c.plan != nil && !reflect.DeepEqual(p, *c.plan):
				t.Fatalf("plan %+v\nwant %+v", p, *c.plan)
			}
			if c.reason == ReasonNestedRepo {
				if ne := (*NestedRepoError)(nil); !errors.As(err, &ne) || ne != nested {
					t.Errorf("the refusal does not unwrap to its NestedRepoError: %#v", err)
				}
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// Remove reads a fact only when none read before it refuses: the main
// worktree asks no one whether a Claude runs there, and a Claude found
// running stops the removal before the process table is scanned or the
// worktree walked.
func TestRemoveReadsOnlyWhatItWeighs(t *testing.T) {
	r, e := repoWith(t)
	var asked []string
	o := RemoveOptions{Now: time.Now(),
		Running:    func(string) []string { asked = append(asked, "running"); return []string{"max"} },
		Claudes:    func(string) ([]int, error) { asked = append(asked, "claudes"); return nil, nil },
		AccountDir: func(string) string { asked = append(asked, "account dir"); return "" }}
	main, err := r.Resolve(r.Root)
	if err != nil {
		t.Fatal(err)
	}
	var re *Refusal
	if _, err := r.Remove(main, o); !errors.As(err, &re) || re.Reason != ReasonMain || len(asked) != 0 {
		t.Errorf("rm of the main worktree: %v, having asked %q; want a refusal, asking none", err, asked)
	}
	if _, err := r.Remove(e, o); !errors.As(err, &re) || re.Reason != ReasonRunning || !reflect.DeepEqual(asked, []string{"running"}) {
		t.Errorf("rm with a Claude running: %v, having asked %q; want a refusal, asking only who runs", err, asked)
	}
}

// Claude's lock reasons, as 2.1.332 writes them, and others.
func TestParseLock(t *testing.T) {
	for _, c := range []struct {
		reason string
		want   Lock
	}{
		{"claude session bgwt (pid 4242 start 2057369)", Lock{Claude: true, Kind: "session", Name: "bgwt", PID: 4242}},
		{"claude agent agent-a1b2c3d (pid 17)", Lock{Claude: true, Kind: "agent", Name: "agent-a1b2c3d", PID: 17}},
		{"claude session my feature (pid 9 start 1)", Lock{Claude: true, Kind: "session", Name: "my feature", PID: 9}},
		{"claude session x (pid 0)", Lock{}},
		{"claude session x (pid 12345678901)", Lock{}},
		{"claude-account: holds Claude's conversations; claude-account worktree rm archives them", Lock{}},
		{"on a USB disk", Lock{}},
		{"", Lock{}},
	} {
		got := ParseLock(c.reason)
		c.want.Reason = c.reason
		if got != c.want {
			t.Errorf("ParseLock(%q) = %+v, want %+v", c.reason, got, c.want)
		}
	}
}

// A lock file is the repository's: any bytes parse, and a Claude lock always
// names a positive PID.
func FuzzParseLock(f *testing.F) {
	f.Add("claude session bgwt (pid 4242 start 2057369)")
	f.Add("claude agent x (pid 1)")
	f.Add("claude session \n (pid 99999999999)")
	f.Fuzz(func(t *testing.T, reason string) {
		l := ParseLock(reason)
		if l.Claude && (l.PID <= 0 || l.Name == "" || (l.Kind != "session" && l.Kind != "agent")) {
			t.Fatalf("ParseLock(%q) = %+v", reason, l)
		}
	})
}
