package worktree

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/claude-account/claude-account/internal/shell"
)

// Strategies are the ways Land puts a worktree's commits on its base.
var Strategies = []string{"merge", "rebase", "squash"}

// LandOptions are the settings of Land.
type LandOptions struct {
	Strategy string // merge (the default), rebase or squash
	Into     string // the local branch to land on; "" for the worktree's base
	// Remove is how the worktree is removed once landed, as rm removes it
	// (Force and Base are Land's to set).
	Remove RemoveOptions
}

// Landing says what Land did.
type Landing struct {
	Path     string   `json:"path"`
	Branch   string   `json:"branch"`
	Base     string   `json:"base"`
	Strategy string   `json:"strategy"`
	Old      string   `json:"old"` // the base's commit before
	New      string   `json:"new"` // and after
	Commits  int      `json:"commits"`
	Removed  bool     `json:"removed"`
	Notes    []string `json:"notes"`
}

// LandRefusal is Land refusing: nothing was changed. Files are the
// conflicting files of a conflict.
type LandRefusal struct {
	Files []string
	msg   string
}

func (e *LandRefusal) Error() string { return e.msg }

func refuseLand(files []string, format string, args ...any) error {
	return &LandRefusal{Files: files, msg: fmt.Sprintf(format, args...)}
}

// Land puts the commits of the worktree e on its local base branch and
// removes the worktree as rm does. It computes the result first without
// touching any work tree (merge-tree, commit-tree), and refuses, changing
// nothing, when it cannot land or could not remove: a conflict, a dirty
// base checkout, uncommitted work, a base that no longer holds the commit
// the worktree started from, or anything rm refuses. Then it moves the
// base (a fast-forward in the worktree that has it checked out, else a
// compare-and-swap of the ref) and removes the worktree; it never pushes.
func (r *Repo) Land(e *Entry, o LandOptions) (*Landing, error) {
	strategy := o.Strategy
	if strategy == "" {
		strategy = "merge"
	}
	if e.Bare || r.isMain(e) {
		return nil, refuseLand(nil, "%s is the main worktree; land a linked worktree", e.Path)
	}
	if e.Prunable {
		return nil, refuseLand(nil, "%s is gone (its directory was deleted); nothing to land: 'claude-account worktree rm' forgets it", e.Path)
	}
	if e.Branch == "" || !isOID(e.HEAD) {
		return nil, refuseLand(nil, "%s has no branch checked out (a detached HEAD); check one out there (git switch -c NAME), then land again", e.Path)
	}
	base, err := r.localBase(e, o.Into)
	if err != nil {
		return nil, err
	}
	// Whatever rm refuses, landing refuses before anything moves: the
	// commits it would keep are what is about to land.
	ro := o.Remove
	ro.Force, ro.Base = false, base.Name
	if _, err := decideRemoval(r.observeRemoval(e, ro)); err != nil {
		var ref *Refusal
		switch {
		case errors.As(err, &ref) && ref.Reason == ReasonCommits:
		case errors.As(err, &ref) && ref.Reason == ReasonUncommitted:
			return nil, refuseLand(nil, "%s has uncommitted changes; commit them there (or stash them), then land again", e.Path)
		default:
			return nil, err
		}
	}
	if base.Checkout != "" {
		n, err := uncommitted(r.Git.In(base.Checkout))
		if err != nil {
			return nil, err
		}
		if n > 0 {
			return nil, refuseLand(nil, "%s is checked out in %s, which has %d uncommitted change(s); commit or stash them there, then land again", base.Name, base.Checkout, n)
		}
	}
	g := r.Git.In(e.Path)
	if err := r.startedOnBase(e, base); err != nil {
		return nil, err
	}
	l := &Landing{Path: e.Path, Branch: e.Branch, Base: base.Name, Strategy: strategy, Old: base.OID}
	if l.Commits, err = countRange(g, base.OID, e.HEAD); err != nil {
		return nil, err
	}
	switch {
	case l.Commits == 0:
		l.New = base.OID
		l.Notes = append(l.Notes, fmt.Sprintf("%s has nothing %s lacks: nothing to land", e.Branch, base.Name))
	case strategy == "merge":
		l.New, err = mergeCommit(g, base, e)
	case strategy == "squash":
		l.New, err = squashCommit(g, base, e, l.Commits)
	case strategy == "rebase":
		l.New, err = rebaseCommits(g, base, e)
	default:
		return nil, fmt.Errorf("--strategy %s is none of %s", strategy, strings.Join(Strategies, ", "))
	}
	if err != nil {
		return nil, err
	}
	if l.New != base.OID {
		if err := r.moveBase(base, l.New, e.Branch); err != nil {
			return nil, err
		}
		l.Notes = append(l.Notes, fmt.Sprintf("%s %s into %s (%s..%s)", landVerb[strategy], e.Branch, base.Name, short(base.OID), short(l.New)))
	}
	ro.Base = base.Name
	rm, err := r.Remove(e, ro)
	if err != nil {
		return l, fmt.Errorf("landed %s on %s, but the worktree stays: %w", e.Branch, base.Name, err)
	}
	l.Removed = true
	l.Notes = append(l.Notes, rm.Notes...)
	return l, nil
}

var landVerb = map[string]string{"merge": "merged", "rebase": "rebased", "squash": "squashed"}

func short(oid string) string { return oid[:min(len(oid), 12)] }

// startedOnBase refuses when the base no longer holds the commit the
// worktree started from (its record's) while the branch still does: the
// base was reset or rewritten, or a local branch is behind the remote one
// the worktree was made from, and landing would bring in commits nobody
// chose. The record is the repository's: an id that is no ancestor of the
// branch is not believed.
func (r *Repo) startedOnBase(e *Entry, base LocalBase) error {
	gitDir, err := GitDir(e.Path)
	if err != nil {
		return nil
	}
	m := ReadMeta(gitDir)
	if m == nil || m.BaseOID == "" {
		return nil
	}
	g := r.Git.In(e.Path)
	if ok, err := g.OK("merge-base", "--is-ancestor", m.BaseOID, e.HEAD); err != nil || !ok {
		return nil
	}
	if ok, err := g.OK("merge-base", "--is-ancestor", m.BaseOID, base.OID); err != nil || ok {
		return err
	}
	return refuseLand(nil, "%s does not hold %s, the commit %s started from (%s was reset or rewritten since, or is behind the remote branch the worktree was made from); bring %s up to it first (e.g. git merge --ff-only origin/%s in it), or land by hand with git", base.Name, short(m.BaseOID), e.Branch, base.Name, base.Name, base.Name)
}

// countRange counts the commits of head not in base.
func countRange(g Git, base, head string) (int, error) {
	out, err := g.Run("rev-list", "--count", head, "--not", base)
	if err != nil {
		return 0, err
	}
	var n int
	_, err = fmt.Sscan(out, &n)
	return n, err
}

// mergeTree merges two commits without touching any work tree: the tree,
// or a refusal naming the conflicting files.
func mergeTree(g Git, ours, theirs, what string) (string, error) {
	out, err := g.run(nil, "merge-tree", "--write-tree", "--no-messages", "--name-only", "-z", ours, theirs)
	tree, files := parseMergeTree(out)
	var ee *exec.ExitError
	if err != nil && errors.As(err, &ee) && ee.ExitCode() == 1 && len(files) > 0 {
		return "", refuseLand(files, "%s conflicts in %s; nothing changed: merge it by hand (or rebase the branch in its worktree), then land again", what, strings.Join(quoteAll(files), ", "))
	}
	if err != nil {
		// Not a conflict: most often a merge driver the repository's
		// configuration names, which gitcmd never runs.
		return "", fmt.Errorf("git could not finish %s (%w); nothing changed: merge by hand with git (a merge driver the repository's configuration names never runs here), then land again", what, err)
	}
	if !isOID(tree) {
		return "", fmt.Errorf("git merge-tree gave no tree for %s", what)
	}
	return tree, nil
}

// parseMergeTree reads merge-tree --write-tree --no-messages --name-only -z:
// the tree, then each conflicting file once.
func parseMergeTree(out string) (string, []string) {
	parts := strings.Split(out, "\x00")
	var files []string
	seen := map[string]bool{}
	for _, p := range parts[1:] {
		if p != "" && !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	return parts[0], files
}

func quoteAll(s []string) []string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = shell.Quote(x)
	}
	return q
}

// commitTree makes a commit without touching any work tree; env sets its
// author, message is its message.
func commitTree(g Git, env []string, message, tree string, parents ...string) (string, error) {
	// --no-gpg-sign: commit.gpgSign in the repository's config would run
	// its gpg.program.
	args := []string{"commit-tree", "--no-gpg-sign"}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	out, err := g.runInput(strings.NewReader(message), env, append(args, tree)...)
	out = strings.TrimSpace(out)
	if err == nil && !isOID(out) {
		err = fmt.Errorf("git commit-tree gave %q", out)
	}
	return out, err
}

// mergeCommit is a merge of e's branch into base, or its head when base
// is an ancestor of it (a fast-forward, as git merge does).
func mergeCommit(g Git, base LocalBase, e *Entry) (string, error) {
	if ok, err := g.OK("merge-base", "--is-ancestor", base.OID, e.HEAD); err != nil || ok {
		return e.HEAD, err
	}
	tree, err := mergeTree(g, base.OID, e.HEAD, "merging "+e.Branch+" into "+base.Name)
	if err != nil {
		return "", err
	}
	return commitTree(g, nil, fmt.Sprintf("Merge branch '%s' into %s\n", e.Branch, base.Name), tree, base.OID, e.HEAD)
}

// squashCommit is one commit on base with every change of e's branch,
// its message naming the branch and its commits.
func squashCommit(g Git, base LocalBase, e *Entry, n int) (string, error) {
	tree, err := mergeTree(g, base.OID, e.HEAD, "squashing "+e.Branch+" onto "+base.Name)
	if err != nil {
		return "", err
	}
	log, err := g.Run("rev-list", "--reverse", "--no-commit-header", "--format=* %h %s", e.HEAD, "--not", base.OID)
	if err != nil {
		return "", err
	}
	msg := fmt.Sprintf("Squashed branch '%s' (%d commit(s))\n\n%s\n", e.Branch, n, log)
	return commitTree(g, nil, msg, tree, base.OID)
}

// rebaseCommits replays e's commits on base one by one, as git rebase
// does, without touching any work tree: each is a three-way merge of its
// parent, the replayed tip and itself (merge-tree finds the parent as the
// merge base of itself and a stand-in commit of the tip's tree on that
// parent). Authors and messages are kept; a commit whose changes base
// already has is dropped, one empty from the start kept. The head itself
// when base is an ancestor.
func rebaseCommits(g Git, base LocalBase, e *Entry) (string, error) {
	if ok, err := g.OK("merge-base", "--is-ancestor", base.OID, e.HEAD); err != nil || ok {
		return e.HEAD, err
	}
	merges, err := g.Run("rev-list", "--count", "--merges", e.HEAD, "--not", base.OID)
	if err != nil {
		return "", err
	}
	if merges != "0" {
		return "", refuseLand(nil, "%s has merge commits, which a rebase does not keep; land it with --strategy merge or squash", e.Branch)
	}
	list, err := g.Run("rev-list", "--reverse", e.HEAD, "--not", base.OID)
	if err != nil {
		return "", err
	}
	tip := base.OID
	for _, c := range strings.Fields(list) {
		info, err := g.Run("rev-list", "-1", "--no-commit-header", "--format=%P%x00%an%x00%ae%x00%ad%x00%T", "--date=raw", c)
		if err != nil {
			return "", err
		}
		f := strings.Split(info, "\x00")
		if len(f) != 5 {
			return "", fmt.Errorf("git show gave %q for %s", info, c)
		}
		parent := f[0]
		tipTree, err := g.Run("rev-parse", "--verify", tip+"^{tree}")
		if err != nil {
			return "", err
		}
		standIn, err := commitTree(g, nil, "claude-account: stand-in for a rebase\n", tipTree, parent)
		if err != nil {
			return "", err
		}
		tree, err := mergeTree(g, standIn, c, "rebasing "+e.Branch+" onto "+base.Name+" at "+short(c))
		if err != nil {
			return "", err
		}
		if tree == tipTree {
			// Its changes are there already: dropped, as git rebase drops
			// a commit that becomes empty. One empty from the start (git
			// commit --allow-empty: a note, a marker) is kept, as git
			// rebase keeps it.
			parentTree, err := g.Run("rev-parse", "--verify", parent+"^{tree}")
			if err != nil || parentTree != f[4] {
				continue
			}
		}
		msg, err := g.run(nil, "rev-list", "-1", "--no-commit-header", "--format=%B", c)
		if err != nil {
			return "", err
		}
		author := []string{"GIT_AUTHOR_NAME=" + f[1], "GIT_AUTHOR_EMAIL=" + f[2], "GIT_AUTHOR_DATE=@" + f[3]}
		if tip, err = commitTree(g, author, strings.TrimRight(msg, "\n")+"\n", tree, tip); err != nil {
			return "", err
		}
	}
	return tip, nil
}

// moveBase moves the base branch from its commit to next: a fast-forward
// in the worktree that has it checked out (its files follow), else a
// compare-and-swap of the ref. Either fails when the base moved since.
func (r *Repo) moveBase(base LocalBase, next, branch string) error {
	ref := "refs/heads/" + base.Name
	if base.Checkout == "" {
		_, err := r.Git.Run("update-ref", "-m", "claude-account worktree merge "+branch, ref, next, base.OID)
		return err
	}
	g := r.Git.In(base.Checkout)
	now, err := g.Run("rev-parse", "--verify", ref+"^{commit}")
	if err != nil {
		return err
	}
	if now != base.OID {
		return refuseLand(nil, "%s moved while landing (now %s); land again", base.Name, short(now))
	}
	// A fast-forward as git merge --ff-only makes it (which is not run:
	// merge.verifySignatures in the repository's config would run its
	// gpg.program): the files and index move first, then the ref, only if
	// it has not moved; if it has, the files go back.
	if _, err := g.Run("read-tree", "-m", "-u", base.OID, next); err != nil {
		return err
	}
	if _, err := r.Git.Run("update-ref", "-m", "claude-account worktree merge "+branch, ref, next, base.OID); err != nil {
		if _, back := g.Run("read-tree", "-m", "-u", next, base.OID); back != nil {
			return fmt.Errorf("%w; and putting %s's files back failed: %v", err, base.Checkout, back)
		}
		return err
	}
	return nil
}
