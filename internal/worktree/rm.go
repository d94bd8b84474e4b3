package worktree

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/shell"
)

// RemoveOptions are the settings of Remove.
type RemoveOptions struct {
	Force bool
	// Running names the accounts whose launcher-started Claude holds a
	// lock on a worktree.
	Running func(toplevel string) []string
	// Claudes gives the PIDs of live Claude processes that work in a
	// worktree however they were started (claude -w, an agent's isolated
	// worktree): see package claudeproc. Its error says it cannot tell (a
	// Claude runs whose working directory cannot be read): then only Force
	// removes. nil: none are looked for.
	Claudes func(path string) ([]int, error)
	// AccountDir is the dir of the account named name as a launch of it
	// finds it ("" when there is none): where a runtime's transcripts are
	// archived when the launcher made it for that account. nil: nothing is
	// archived.
	AccountDir func(name string) string
	Now        time.Time
}

// Removal says what Remove did, one line each.
type Removal struct {
	Path  string
	Notes []string
}

// RemoveError is a refusal: the worktree holds work that removal would lose.
type RemoveError struct{ msg string }

func (e *RemoveError) Error() string { return e.msg }

// Remove deletes a linked worktree without losing anything: it refuses
// uncommitted changes, commits found on no other branch or remote, and a
// running Claude, unless forced; forced, it first saves uncommitted work as a
// commit under refs/claude-account/wip/<name>. Claude's transcripts move to
// the account's archive. The branch goes only when everything on it is merged.
func (r *Repo) Remove(e *Entry, o RemoveOptions) (*Removal, error) {
	rm := &Removal{Path: e.Path}
	if e.Bare || r.isMain(e) {
		return nil, fmt.Errorf("%s is the main worktree; only linked worktrees can be removed", e.Path)
	}
	name := filepath.Base(e.Path)
	if o.Running != nil {
		if accts := o.Running(e.Path); len(accts) > 0 {
			// The close names the worktree: rm runs from anywhere in the repository.
			return nil, &RemoveError{fmt.Sprintf("claude (%s) runs in %s; stop it first ('claude-account close --account %s %s')", accts[0], e.Path, accts[0], shell.Quote(e.Path))}
		}
	}
	if o.Claudes != nil && !e.Prunable {
		pids, err := o.Claudes(e.Path)
		switch {
		case len(pids) > 0:
			return nil, &RemoveError{fmt.Sprintf("claude (PID %d) works in %s; let it finish or stop it (kill %d), then run rm again", pids[0], e.Path, pids[0])}
		case err != nil && !o.Force:
			// Not a guess either way: --force saves the work first.
			return nil, &RemoveError{fmt.Sprintf("cannot tell whether a Claude works in %s: %v; stop it, or remove anyway with 'claude-account worktree rm --force %s'", e.Path, err, shell.Quote(e.Path))}
		}
	}
	g := r.Git.In(e.Path)
	gitDir, _ := GitDir(e.Path)
	if gitDir == "" && e.Prunable {
		gitDir = r.adminDir(e.Path) // our record outlives the directory
	}
	m := ReadMeta(gitDir)
	base := r.defaultBase()
	if m != nil && m.Base != "" {
		base = m.Base
	}
	wipRef := "refs/claude-account/wip/" + name
	saved := "" // the ref that keeps the worktree's uncommitted work, once saved
	if !o.Force {
		// Before anything is saved or removed: what is archived goes to the
		// account the runtime is named for, found where a launch finds it.
		// One kept in a dir of its own (init --dir, --account-dir) this
		// removal was not told about would go with the worktree unarchived.
		if rt, acct := unfoundAccount(gitDir, o); rt != "" {
			return nil, &RemoveError{fmt.Sprintf("%s holds transcripts of account %s, whose dir this removal cannot find; if it is yours, name it (--account %s --account-dir DIR) to archive them there, else (it came with the repository) --force removes them with the worktree", rt, acct, acct)}
		}
		// A runtime set aside keeps conversations of an account whose dir
		// must be found to archive them, as for any runtime.
		if dir, acct := unfoundAsideAccount(gitDir, o); dir != "" {
			return nil, &RemoveError{fmt.Sprintf("%s, a runtime set aside, holds conversations of account %s, whose dir this removal cannot find; if it is yours, name it (--account %s --account-dir DIR) to archive them there, else --force removes them with the worktree", dir, acct, acct)}
		}
	}
	if e.Prunable {
		// Its directory is gone, but git's record of it (and the runtime
		// inside, with Claude's transcripts) is not: archive before pruning,
		// once nothing above refused.
		if admin := r.adminDir(e.Path); admin != "" {
			if live := liveElsewhere(admin, e.Path, o); live != "" {
				return nil, &RemoveError{fmt.Sprintf("git records %s as the checkout of %s, and it is gone, but claude-account made that worktree's runtime for %s, which is there and names that git dir: git's record changed (it came with the repository?); run 'git worktree repair' in %s", e.Path, admin, live, live)}
			}
			notes, err := r.archive(admin, filepath.Base(admin), o, r.removed(e, "", "", o))
			rm.Notes = append(rm.Notes, notes...)
			if err != nil {
				return nil, err
			}
		}
	}
	if !e.Prunable {
		// Before anything is saved: --force cannot save a nested
		// repository's work, so it must not say it did.
		if err := checkNested(g, e.Path); err != nil {
			var ne *NestedRepoError
			if errors.As(err, &ne) {
				return nil, &RemoveError{err.Error()}
			}
			return nil, err
		}
		dirty, err := uncommitted(g)
		if err != nil {
			return nil, err
		}
		if holdsWork(work{Changes: dirty}) == heldChanges && !o.Force {
			return nil, &RemoveError{fmt.Sprintf("%s has %d uncommitted change(s); commit them, or --force saves them under %s first", e.Path, dirty, wipRef)}
		}
		if e.HEAD != "" {
			n, err := unique(g, e.HEAD, e.Branch)
			if err != nil {
				return nil, err
			}
			if n > 0 && !o.Force {
				if ok, _ := contained(g, base, e.HEAD); holdsWork(work{Commits: n, Merged: ok}) == heldCommits {
					keep := "branch " + e.Branch
					if e.Branch == "" {
						keep = wipRef + "-head"
					}
					return nil, &RemoveError{fmt.Sprintf("%s has %d commit(s) found on no other branch or remote; push or merge them, or --force keeps them reachable from %s", e.Path, n, keep)}
				}
			}
			if n > 0 && e.Branch == "" {
				// A detached HEAD has no branch to keep its commits alive.
				ref, err := keepRef(g, wipRef+"-head", e.HEAD, o.Now)
				if err != nil {
					return nil, err
				}
				rm.Notes = append(rm.Notes, fmt.Sprintf("kept %d detached commit(s) as %s", n, ref))
			}
		}
		if dirty > 0 {
			ref, err := saveWIP(g, e.HEAD, wipRef, o.Now)
			if err != nil {
				return nil, err
			}
			saved = ref
			// Commands that run from anywhere (the worktree is gone, and
			// checking out in the user's current worktree would move it).
			// worktree new puts back the newest saved work of its name, this
			// one, and drops the ref: the rescue applies until then.
			again := ""
			if m != nil && m.Slug != "" && fsx.SamePath(r.PathFor(m.Slug), e.Path) {
				again = fmt.Sprintf("'claude-account worktree new %s' puts it back in the worktree made again (and drops the ref), or until then ", shell.Quote(m.Slug))
			}
			rm.Notes = append(rm.Notes, fmt.Sprintf("saved uncommitted work as %s; %sget it back in a worktree of its own with: %s", ref, again, r.rescue(e.Path, ref)))
		}
		notes, err := r.archive(gitDir, name, o, r.removed(e, base, saved, o))
		rm.Notes = append(rm.Notes, notes...)
		if err != nil {
			return nil, err
		}
	}
	if _, err := r.Git.Run("worktree", "remove", "--force", "--", e.Path); err != nil {
		if !e.Prunable {
			return nil, err
		}
		if err := r.prune(e.Path); err != nil {
			return nil, err
		}
	}
	// Only a branch New made for this worktree goes with it: one the user
	// made (git worktree add -b, or a worktree-NAME branch New checked out
	// as it was) is theirs, merged or not.
	made := m != nil && m.MadeBranch && e.Branch == Branch(m.Slug)
	if e.Branch != "" && !made {
		rm.Notes = append(rm.Notes, "kept branch "+e.Branch+" (not made by claude-account)")
	}
	if made && e.HEAD != "" {
		merged, _ := contained(r.Git, base, e.HEAD)
		if merged {
			if _, err := r.Git.Run("branch", "-D", "--", e.Branch); err == nil {
				rm.Notes = append(rm.Notes, "deleted branch "+e.Branch+" (merged into "+base+")")
			}
		} else {
			rm.Notes = append(rm.Notes, "kept branch "+e.Branch+" (not merged into "+base+")")
		}
	}
	return rm, nil
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
