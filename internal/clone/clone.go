package clone

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitcmd"
)

// fetchRefspec makes fetch keep refs/remotes/origin/*, which a bare clone
// lacks (it copies the remote's branches to refs/heads/* once, and never
// updates them): worktrees then have branches with upstreams.
const fetchRefspec = "+refs/heads/*:refs/remotes/origin/*"

// Base is $CLAUDE_ACCOUNT_BASE, else $XDG_DATA_HOME/claude-account (when
// absolute), else ~/.local/share/claude-account.
func Base(e env.Env) (string, error) {
	if b := e.Get("CLAUDE_ACCOUNT_BASE"); b != "" {
		if !filepath.IsAbs(b) {
			return "", fmt.Errorf("clone: CLAUDE_ACCOUNT_BASE=%q is not an absolute path; set it to one, or unset it to use %s",
				b, e.TildePath(filepath.Join(e.DataHome(), "claude-account")))
		}
		return filepath.Clean(b), nil
	}
	return filepath.Join(e.DataHome(), "claude-account"), nil
}

// Layout places a source's clone and worktrees under Base.
type Layout struct{ Base string }

// Repo is BASE/repos/OWNER__REPO.git.
func (l Layout) Repo(s Source) string { return filepath.Join(l.Base, "repos", s.Name+".git") }

// Worktree is BASE/worktrees/OWNER__REPO/BRANCH, '/' in BRANCH flattened to '+'.
func (l Layout) Worktree(s Source, branch string) string {
	return filepath.Join(l.Base, "worktrees", s.Name, FlatBranch(branch))
}

// Repo is the outcome of EnsureRepo.
type Repo struct {
	Dir    string // the bare repository
	URL    string // its origin: what was cloned or fetched
	Cloned bool   // false: it existed and was fetched
}

// EnsureRepo makes dir a bare clone of src, or fetches it when it exists. A
// new clone is made in a temporary sibling and renamed into place, so that an
// interrupted or failed clone never leaves a half repository at dir. An
// existing dir must be a bare clone of the same repository.
func EnsureRepo(ctx context.Context, g Git, dir string, src Source) (Repo, error) {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		r, err := cloneNew(ctx, g, dir, src)
		if !errors.Is(err, errRaced) {
			return r, err
		}
		// Another clone of the same repository finished first: use it.
	} else if err != nil {
		return Repo{}, fmt.Errorf("clone: %w", err)
	}
	return fetchExisting(ctx, g, dir, src)
}

var errRaced = errors.New("the repository appeared while cloning")

func cloneNew(ctx context.Context, g Git, dir string, src Source) (Repo, error) {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return Repo{}, fmt.Errorf("clone: %w; check the permissions of %s", err, parent)
	}
	// git makes the repository inside a private temporary directory, so that
	// it gets the modes a plain clone would have.
	scratch, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return Repo{}, fmt.Errorf("clone: %w; check the permissions of %s", err, parent)
	}
	defer os.RemoveAll(scratch)
	tmp := filepath.Join(scratch, filepath.Base(dir))
	if _, err := g.Run(ctx, "clone", "--bare", "--quiet", "--", src.URL, tmp); err != nil {
		return Repo{}, remoteError("clone", src.URL, err)
	}
	gd := g.at(tmp)
	if _, err := gd.Run(ctx, "config", "remote.origin.fetch", fetchRefspec); err != nil {
		return Repo{}, localError(tmp, err)
	}
	if _, err := gd.Run(ctx, "fetch", "--quiet", "--prune", "origin"); err != nil {
		return Repo{}, remoteError("fetch", src.URL, err)
	}
	if err := keepDefaultBranchOnly(ctx, g, tmp); err != nil {
		return Repo{}, localError(tmp, err)
	}
	if err := fsx.Rename(tmp, dir); err != nil {
		if _, serr := os.Lstat(dir); serr == nil {
			return Repo{}, errRaced
		}
		return Repo{}, fmt.Errorf("clone: %w", err)
	}
	return Repo{Dir: dir, URL: src.URL, Cloned: true}, nil
}

// keepDefaultBranchOnly deletes the local branches a bare clone copies from
// the remote, except the default one, which gets origin as its upstream. The
// copies would go stale (fetch updates only origin/*) and shadow origin/B
// when a worktree for B is made later.
func keepDefaultBranchOnly(ctx context.Context, g Git, dir string) error {
	gd := g.at(dir)
	def, err := gd.Run(ctx, "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil {
		return err
	}
	refs, err := gd.Run(ctx, "for-each-ref", "--format=%(refname)", "refs/heads/")
	if err != nil {
		return err
	}
	var del strings.Builder
	for _, ref := range strings.Split(refs, "\n") {
		if ref != "" && ref != "refs/heads/"+def {
			fmt.Fprintf(&del, "delete %s\n", ref)
		}
	}
	if del.Len() > 0 {
		if err := gd.input(ctx, del.String(), "update-ref", "--stdin"); err != nil {
			return err
		}
	}
	if ok, _, err := gd.ok(ctx, "rev-parse", "--verify", "--quiet", "refs/remotes/origin/"+def+"^{commit}"); err != nil || !ok {
		return err // an empty repository: nothing to track yet
	}
	for _, kv := range [][]string{
		{"branch." + def + ".remote", "origin"},
		{"branch." + def + ".merge", "refs/heads/" + def},
	} {
		if _, err := gd.Run(ctx, "config", kv[0], kv[1]); err != nil {
			return err
		}
	}
	_, err = gd.Run(ctx, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/"+def)
	return err
}

func fetchExisting(ctx context.Context, g Git, dir string, src Source) (Repo, error) {
	gd := g.at(dir)
	bare, err := gd.Run(ctx, "rev-parse", "--is-bare-repository")
	if err != nil || bare != "true" {
		if ctx.Err() != nil {
			return Repo{}, ctx.Err()
		}
		return Repo{}, fmt.Errorf("clone: %s exists but is not a bare git repository; move it away and run clone again", dir)
	}
	url, err := gd.Run(ctx, "config", "--get", "remote.origin.url")
	if err != nil && ctx.Err() != nil {
		return Repo{}, ctx.Err()
	}
	if have, perr := Parse(url); err != nil || perr != nil || !have.Same(src) {
		if url == "" {
			url = "no origin"
		}
		return Repo{}, fmt.Errorf("clone: %s is a clone of %s, not %s; move it away to clone %s there", dir, url, src.URL, src.URL)
	}
	// Clones made by hand, or by git clone --bare, lack the refspec.
	if _, err := gd.Run(ctx, "config", "--get", "remote.origin.fetch"); err != nil {
		if ctx.Err() != nil {
			return Repo{}, ctx.Err()
		}
		if _, err := gd.Run(ctx, "config", "remote.origin.fetch", fetchRefspec); err != nil {
			return Repo{}, localError(dir, err)
		}
	}
	if _, err := gd.Run(ctx, "fetch", "--quiet", "--prune", "origin"); err != nil {
		return Repo{}, remoteError("fetch", url, err)
	}
	return Repo{Dir: dir, URL: url}, nil
}

// Worktree is the outcome of EnsureWorktree.
type Worktree struct {
	Dir    string
	Branch string
	Reused bool   // it existed; nothing was changed
	Track  string // the upstream a new worktree's branch tracks, e.g. origin/feature
	From   string // the start of a branch made for it, e.g. origin/main
	Moved  bool   // an existing local branch was fast-forwarded to origin/BRANCH
	// Submodules: a new worktree's submodules were initialised, as
	// worktree new does.
	Submodules bool
}

// DefaultBranch is the branch the bare repository's HEAD names: the remote's
// default branch at the time of the clone.
func DefaultBranch(ctx context.Context, g Git, repo string) (string, error) {
	b, err := g.at(repo).Run(ctx, "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("clone: %s has no default branch (its HEAD is detached); name one with --branch", repo)
	}
	return b, nil
}

// EnsureWorktree makes dir a worktree of repo on branch, or reuses it as it
// is when it already is one. A new worktree's branch is, in order: the local
// branch (fast-forwarded when it is merely behind origin/BRANCH), a new one
// tracking origin/BRANCH, or a new one started at the default branch def.
func EnsureWorktree(ctx context.Context, g Git, repo, dir, branch, def string) (Worktree, error) {
	gd := g.at(repo)
	wt := Worktree{Dir: dir, Branch: branch}
	list, err := gd.Run(ctx, "worktree", "list", "--porcelain")
	if err != nil {
		return wt, localError(repo, err)
	}
	entries := gitcmd.ParseWorktrees([]byte(list))
	_, statErr := os.Lstat(dir)
	exists := statErr == nil
	if statErr != nil && !errors.Is(statErr, fs.ErrNotExist) {
		return wt, fmt.Errorf("clone: %w", statErr)
	}
	for _, e := range entries {
		if !fsx.SamePath(e.Path, dir) {
			continue
		}
		switch {
		case !exists:
			return wt, fmt.Errorf("clone: %s is registered as a worktree of %s but is missing; run 'git --git-dir=%s worktree prune' and clone again", dir, repo, repo)
		case e.Branch != "refs/heads/"+branch:
			on := "a detached HEAD"
			if b, ok := strings.CutPrefix(e.Branch, "refs/heads/"); ok {
				on = "branch " + b
			}
			return wt, fmt.Errorf("clone: %s is a worktree on %s, not %s; check out %s there yourself, or move it away", dir, on, branch, branch)
		}
		wt.Reused = true
		return wt, nil
	}
	if exists {
		return wt, fmt.Errorf("clone: %s exists and is not a worktree of %s; move it away and run clone again", dir, repo)
	}
	for _, e := range entries {
		if e.Branch == "refs/heads/"+branch {
			return wt, fmt.Errorf("clone: branch %s is already checked out in %s; use that worktree, or pick another --branch", branch, e.Path)
		}
	}

	commit := func(ref string) (string, error) {
		_, sha, err := gd.ok(ctx, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
		return sha, err
	}
	local, err := commit("refs/heads/" + branch)
	if err != nil {
		return wt, localError(repo, err)
	}
	remote, err := commit("refs/remotes/origin/" + branch)
	if err != nil {
		return wt, localError(repo, err)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return wt, fmt.Errorf("clone: %w", err)
	}
	add := []string{"worktree", "add", "--quiet"}
	switch {
	case local != "":
		if remote != "" && remote != local {
			behind, _, err := gd.ok(ctx, "merge-base", "--is-ancestor", local, remote)
			if err != nil {
				return wt, localError(repo, err)
			}
			if behind {
				// No commit of its own: moving it loses nothing. The old
				// value guards against a concurrent change.
				if _, err := gd.Run(ctx, "update-ref", "-m", "claude-account clone: fast-forward",
					"refs/heads/"+branch, remote, local); err != nil {
					return wt, localError(repo, err)
				}
				wt.Moved = true
			}
		}
		up, err := gd.Run(ctx, "for-each-ref", "--format=%(upstream:short)", "refs/heads/"+branch)
		if err != nil {
			return wt, localError(repo, err)
		}
		wt.Track = up
		add = append(add, "--", dir, branch)
	case remote != "":
		wt.Track = "origin/" + branch
		add = append(add, "--track", "-b", branch, "--", dir, "refs/remotes/origin/"+branch)
	default:
		start := ""
		for _, ref := range []string{"refs/remotes/origin/" + def, "refs/heads/" + def} {
			if sha, err := commit(ref); err != nil {
				return wt, localError(repo, err)
			} else if sha != "" {
				start = ref
				break
			}
		}
		if start == "" {
			return wt, fmt.Errorf("clone: %s has no commits on %s to start branch %s from; push a first commit, or name an existing --branch", repo, def, branch)
		}
		wt.From = strings.TrimPrefix(strings.TrimPrefix(start, "refs/remotes/"), "refs/heads/")
		add = append(add, "--no-track", "-b", branch, "--", dir, start)
	}
	if _, err := gd.Run(ctx, add...); err != nil {
		if ctx.Err() != nil {
			return wt, ctx.Err()
		}
		var ge *GitError
		if errors.As(err, &ge) {
			return wt, fmt.Errorf("clone: git worktree add %s: %s; check %s", dir, ge.Line(), filepath.Dir(dir))
		}
		return wt, fmt.Errorf("clone: %w", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, ".gitmodules")); err == nil {
		// git's own rules apply (protocol.file.allow and the like): the
		// submodules' URLs come with the repository.
		if _, err := g.in(dir).Run(ctx, "submodule", "update", "--init", "--recursive", "--quiet"); err != nil {
			if ctx.Err() != nil {
				return wt, ctx.Err()
			}
			var ge *GitError
			if errors.As(err, &ge) {
				return wt, fmt.Errorf("clone: initialising the submodules of %s: %s; run 'git -C %s submodule update --init --recursive' once they can be reached", dir, ge.Line(), dir)
			}
			return wt, fmt.Errorf("clone: %w", err)
		}
		wt.Submodules = true
	}
	return wt, nil
}

// remoteError is a failed clone or fetch: the remote is the likely cause.
func remoteError(verb, url string, err error) error {
	var ge *GitError
	if errors.As(err, &ge) {
		return fmt.Errorf("clone: git %s %s: %s; check the URL and your access", verb, url, ge.Line())
	}
	return err // the context ended: the caller reports the interruption
}

// localError is a failed git command on our own repository.
func localError(repo string, err error) error {
	var ge *GitError
	if errors.As(err, &ge) {
		return fmt.Errorf("clone: %v; check that %s is a sound git repository (git fsck)", ge, repo)
	}
	return err
}
