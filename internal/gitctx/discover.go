package gitctx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

type detector struct {
	getenv func(string) string
	ctx    Context
}

// repo is a git dir that passed git's is_git_directory test.
type repo struct {
	gitDir    string
	common    string
	hasCommon bool // a commondir file exists: git ignores core.bare and core.worktree
}

// discover walks up from the start dir like setup_git_directory_gently_1.
func (d *detector) discover() (Context, error) {
	dir := d.ctx.Dir
	ceil := ceilingOffset(dir, d.getenv("GIT_CEILING_DIRECTORIES"))
	oneFS := !envBool(d.getenv("GIT_DISCOVERY_ACROSS_FILESYSTEM"))
	var dev uint64
	if oneFS {
		dev, oneFS = deviceOf(dir)
	}
	for {
		dotGit := join(dir, ".git")
		// Git stats .git and treats any failure as "no .git here".
		if fi, err := os.Lstat(dotGit); err == nil {
			mode := fi.Mode()
			link := mode&fs.ModeSymlink != 0
			if link {
				mode = 0
				if fi, err := os.Stat(dotGit); err == nil {
					mode = fi.Mode()
				}
			}
			switch {
			case mode.IsRegular():
				return d.gitFile(dir, dotGit)
			case mode.IsDir():
				gitDir := dotGit
				if link {
					var err error
					if gitDir, err = filepath.EvalSymlinks(dotGit); err != nil {
						return d.ctx, fmt.Errorf("git context: %w", err)
					}
				}
				r, ok, err := probe(gitDir)
				if err != nil {
					return d.ctx, err
				}
				if ok {
					return d.discovered(r, dir, false)
				}
			}
		}
		r, ok, err := probe(dir)
		if err != nil {
			return d.ctx, err
		}
		if ok {
			return d.discovered(r, dir, true)
		}
		parent := filepath.Dir(dir)
		if parent == dir || offset(parent) <= ceil {
			return d.ctx, nil
		}
		if oneFS {
			if pdev, ok := deviceOf(parent); ok && pdev != dev {
				return d.ctx, nil
			}
		}
		dir = parent
	}
}

// gitFile follows a .git file found while walking up. Git stops at a
// broken one instead of looking further up, and so do we: the enclosing
// repository is not the workspace the user is in.
func (d *detector) gitFile(dir, dotGit string) (Context, error) {
	target, err := readGitFile(dotGit)
	if err != nil {
		if errors.Is(err, errBadGitFile) {
			return d.note("%s is neither a git directory nor a 'gitdir: <path>' file; fix or remove it; using no git context", dotGit), nil
		}
		return d.ctx, fmt.Errorf("git context: %w", err)
	}
	abs := target
	if !filepath.IsAbs(target) {
		abs = filepath.Join(dir, target)
	}
	gitDir, err := resolve(dir, target)
	if err != nil {
		if !missing(err) {
			return d.ctx, fmt.Errorf("git context: %w", err)
		}
		if strings.Contains(abs, sep+"worktrees"+sep) {
			return d.note("%s points to %s, which does not exist (main repository moved?); run 'git worktree repair' from the main repository; using no git context", dotGit, abs), nil
		}
		return d.note("%s points to %s, which does not exist (repository moved?); point its gitdir: line at the repository; using no git context", dotGit, abs), nil
	}
	r, ok, err := probe(gitDir)
	if err != nil {
		return d.ctx, err
	}
	if !ok {
		return d.note("%s points to %s, which is not a git repository; point its gitdir: line at the repository; using no git context", dotGit, abs), nil
	}
	return d.discovered(r, dir, false)
}

// discovered is setup_discovered_git_dir and setup_bare_git_dir: r was
// found at workDir/.git, or is workDir itself when implicit.
func (d *detector) discovered(r repo, workDir string, implicit bool) (Context, error) {
	cfg, err := d.config(r)
	if err != nil {
		return d.ctx, err
	}
	if d.getenv("GIT_WORK_TREE") != "" || cfg.hasWorktree {
		return d.workTree(r, cfg)
	}
	if cfg.bare == boolTrue {
		return d.bare(r), nil
	}
	if implicit {
		return d.owner(r, cfg)
	}
	return d.finish(r, workDir, cfg), nil
}

// explicit is setup_explicit_git_dir for GIT_DIR from the environment.
func (d *detector) explicit(env string) (Context, error) {
	path := env
	if !filepath.IsAbs(path) {
		path = d.ctx.Dir + sep + path
	}
	fi, err := os.Stat(path)
	if err != nil {
		return d.ctx, fmt.Errorf("GIT_DIR=%s: %w; unset GIT_DIR or point it at a repository", env, unwrapPath(err))
	}
	if fi.Mode().IsRegular() {
		target, err := readGitFile(path)
		if err != nil {
			return d.ctx, fmt.Errorf("GIT_DIR=%s: %w; unset GIT_DIR or point it at a repository", env, unwrapPath(err))
		}
		path = target
		if !filepath.IsAbs(path) {
			path = filepath.Dir(env) + sep + path
			if !filepath.IsAbs(path) {
				path = d.ctx.Dir + sep + path
			}
		}
	}
	gitDir, err := filepath.EvalSymlinks(path)
	if err != nil {
		return d.ctx, fmt.Errorf("GIT_DIR=%s: %w; unset GIT_DIR or point it at a repository", env, unwrapPath(err))
	}
	r, ok, err := probe(gitDir)
	if err != nil {
		return d.ctx, err
	}
	if !ok {
		return d.ctx, fmt.Errorf("GIT_DIR=%s: not a git repository; unset GIT_DIR or point it at a repository", env)
	}
	cfg, err := d.config(r)
	if err != nil {
		return d.ctx, err
	}
	return d.workTree(r, cfg)
}

// note gives up on git context with a reason, as NotGit.
func (d *detector) note(format string, args ...any) Context {
	return Context{Kind: NotGit, Dir: d.ctx.Dir, Notes: append(d.ctx.Notes, fmt.Sprintf(format, args...))}
}

// config reads core.bare and core.worktree the way git's repository
// format check does: from the common dir, and not at all for a linked
// worktree, whose common config belongs to the main (maybe bare) repo.
func (d *detector) config(r repo) (coreConfig, error) {
	if r.hasCommon {
		return coreConfig{}, nil
	}
	path := join(r.common, "config")
	data, err := readFile(path, -1)
	if err != nil {
		if missing(err) {
			return coreConfig{}, nil
		}
		return coreConfig{}, fmt.Errorf("git context: %w", err)
	}
	cfg, err := parseConfig(data)
	if err != nil {
		d.ctx.Notes = append(d.ctx.Notes, fmt.Sprintf("%s:%v; git refuses this repository until it is fixed", path, err))
	}
	return cfg, nil
}

// ceilingOffset is git's longest_ancestor_length over the canonicalised
// GIT_CEILING_DIRECTORIES: the length of the longest entry that is a
// proper ancestor of dir ("/" counting as 0), or -1. Entries after an
// empty one are not resolved, as git promises.
func ceilingOffset(dir, env string) int {
	if env == "" || dir == sep {
		return -1
	}
	longest := -1
	resolveEntries := true
	for _, c := range filepath.SplitList(env) {
		switch {
		case c == "":
			resolveEntries = false
			continue
		case !filepath.IsAbs(c):
			continue
		case resolveEntries:
			r, err := filepath.EvalSymlinks(c)
			if err != nil {
				continue
			}
			c = r
		default:
			c = filepath.Clean(c)
		}
		n := len(c)
		if c == sep {
			n = 0
		} else if !(len(dir) > n && dir[n] == filepath.Separator && dir[:n] == c) {
			continue
		}
		if n > longest {
			longest = n
		}
	}
	return longest
}

// offset is the length git compares against a ceiling: 0 for the root.
func offset(dir string) int {
	if dir == sep {
		return 0
	}
	return len(dir)
}

// envBool is git_env_bool with a false default.
func envBool(s string) bool {
	if s == "" {
		return false
	}
	v, ok := parseBool(s)
	return ok && v
}
