package worktree

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/fsx"

	"github.com/claude-account/claude-account/internal/gitcmd"
	"github.com/claude-account/claude-account/internal/shell"
)

// LocalBase is the local branch a worktree's work lands on: the branch its
// record names (worktree new --base), or, when that is a remote's branch
// (origin/main), the local branch of the same name; where it is checked out.
type LocalBase struct {
	Name     string // short name: main
	OID      string // its commit now
	Checkout string // the worktree it is checked out in; "" when none
}

// localBase finds the local branch e's work lands on: into when given,
// else the base its record names or the repository's default. The record is
// a file of the repository: what it names is used only as a local branch
// that exists, checked as a ref name, and never e's own branch.
func (r *Repo) localBase(e *Entry, into string) (LocalBase, error) {
	name := into
	if name == "" {
		base := r.defaultBase()
		if gitDir, err := GitDir(e.Path); err == nil {
			if m := ReadMeta(gitDir); m != nil && m.Base != "" {
				base = m.Base
			}
		}
		var err error
		if name, err = r.branchOf(base); err != nil {
			return LocalBase{}, err
		}
	}
	ref := "refs/heads/" + name
	if gitcmd.CheckRefName(ref) != nil || strings.HasPrefix(name, "-") {
		return LocalBase{}, fmt.Errorf("%q is no branch name; name the local branch to land on with --into BRANCH", name)
	}
	oid, err := r.Git.Run("rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err != nil || !isOID(oid) {
		return LocalBase{}, fmt.Errorf("there is no local branch %s; make it (git branch %s) or name another with --into BRANCH", name, shell.Quote(name))
	}
	// A symbolic ref (master -> main) lands on its target, the branch a
	// worktree has checked out and git worktree list names; one the
	// repository planted may name the worktree's own branch.
	full, err := r.Git.Run("rev-parse", "--verify", "--quiet", "--symbolic-full-name", "--end-of-options", ref)
	target, ok := strings.CutPrefix(full, "refs/heads/")
	if err != nil || !ok || target == "" {
		return LocalBase{}, fmt.Errorf("%s is a symbolic ref to %s, not a local branch; name the local branch to land on with --into BRANCH", name, shell.Quote(full))
	}
	if target == e.Branch {
		what := target
		if target != name {
			what = name + " (a symbolic ref to " + target + ")"
		}
		return LocalBase{}, fmt.Errorf("%s is the worktree's own branch; name the branch to land it on with --into BRANCH", what)
	}
	name = target
	b := LocalBase{Name: name, OID: oid}
	entries, err := r.Entries()
	if err != nil {
		return b, err
	}
	for _, w := range entries {
		if w.Branch == name && !w.Bare {
			if w.Prunable {
				return b, fmt.Errorf("%s is checked out in %s, whose directory is gone; run 'git worktree prune', then land again", name, w.Path)
			}
			b.Checkout = w.Path
		}
	}
	if where, what := r.rewriting(name); where != "" {
		return b, refuseLand(nil, "%s is being %s in %s (git worktree list shows it detached there) and moving it now would be undone when that ends; finish it there (%s), then land again", name, what.verb, where, what.fix)
	}
	return b, nil
}

// rewrite is an operation that holds a branch while its worktree's HEAD is
// detached: the file in a worktree's git dir that names the branch, and
// how it reads.
type rewrite struct {
	file, verb, fix string
	short           bool // names the branch by its short name (BISECT_START)
}

var rewrites = []rewrite{
	{file: "rebase-merge/head-name", verb: "rebased", fix: "git rebase --continue, or --abort"},
	{file: "rebase-apply/head-name", verb: "rebased", fix: "git rebase --continue, or --abort"},
	{file: "BISECT_START", verb: "bisected", fix: "git bisect reset", short: true},
}

// rewriting finds a worktree where branch is being rebased or bisected, as
// git's find_shared_symref does before git branch -f or git merge moves a
// branch: the worktree's path (its git dir when that cannot be told) and
// what runs there; "" when none. Every git dir of the repository is looked
// at, a stale one's too: a refusal too many is the safe side.
func (r *Repo) rewriting(branch string) (string, rewrite) {
	dirs := []string{r.Common}
	linked, _ := filepath.Glob(filepath.Join(r.Common, "worktrees", "*"))
	dirs = append(dirs, linked...)
	for i, dir := range dirs {
		for _, rw := range rewrites {
			// The repository's files: never followed through a link, and
			// never a FIFO read to its end.
			data, err := fsx.ReadFileNoFollow(filepath.Join(dir, filepath.FromSlash(rw.file)), 4096)
			if err != nil {
				continue
			}
			named := strings.TrimSpace(string(data))
			if named != "refs/heads/"+branch && !(rw.short && named == branch) {
				continue
			}
			where := r.Root
			if i > 0 {
				where = dir
				if data, err := fsx.ReadFileNoFollow(filepath.Join(dir, "gitdir"), 4096); err == nil {
					where = filepath.Dir(strings.TrimSpace(string(data)))
				}
			}
			return where, rw
		}
	}
	return "", rewrite{}
}

// branchOf is the local branch of a base ref: itself when it is a local
// branch, main for a remote's origin/main; an error naming --into for a
// commit or anything else.
func (r *Repo) branchOf(base string) (string, error) {
	if base != "" && gitcmd.CheckRefName("refs/heads/"+base) == nil && r.hasRefAnyhow("refs/heads/"+base) {
		return base, nil
	}
	if gitcmd.CheckRefName("refs/remotes/"+base) == nil && r.hasRefAnyhow("refs/remotes/"+base) {
		if _, branch, ok := strings.Cut(base, "/"); ok && branch != "" && branch != "HEAD" {
			return branch, nil
		}
	}
	return "", fmt.Errorf("the worktree's base %q is no branch (a commit, or a branch since deleted); name the local branch to land on with --into BRANCH", base)
}

// hasRefAnyhow is hasRef, asking git when the files do not tell (a ref
// in a reftable, or packed where hasRef does not look).
func (r *Repo) hasRefAnyhow(ref string) bool {
	if r.hasRef(ref) {
		return true
	}
	_, err := r.Git.Run("rev-parse", "--verify", "--quiet", ref)
	return err == nil
}
