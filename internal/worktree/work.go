package worktree

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/claude-account/claude-account/internal/shell"
)

// work is what a worktree holds, as read: the facts holdsWork decides on.
// A fact a caller does not read is zero, which counts as none.
type work struct {
	// Changes counts uncommitted changes: what git status shows, and, where
	// read, the edits it hides (uncommitted, hiddenEdits).
	Changes int
	// Commits counts commits of HEAD found on no other branch, tag or remote
	// (unique); -1 when that cannot be told, which counts as some.
	Commits int
	// Merged: everything HEAD has is on the worktree's base already
	// (contained: squash merges and cherry-picks included).
	Merged bool
	// Ignored counts files git ignores that are no machinery of the
	// worktree (ignoredWork): read only by Idle, which asks whether a
	// session left anything there.
	Ignored int
	// New counts commits beyond the one the worktree was made from, merged,
	// pushed or not: work to a caller that asks whether the worktree was used
	// at all (Idle); 0 for one that asks what removing it would lose.
	New int
}

// held is the work holdsWork finds first.
type held int

const (
	heldNone    held = iota
	heldChanges      // uncommitted changes
	heldIgnored      // files git ignores that the session left
	heldNew          // commits since the worktree was made
	heldCommits      // commits on no other branch, tag or remote, not merged
)

// holdsWork decides, from facts alone, whether a worktree holds work, and
// which first: uncommitted changes; then files git ignores, and commits made
// since it was made, for a caller that read them; then commits that are
// neither merged into its base nor found on another branch, tag or remote,
// which removing it would lose. A caller reads what costs a git process
// (Ignored, Commits, New) only when what it read before finds none: changes
// come first. The one home of "does this worktree hold work", for Remove
// (decideRemoval), Idle (AfterExit) and GC; each says it in its own words.
// Pinned by testscripts worktree-rm-safe, worktree-rm-hidden-edits,
// worktree-rm-sparse, worktree-rm-squash-merged, worktree-gc, run-worktree,
// worktree-ephemeral-keeps-ignored-files,
// worktree-ephemeral-machinery-not-work, harden-git-merge-driver,
// harden-git-ref-option and harden-git-submodule-filter.
func holdsWork(w work) held {
	switch {
	case w.Changes > 0:
		return heldChanges
	case w.Ignored > 0:
		return heldIgnored
	case w.New > 0:
		return heldNew
	case w.Commits != 0 && !w.Merged:
		return heldCommits
	}
	return heldNone
}

// What counts as work a removal would lose, beyond what git status shows.

// hiddenEdits counts files whose content differs from the index though git
// status does not say so: files marked --skip-worktree or --assume-unchanged
// (git update-index) that were edited, or, assumed unchanged, deleted. A
// skip-worktree file that is absent is a sparse checkout's doing, not an
// edit. Contents are compared by object id (git hash-object applies the
// path's filters), not by stat data, which these flags make git ignore.
func hiddenEdits(g Git) (int, error) {
	out, err := g.run([]string{"GIT_OPTIONAL_LOCKS=0"}, "ls-files", "--stage", "-v", "-z")
	if err != nil {
		return 0, err
	}
	n := 0
	var paths, oids []string
	for _, rec := range strings.Split(out, "\x00") {
		// "<tag> <mode> <oid> <stage>\t<path>": tag S is skip-worktree,
		// a lower-case tag assume-unchanged (s: both).
		meta, path, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 || len(f[0]) != 1 {
			continue
		}
		tag, mode, oid := f[0][0], f[1], f[2]
		skip, assume := tag == 'S' || tag == 's', tag >= 'a' && tag <= 'z'
		if !skip && !assume || mode == "160000" {
			continue // not hidden; or a submodule, which checkNested judges
		}
		fi, err := os.Lstat(filepath.Join(g.Dir, filepath.FromSlash(path)))
		switch {
		case err != nil && skip:
			continue // not checked out: sparse
		case err != nil:
			n++ // assumed unchanged, but deleted
		case mode == "120000":
			target, err := os.Readlink(filepath.Join(g.Dir, filepath.FromSlash(path)))
			if err != nil || blobID(target, len(oid)) != oid {
				n++
			}
		case !fi.Mode().IsRegular() || strings.ContainsAny(path, "\n\r"):
			n++ // no longer a file; or a name hash-object cannot read from a line: count it
		default:
			paths, oids = append(paths, path), append(oids, oid)
		}
	}
	if len(paths) == 0 {
		return n, nil
	}
	got, err := g.runInput(strings.NewReader(strings.Join(paths, "\n")+"\n"), nil, "hash-object", "--stdin-paths")
	if err != nil {
		return 0, err
	}
	ids := strings.Fields(got)
	if len(ids) != len(paths) {
		return 0, fmt.Errorf("git hash-object gave %d ids for %d files in %s", len(ids), len(paths), g.Dir)
	}
	for i := range ids {
		if ids[i] != oids[i] {
			n++
		}
	}
	return n, nil
}

// blobID is git's id of a blob holding data, in the object format whose
// ids have hexLen digits (40: SHA-1, 64: SHA-256).
func blobID(data string, hexLen int) string {
	head := fmt.Sprintf("blob %d\x00", len(data))
	if hexLen == 64 {
		sum := sha256.Sum256([]byte(head + data))
		return hex.EncodeToString(sum[:])
	}
	sum := sha1.Sum([]byte(head + data))
	return hex.EncodeToString(sum[:])
}

// uncommitted counts what git status shows plus hiddenEdits.
func uncommitted(g Git) (int, error) {
	n, err := dirtyCount(g)
	if err != nil {
		return 0, err
	}
	h, err := hiddenEdits(g)
	return n + h, err
}

// NestedRepoError is a git repository inside a worktree that holds work
// removing the worktree would lose: its own commits and files live only in
// it (or, for a submodule, in the worktree's git dir, removed with it), and
// a saved commit of the worktree would record only a gitlink.
type NestedRepoError struct {
	Repo    string
	Changes int // uncommitted changes
	Commits int // commits found on none of its remote-tracking branches
}

func (e *NestedRepoError) Error() string {
	var what []string
	if e.Changes > 0 {
		what = append(what, fmt.Sprintf("%d uncommitted change(s)", e.Changes))
	}
	if e.Commits > 0 {
		what = append(what, fmt.Sprintf("%d commit(s) on no remote", e.Commits))
	}
	return fmt.Sprintf("%s is a git repository inside the worktree with %s; --force cannot save them, as they live only there: commit and push them from it, or move it out of the worktree", e.Repo, strings.Join(what, " and "))
}

// nestedRepos lists the git repositories below root, at any depth:
// directories that hold a .git (a submodule's file or a repository's
// directory), root's own excepted. Links are not followed.
func nestedRepos(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // unreadable: git cannot have written a repository there either
		}
		if !d.IsDir() {
			return nil
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		if p != root {
			if _, err := os.Lstat(filepath.Join(p, ".git")); err == nil {
				out = append(out, p)
			}
		}
		return nil
	})
	return out, err
}

// checkNested refuses the first nested repository under root that holds
// uncommitted changes or commits found on none of its remotes.
func checkNested(g Git, root string) error {
	repos, err := nestedRepos(root)
	if err != nil {
		return err
	}
	for _, repo := range repos {
		// A nested repository's own config is not the user's: gitcmd runs
		// none of the commands it names (fsmonitor, filters, hooks).
		ng := Git{Dir: repo, Env: g.Env}
		changes, err := uncommitted(ng)
		if err != nil {
			return fmt.Errorf("%s is a git repository inside the worktree that git cannot read (%v); move it out of the worktree, or remove it yourself", repo, err)
		}
		out, err := ng.Run("rev-list", "--count", "--all", "--not", "--remotes")
		if err != nil {
			return fmt.Errorf("%s is a git repository inside the worktree that git cannot read (%v); move it out of the worktree, or remove it yourself", repo, err)
		}
		commits, _ := strconv.Atoi(out)
		if changes > 0 || commits > 0 {
			return &NestedRepoError{Repo: repo, Changes: changes, Commits: commits}
		}
	}
	return nil
}

// Idle reports whether a worktree holds no work, for AfterExit: no
// uncommitted change, no file git ignores that the session left there
// (ignoredWork), and no commit beyond the one it was made from (holdsWork);
// else why not, in words that end the line "kept the ephemeral worktree
// PATH: ", with how to remove it anyway where a removal would lose what it
// holds. Without a record of that commit (an older or damaged record), the
// commits HEAD has that its base (the record's, else the repository's)
// lacks count, as worktree rm measures; with no base to compare with, it is
// kept. A fact that cannot be read keeps it too.
func (r *Repo) Idle(e *Entry, m *Meta) (bool, string) {
	g := r.Git.In(e.Path)
	var w work
	var err error
	if w.Changes, err = uncommitted(g); err != nil {
		return false, err.Error()
	}
	var ignored []string
	if holdsWork(w) == heldNone {
		root := r.Root
		if r.Bare {
			root = "" // no main worktree New copied from
		}
		if ignored, err = ignoredWork(g, root); err != nil {
			return false, err.Error()
		}
		w.Ignored = len(ignored)
	}
	since := "" // what New commits are counted from, when not the recorded commit
	if holdsWork(w) == heldNone {
		head, err := g.Run("rev-parse", "HEAD")
		if err != nil {
			return false, err.Error()
		}
		from := ""
		if m != nil {
			from = m.BaseOID
		}
		if from == "" {
			base := ""
			if m != nil {
				base = m.Base
			}
			if base == "" {
				base = r.defaultBase()
			}
			if base == "HEAD" {
				// defaultBase found no commit: nothing to compare with.
				return false, "it has no record of the commit it was made from, and no base branch to compare it with; " + rmOnce(e.Path)
			}
			// The base comes from the repository: after --end-of-options
			// it is a revision even when it reads as an option.
			if from, err = g.Run("rev-parse", "--verify", "--quiet", "--end-of-options", base+"^{commit}"); err != nil {
				return false, fmt.Sprintf("it has no record of the commit it was made from, and its base %s is no commit here; %s", base, rmOnce(e.Path))
			}
			since = base
		}
		if head != from {
			if w.New, _, err = aheadBehind(g, from, head); err != nil {
				return false, err.Error()
			}
		}
	}
	switch holdsWork(w) {
	case heldChanges:
		return false, fmt.Sprintf("%d uncommitted change(s)", w.Changes)
	case heldIgnored:
		return false, ignoredWhy(ignored, e.Path)
	case heldNew:
		if since != "" {
			return false, fmt.Sprintf("%d commit(s) not on %s (it has no record of the commit it was made from)", w.New, since)
		}
		return false, fmt.Sprintf("%d new commit(s)", w.New)
	}
	return true, ""
}

// rmOnce says how to remove a worktree Idle cannot tell the work of.
func rmOnce(path string) string {
	return fmt.Sprintf("once you know it holds nothing you want, 'claude-account worktree rm %s' removes it", shell.Quote(path))
}

// ignoredWhy says that a worktree is kept for the files git ignores in it
// (paths, as git lists them), naming the first few, and how to remove it
// anyway: worktree rm deletes them with it, forced or not, as no commit
// can keep them.
func ignoredWhy(paths []string, path string) string {
	var names []string
	for i, n := range paths {
		if i == 3 {
			names = append(names, "…")
			break
		}
		if strings.ContainsFunc(n, unicode.IsControl) {
			n = strconv.Quote(n) // one line, and no terminal control
		}
		names = append(names, n)
	}
	return fmt.Sprintf("it holds %d file(s) git ignores, which no commit keeps (%s); copy out what you want of them, then 'claude-account worktree rm %s' removes it, and them with it",
		len(paths), strings.Join(names, ", "), shell.Quote(path))
}
