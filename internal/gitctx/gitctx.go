package gitctx

import (
	"fmt"
	"hash/fnv"
	"os"
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

// Stranger reports whether the work tree reaches a git dir that git records
// for another checkout (a .git file naming another checkout's git dir,
// GIT_DIR with GIT_WORK_TREE, a copied linked worktree, one moved by hand):
// that checkout owns the git dir's runtime, and this one must not displace
// it.
func (c Context) Stranger() bool {
	return c.Toplevel != "" && c.Recorded != "" && c.Recorded != c.Toplevel
}
