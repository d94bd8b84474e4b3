// Package gitctx finds the git context a launch happens in: the row of the
// fallback matrix in DESIGN.md and the canonical paths that key the runtime
// dir and the lock.
//
// It runs on every launch, so it reads .git files and directories itself
// instead of starting git, and it mirrors git's own discovery (setup.c):
// the same walk up, the same ceilings, the same precedence of GIT_DIR,
// GIT_WORK_TREE, core.bare and core.worktree. Where git has no work tree
// but the user is plainly in one workspace (cwd inside .git/), it maps the
// git dir back to its work tree.
//
// Not mirrored, because no launch needs them: the safe.directory ownership
// check and safe.bareRepository (git refuses such repositories; we still
// key the runtime dir by them), GIT_COMMON_DIR and GIT_OBJECT_DIRECTORY,
// include directives (git's own format check skips them too) and
// config.worktree under extensions.worktreeConfig.
package gitctx

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Kind is the row of the fallback matrix.
type Kind string

const (
	NotGit    Kind = "not-git"
	Main      Kind = "main-worktree"
	Linked    Kind = "linked-worktree"
	Bare      Kind = "bare"
	Submodule Kind = "submodule"
)

// Context is where a launch happens. All paths are canonical: absolute,
// with symlinks resolved, so the same workspace always gets the same
// fingerprint whichever path led to it.
type Context struct {
	Kind        Kind
	Dir         string // canonical directory detection started from
	Toplevel    string // canonical work tree root; "" for NotGit and Bare
	GitDir      string // canonical $GIT_DIR; for a linked worktree <common>/worktrees/<name>; "" for NotGit
	CommonDir   string // canonical common git dir; equals GitDir except for linked worktrees
	Worktree    string // for Linked: the <name> under <common>/worktrees/; else ""
	Fingerprint string // Fingerprint(Toplevel), or "" when Toplevel is ""
	// Recorded is the work tree git itself records for GitDir (RecordedCheckout);
	// "" when it records none. Only that checkout owns the git dir's runtime.
	Recorded string
	Notes    []string // one-line notices for the user, e.g. why a dangling gitdir fell back to NotGit
}

// Fingerprint is the 16-hex-digit FNV-1a-64 of a canonical path. It only
// has to tell workspaces apart in lock and state names, not resist attack.
func Fingerprint(canonical string) string {
	h := fnv.New64a()
	h.Write([]byte(canonical))
	return fmt.Sprintf("%016x", h.Sum64())
}

// Detect finds the context of dir (absolute path; may contain symlinks).
// getenv reads the environment (tests pass a map lookup; nil means
// os.Getenv): GIT_DIR, GIT_WORK_TREE, GIT_CEILING_DIRECTORIES and
// GIT_DISCOVERY_ACROSS_FILESYSTEM are honoured as git does.
//
// A repository that is broken on disk (a dangling gitdir: pointer, a moved
// work tree) gives NotGit and a Note, so the launch still goes ahead; a
// broken GIT_DIR or GIT_WORK_TREE is an error, because git refuses it too
// and the user set it just now.
func Detect(dir string, getenv func(string) string) (Context, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	cwd, err := canonical(dir)
	if err != nil {
		return Context{}, fmt.Errorf("git context: %w", err)
	}
	d := detector{getenv: getenv, ctx: Context{Kind: NotGit, Dir: cwd}}
	if gitDir := getenv("GIT_DIR"); gitDir != "" {
		return d.explicit(gitDir)
	}
	return d.discover()
}

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

// Stranger reports whether the work tree reaches a git dir that git records
// for another checkout (a .git file naming another checkout's git dir,
// GIT_DIR with GIT_WORK_TREE, a copied linked worktree, one moved by hand):
// that checkout owns the git dir's runtime, and this one must not displace
// it.
func (c Context) Stranger() bool {
	return c.Toplevel != "" && c.Recorded != "" && c.Recorded != c.Toplevel
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

const sep = string(filepath.Separator)

func join(dir, name string) string {
	if dir == sep {
		return sep + name
	}
	return dir + sep + name
}

func canonical(p string) (string, error) {
	if !filepath.IsAbs(p) {
		var err error
		if p, err = filepath.Abs(p); err != nil {
			return "", err
		}
	}
	return filepath.EvalSymlinks(p)
}

// resolve canonicalises p, taken relative to base (a canonical dir) when
// not absolute. It does not clean lexically first, so "link/.." means
// what the kernel says, as in git's real_path; a plain "../.." is the
// exception, being an ancestor of an already canonical dir.
func resolve(base, p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.EvalSymlinks(p)
	}
	if onlyDotDot(p) {
		return filepath.Join(base, p), nil
	}
	return filepath.EvalSymlinks(join(base, p))
}

func onlyDotDot(p string) bool {
	for _, c := range strings.Split(p, sep) {
		if c != ".." && c != "." && c != "" {
			return false
		}
	}
	return true
}

// missing reports an error meaning the path is not there.
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// unwrapPath drops the op and path of a *fs.PathError when the message
// already names the path.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// envBool is git_env_bool with a false default.
func envBool(s string) bool {
	if s == "" {
		return false
	}
	v, ok := parseBool(s)
	return ok && v
}
