package worktree

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/claude-account/claude-account/internal/fsx"
)

// Change is what a worktree changed against its base: the merge base of
// its HEAD and the base, and a tree of its work tree as it is now, its
// uncommitted and untracked files included (ignored ones not).
type Change struct {
	Path      string `json:"path"`
	Branch    string `json:"branch"`
	Base      string `json:"base"`
	MergeBase string `json:"mergeBase"`
	Tree      string `json:"-"`
	Dir       string `json:"-"` // where git runs for it
}

// DiffFile is one file of a Change: lines added and deleted (Binary: git
// counts none).
type DiffFile struct {
	Path    string `json:"path"`
	Added   int    `json:"added"`
	Deleted int    `json:"deleted"`
	Binary  bool   `json:"binary,omitempty"`
}

// Changes finds what the worktree e changed against its local base branch
// (into when given; else the base its record names, as a local branch
// when there is one, else as it is, such as origin/main). Nothing in the
// worktree, its index or its refs is touched: the work tree is read
// through a copy of its index.
func (r *Repo) Changes(e *Entry, into string) (*Change, error) {
	if e.Prunable {
		return nil, fmt.Errorf("%s is gone (its directory was deleted); nothing to show", e.Path)
	}
	if !isOID(e.HEAD) {
		return nil, fmt.Errorf("%s has no commit yet; nothing to compare", e.Path)
	}
	c := &Change{Path: e.Path, Branch: e.Branch, Dir: e.Path}
	g := r.Git.In(e.Path)
	b, err := r.localBase(e, into)
	baseOID := b.OID
	c.Base = b.Name
	if err != nil {
		if into != "" {
			return nil, err
		}
		// No local branch: the base as recorded (a remote's branch).
		c.Base = r.defaultBase()
		if gitDir, gerr := GitDir(e.Path); gerr == nil {
			if m := ReadMeta(gitDir); m != nil && m.Base != "" {
				c.Base = m.Base
			}
		}
		oid, rerr := g.Run("rev-parse", "--verify", "--quiet", "--end-of-options", c.Base+"^{commit}")
		if rerr != nil || !isOID(oid) {
			return nil, err
		}
		baseOID = oid
	}
	if c.MergeBase, err = g.Run("merge-base", baseOID, e.HEAD); err != nil || !isOID(c.MergeBase) {
		return nil, fmt.Errorf("%s and %s share no history; nothing to compare against", e.Branch, c.Base)
	}
	if c.Tree, err = workTree(g, e.Path); err != nil {
		return nil, err
	}
	return c, nil
}

// workTree writes the work tree at dir as a tree, untracked files included,
// through a copy of its index (its stat data spares hashing every file).
func workTree(g Git, dir string) (string, error) {
	tmp, err := os.MkdirTemp("", "claude-account-diff-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	idx := filepath.Join(tmp, "index")
	env := []string{"GIT_INDEX_FILE=" + idx}
	gitDir, err := GitDir(dir)
	if err == nil {
		err = fsx.CopyFile(filepath.Join(gitDir, "index"), idx)
	}
	if err != nil {
		if _, err := g.run(env, "read-tree", "HEAD"); err != nil {
			return "", err
		}
	}
	if _, err := g.run(env, "add", "--all"); err != nil {
		return "", err
	}
	tree, err := g.run(env, "write-tree")
	return strings.TrimSpace(tree), err
}

// Patch is git diff's output for the change: args are diff's options
// (--stat, --color=always).
func (r *Repo) Patch(c *Change, args ...string) (string, error) {
	return r.Git.In(c.Dir).Run(append(append([]string{"diff", "--no-ext-diff", "--no-textconv"}, args...), c.MergeBase, c.Tree, "--")...)
}

// Files lists the change's files with the lines each adds and deletes.
func (r *Repo) Files(c *Change) ([]DiffFile, error) {
	out, err := r.Git.In(c.Dir).Run("diff", "--no-ext-diff", "--no-textconv", "--numstat", "-z", "--no-renames", c.MergeBase, c.Tree, "--")
	if err != nil {
		return nil, err
	}
	return parseNumstat(out)
}

// parseNumstat reads git diff --numstat -z --no-renames: for each file
// "<added>\t<deleted>\t<path>\0", "-" for a binary file's counts.
func parseNumstat(out string) ([]DiffFile, error) {
	files := []DiffFile{}
	for _, rec := range strings.Split(out, "\x00") {
		if rec == "" {
			continue
		}
		a, rest, ok1 := strings.Cut(rec, "\t")
		d, path, ok2 := strings.Cut(rest, "\t")
		if !ok1 || !ok2 || path == "" {
			return nil, errors.New("git diff --numstat gave " + strconv.Quote(rec))
		}
		f := DiffFile{Path: path}
		if a == "-" && d == "-" {
			f.Binary = true
		} else {
			var err1, err2 error
			f.Added, err1 = strconv.Atoi(a)
			f.Deleted, err2 = strconv.Atoi(d)
			if err1 != nil || err2 != nil || f.Added < 0 || f.Deleted < 0 {
				return nil, errors.New("git diff --numstat gave " + strconv.Quote(rec))
			}
		}
		files = append(files, f)
	}
	return files, nil
}
