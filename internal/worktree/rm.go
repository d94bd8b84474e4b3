package worktree

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/claude-account/claude-account/internal/shell"
)

// RemoveOptions are the settings of Remove.
type RemoveOptions struct {
	Force bool
	// SpareUnfound: even forced, stop at a runtime holding conversations
	// of an account whose dir AccountDir cannot find, as an unforced
	// removal does. Claude's WorktreeRemove hook is forced (Claude asked
	// about the worktree and its work), but nobody was asked about them:
	// a forced removal would delete them unarchived.
	SpareUnfound bool
	// Running names the accounts whose launcher-started Claude holds a
	// lock on a worktree.
	Running func(toplevel string) []string
	// Claudes gives the PIDs of live Claude processes that work in a
	// worktree however they were started (claude -w, an agent's isolated
	// worktree): see package claudeproc. Its error says it cannot tell (a
	// Claude runs whose working directory cannot be read): then only Force
	// removes. nil: none are looked for.
	Claudes func(path string) ([]int, error)
	// Background gives what of Claude's fleet lives in the worktree at path
	// (whose git dir is gitDir): background sessions working there or
	// below (Claude's own .claude/worktrees/ inside it too), and
	// supervisors running in a runtime in gitDir. nil: none are looked for.
	Background func(path, gitDir string) []Hosted
	// Alive reports whether a PID is a process now: a git lock Claude took
	// for a session whose process is gone is stale, and --force lifts it.
	// nil: every PID counts as alive.
	Alive func(pid int) bool
	// AccountDir is the dir of the account named name as a launch of it
	// finds it ("" when there is none): where a runtime's transcripts are
	// archived when the launcher made it for that account. nil: nothing is
	// archived.
	AccountDir func(name string) string
	// Base, when set, is the branch the work is measured against instead
	// of the worktree's record: Land's, which has just landed it there.
	Base string
	Now  time.Time
}

// Removal says what Remove did, one line each.
type Removal struct {
	Path  string
	Notes []string
}

// Remove deletes a linked worktree without losing anything: it refuses
// uncommitted changes, commits found on no other branch or remote, and a
// running Claude, unless forced; forced, it first saves uncommitted work as a
// commit under refs/claude-account/wip/<name>. Claude's transcripts move to
// the account's archive. The branch goes only when everything on it is merged.
// A refusal is a *Refusal, whose Reason says which (decideRemoval).
func (r *Repo) Remove(e *Entry, o RemoveOptions) (*Removal, error) {
	f := r.observeRemoval(e, o)
	p, err := decideRemoval(f)
	if err != nil {
		return nil, err
	}
	return r.applyRemoval(e, p, o)
}

// CheckRemoval says whether Remove would remove e now, removing nothing:
// nil, or the *Refusal (or failure to read) Remove would return.
func (r *Repo) CheckRemoval(e *Entry, o RemoveOptions) error {
	_, err := decideRemoval(r.observeRemoval(e, o))
	return err
}

// applyRemoval does what decideRemoval planned, saying each step in a note.
func (r *Repo) applyRemoval(e *Entry, p removalPlan, o RemoveOptions) (*Removal, error) {
	rm := &Removal{Path: e.Path}
	g := r.Git.In(e.Path)
	if p.KeepDetached > 0 {
		ref, err := keepRef(g, p.WIPRef+"-head", e.HEAD, o.Now)
		if err != nil {
			return nil, err
		}
		rm.Notes = append(rm.Notes, fmt.Sprintf("kept %d detached commit(s) as %s", p.KeepDetached, ref))
	}
	saved := "" // the ref that keeps the worktree's uncommitted work, once saved
	if p.SaveWIP {
		ref, err := saveWIP(g, e.HEAD, p.WIPRef, o.Now)
		if err != nil {
			return nil, err
		}
		saved = ref
		// Commands that run from anywhere (the worktree is gone, and
		// checking out in the user's current worktree would move it).
		// worktree new puts back the newest saved work of its name, this
		// one, and drops the ref: the rescue applies until then.
		again := ""
		if p.Again != "" {
			again = fmt.Sprintf("'claude-account worktree new %s' puts it back in the worktree made again (and drops the ref), or until then ", shell.Quote(p.Again))
		}
		rm.Notes = append(rm.Notes, fmt.Sprintf("saved uncommitted work as %s; %sget it back in a worktree of its own with: %s", ref, again, r.rescue(e.Path, ref)))
	}
	if p.Archive {
		notes, err := r.archive(p.ArchiveDir, p.ArchiveAs, o, r.removed(e, p.RecordBase, saved, o))
		rm.Notes = append(rm.Notes, notes...)
		if err != nil {
			return nil, err
		}
	}
	if p.Unlock {
		// Claude's lock of a session whose process is gone: it guards
		// nothing, and git removes no locked worktree.
		if _, err := r.Git.Run("worktree", "unlock", "--", e.Path); err != nil {
			return nil, err
		}
		rm.Notes = append(rm.Notes, fmt.Sprintf("unlocked it: Claude locked it for its %s %s (PID %d), which has ended", p.Lock.Kind, p.Lock.Name, p.Lock.PID))
	}
	if _, err := r.Git.Run("worktree", "remove", "--force", "--", e.Path); err != nil {
		if !p.Prune {
			return nil, err
		}
		if err := r.prune(e.Path); err != nil {
			return nil, err
		}
	}
	if p.KeepBranch {
		rm.Notes = append(rm.Notes, "kept branch "+e.Branch+" (not made by claude-account)")
	}
	if p.DropBranch {
		merged, _ := contained(r.Git, p.Base, e.HEAD)
		if merged && !baseElsewhere(r.Git, p.Base, e.Branch) {
			// The base is the branch itself, or reached only through
			// it (the record naming the base is a file of the
			// repository): merged says nothing, and deleting the branch
			// would lose what is on it.
			rm.Notes = append(rm.Notes, "kept branch "+e.Branch+" (its base "+p.Base+" is reached only through it)")
		} else if merged {
			rm.Notes = append(rm.Notes, r.dropBranch(e.Branch, e.HEAD, p.Base))
		} else {
			rm.Notes = append(rm.Notes, "kept branch "+e.Branch+" (not merged into "+p.Base+")")
		}
	}
	return rm, nil
}

// dropBranch deletes branch if it is still at head, the commit found
// merged: a compare-and-swap (git branch -D deletes whatever the branch
// holds by then, and a commit made on it meanwhile would be on no ref). A
// branch checked out in another worktree stays too, as git branch -D
// keeps it. It says what it did.
func (r *Repo) dropBranch(branch, head, base string) string {
	ref := "refs/heads/" + branch
	entries, err := r.Entries()
	if err != nil {
		return "kept branch " + branch + " (" + err.Error() + ")"
	}
	for _, w := range entries {
		if w.Branch == branch {
			return "kept branch " + branch + " (checked out in " + w.Path + ")"
		}
	}
	if _, err := r.Git.Run("update-ref", "--no-deref", "-m", "claude-account worktree rm", "-d", ref, head); err != nil {
		if now, err2 := r.Git.Run("rev-parse", "--verify", "--quiet", ref); err2 == nil && now != head {
			return fmt.Sprintf("kept branch %s (it moved to %s while removing: that commit is not measured as merged; 'git branch -D %s' deletes it once you are sure)", branch, short(now), shell.Quote(branch))
		}
		return "kept branch " + branch + " (" + err.Error() + ")"
	}
	return "deleted branch " + branch + " (merged into " + base + ")"
}

// baseElsewhere reports whether base's commit is on a branch, tag or remote
// other than branch: only then does "merged into base" keep what branch
// holds once it is deleted.
func baseElsewhere(g Git, base, branch string) bool {
	oid, err := g.Run("rev-parse", "--verify", "--quiet", "--end-of-options", base+"^{commit}")
	if err != nil {
		return false
	}
	n, err := unique(g, oid, branch)
	return err == nil && n == 0
}

// saveWIP commits the working tree, untracked files included (ignored ones
// not, as git stash -u), without touching the index or HEAD: a temporary
// index is filled and written as a tree.
func saveWIP(g Git, head, ref string, now time.Time) (string, error) {
	tmp, err := os.CreateTemp("", "claude-account-wip-index-")
	if err != nil {
		return "", err
	}
	tmp.Close()
	os.Remove(tmp.Name()) // git wants to create the index itself
	defer os.Remove(tmp.Name())
	idx := []string{"GIT_INDEX_FILE=" + tmp.Name()}
	if head != "" {
		if _, err := g.run(idx, "read-tree", "--end-of-options", head); err != nil {
			return "", err
		}
	}
	if _, err := g.run(idx, "add", "--all"); err != nil {
		return "", err
	}
	tree, err := g.run(idx, "write-tree")
	if err != nil {
		return "", err
	}
	// A retry (a removal that failed after saving) saves no second ref of
	// the same work: the newest saved of this worktree, on the same commit
	// with the same tree, keeps it already.
	if saved := newestSaved(g, ref); saved.ref != "" && saved.tree == strings.TrimSpace(tree) && saved.parent == head {
		return saved.ref, nil
	}
	// --no-gpg-sign: commit.gpgSign in the repository's config would run
	// its gpg.program.
	args := []string{"commit-tree", "--no-gpg-sign", "-m", "claude-account: uncommitted work saved " + now.UTC().Format(time.RFC3339)}
	if head != "" {
		args = append(args, "-p", head)
	}
	commit, err := g.Run(append(args, strings.TrimSpace(tree))...)
	if err != nil {
		return "", err
	}
	return keepRef(g, ref, commit, now)
}

// keepRef points ref at oid, but never moves an existing ref (it may hold
// work saved by an earlier removal): then it uses ref-<time> instead. It
// returns the ref it wrote.
func keepRef(g Git, ref, oid string, now time.Time) (string, error) {
	// An empty old value makes update-ref create the ref or fail.
	if _, err := g.Run("update-ref", "-m", "claude-account worktree rm", ref, oid, ""); err == nil {
		return ref, nil
	}
	ref += "-" + now.UTC().Format("20060102T150405Z")
	_, err := g.Run("update-ref", "-m", "claude-account worktree rm", ref, oid, "")
	return ref, err
}

// Hosted is one thing of Claude's fleet that keeps a worktree: what it is
// ("background session 1a2b3c4d (max)", "the supervisor of max's runtime
// DIR") and the command that stops it, as the user runs it.
type Hosted struct {
	What string `json:"what"`
	Stop string `json:"stop"`
}

// savedRef is a ref saveWIP wrote: its name, the tree and the parent of its
// commit.
type savedRef struct{ ref, tree, parent string }

// keptSuffix is what keepRef adds to a ref that was taken.
var keptSuffix = regexp.MustCompile(`^-[0-9]{8}T[0-9]{6}Z$`)

// newestSaved is the newest of ref and the ref-<time> keepRef wrote beside
// it, by its commit's date; zero when there is none.
func newestSaved(g Git, ref string) savedRef {
	out, err := g.Run("for-each-ref", "--sort=-committerdate", "--format=%(refname) %(tree) %(parent)", ref, ref+"-*")
	if err != nil {
		return savedRef{}
	}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		if rest, ok := strings.CutPrefix(f[0], ref); !ok || (rest != "" && !keptSuffix.MatchString(rest)) {
			continue
		}
		s := savedRef{ref: f[0], tree: f[1]}
		if len(f) == 3 {
			s.parent = f[2]
		}
		return s
	}
	return savedRef{}
}
