package gitctx

import (
	"fmt"
	"path/filepath"
	"strings"
)

// workTree picks the work tree in git's order of precedence:
// GIT_WORK_TREE, then core.bare, then core.worktree, then the cwd.
func (d *detector) workTree(r repo, cfg coreConfig) (Context, error) {
	if env := d.getenv("GIT_WORK_TREE"); env != "" {
		top, err := resolve(d.ctx.Dir, env)
		if err != nil {
			return d.ctx, fmt.Errorf("GIT_WORK_TREE=%s: %w; unset GIT_WORK_TREE or create the directory", env, unwrapPath(err))
		}
		return d.finish(r, top, cfg), nil
	}
	if cfg.bare == boolTrue {
		if cfg.hasWorktree {
			d.ctx.Notes = append(d.ctx.Notes, fmt.Sprintf("%s sets core.bare, so git ignores its core.worktree; remove one of the two; using the repository as bare", join(r.common, "config")))
		}
		return d.bare(r), nil
	}
	if cfg.hasWorktree {
		top, err := resolve(r.gitDir, cfg.worktree)
		if err != nil {
			if !missing(err) {
				return d.ctx, fmt.Errorf("git context: %w", err)
			}
			return d.note("%s sets core.worktree to %s, which does not exist; fix core.worktree; using no git context", join(r.common, "config"), cfg.worktree), nil
		}
		return d.finish(r, top, cfg), nil
	}
	// Git's implicit work tree: with GIT_DIR and nothing else, the cwd.
	return d.finish(r, d.ctx.Dir, cfg), nil
}

// owner maps a git dir the cwd lies in to the work tree it belongs to.
// Git itself sees no work tree there, but the user is in the same
// workspace and should get the same runtime dir.
func (d *detector) owner(r repo, cfg coreConfig) (Context, error) {
	if r.hasCommon {
		// worktrees/<name>/gitdir holds the path of the worktree's .git file.
		gitdirFile := join(r.gitDir, "gitdir")
		data, err := readFile(gitdirFile, -1)
		if err != nil && !missing(err) {
			return d.ctx, fmt.Errorf("git context: %w", err)
		}
		p := strings.TrimRight(string(data), " \t\r\n")
		if p == "" {
			return d.note("%s names no worktree; run 'git worktree prune' from the main repository; using no git context", gitdirFile), nil
		}
		dotGit, err := resolve(r.gitDir, p)
		if err != nil {
			if !missing(err) {
				return d.ctx, fmt.Errorf("git context: %w", err)
			}
			return d.note("worktree %s was at %s, which does not exist; run 'git worktree prune' from the main repository; using no git context", filepath.Base(r.gitDir), filepath.Dir(p)), nil
		}
		return d.finish(r, filepath.Dir(dotGit), cfg), nil
	}
	if filepath.Base(r.gitDir) == ".git" {
		return d.finish(r, filepath.Dir(r.gitDir), cfg), nil
	}
	// Nothing names the work tree of a git dir like the target of
	// --separate-git-dir; git treats it as having none, and so do we. Say
	// so unless it looks like a bare repository that just lacks core.bare.
	if cfg.bare == boolFalse || !strings.HasSuffix(r.gitDir, ".git") {
		d.ctx.Notes = append(d.ctx.Notes, fmt.Sprintf("%s is a git directory whose work tree is unknown; using it as a bare repository", r.gitDir))
	}
	return d.bare(r), nil
}

func (d *detector) bare(r repo) Context {
	d.ctx.Kind = Bare
	d.ctx.GitDir = r.gitDir
	d.ctx.CommonDir = r.common
	return d.ctx
}

func (d *detector) finish(r repo, toplevel string, cfg coreConfig) Context {
	d.ctx.GitDir = r.gitDir
	d.ctx.CommonDir = r.common
	d.ctx.Toplevel = toplevel
	d.ctx.Fingerprint = Fingerprint(toplevel)
	d.ctx.Recorded = recordedCheckout(r, cfg)
	switch {
	case r.gitDir != r.common:
		d.ctx.Kind = Linked
		d.ctx.Worktree = filepath.Base(r.gitDir)
	case isSubmoduleGitDir(r.gitDir):
		d.ctx.Kind = Submodule
	default:
		d.ctx.Kind = Main
	}
	return d.ctx
}

// recordedCheckout is the work tree git records for the git dir of r: for a
// linked worktree, the dir of the .git file its gitdir file names (git
// worktree add and move write it); for any other, core.worktree when set
// (git submodule sets it), else the dir holding a git dir named .git. ""
// when git records none (the target of --separate-git-dir). Canonical when
// it exists; a recorded dir that is gone (moved by hand) is returned as
// recorded, so it is nobody's toplevel.
func recordedCheckout(r repo, cfg coreConfig) string {
	at := func(base, p string) string {
		if got, err := resolve(base, p); err == nil {
			return got
		}
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(base, p)
	}
	if r.hasCommon {
		data, err := readFile(join(r.gitDir, "gitdir"), 4096)
		p := strings.TrimRight(string(data), " \t\r\n")
		if err != nil || p == "" {
			return ""
		}
		return filepath.Dir(at(r.gitDir, p))
	}
	if cfg.hasWorktree {
		return at(r.gitDir, cfg.worktree)
	}
	if filepath.Base(r.gitDir) == ".git" {
		return filepath.Dir(r.gitDir)
	}
	return ""
}

// isSubmoduleGitDir reports whether gitDir lies in the modules/ dir of
// another git dir: <super>/.git/modules/<name>, or, for a submodule of a
// linked worktree, <common>/worktrees/<wt>/modules/<name> (git keeps
// modules/ per worktree). Names may contain slashes, so every modules/
// from the right is tried.
func isSubmoduleGitDir(gitDir string) bool {
	s := gitDir
	for {
		i := strings.LastIndex(s, sep+"modules"+sep)
		if i < 0 {
			return false
		}
		parent := gitDir[:i]
		if parent == "" {
			parent = sep
		}
		if _, ok, err := probe(parent); err == nil && ok {
			return true
		}
		s = gitDir[:i]
	}
}
