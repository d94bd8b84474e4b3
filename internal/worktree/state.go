package worktree

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/claude-account/claude-account/internal/gitcmd"
	"github.com/claude-account/claude-account/internal/gitctx"
)

// Info is what `worktree list` shows of one worktree.
type Info struct {
	Path         string    `json:"path"`
	Branch       string    `json:"branch"` // "" when detached
	HEAD         string    `json:"head"`
	Main         bool      `json:"main"`
	Ours         bool      `json:"ours"` // made by claude-account (it has our record)
	Slug         string    `json:"slug,omitempty"`
	Ephemeral    bool      `json:"ephemeral"`
	Dirty        int       `json:"dirty"` // changed or untracked files
	Ahead        int       `json:"ahead"` // commits not on the base
	Behind       int       `json:"behind"`
	Base         string    `json:"base"`
	Merged       bool      `json:"merged"` // everything it has is on the base (squash merges included)
	Created      time.Time `json:"created"`
	RuntimeBytes int64     `json:"runtimeBytes"`
	Running      []string  `json:"running"` // accounts with a Claude running there
	GitDir       string    `json:"gitDir"`
	Prunable     bool      `json:"prunable"`
}

// dirtyCount counts changed and untracked files (ignored ones do not count).
func dirtyCount(g Git) (int, error) {
	// No rename detection (a count needs none), and no index refresh written
	// back: list must not take index.lock in worktrees agents are using.
	out, err := g.run([]string{"GIT_OPTIONAL_LOCKS=0"}, "status", "--porcelain=v2", "--untracked-files=normal", "--no-renames")
	if err != nil {
		return 0, err
	}
	return gitcmd.ParseStatus([]byte(out)).Changed, nil
}

// StatusOf is the state of the worktree of ctx, as the status line shows
// it: one `git status --porcelain=v2 --branch`, taking no lock (an agent may
// be committing there). A branch without an upstream (every branch New
// makes) or a detached HEAD counts Ahead against the worktree's base
// (BaseOf), as List does: a second git process, only then; 0 when git
// cannot tell (no such base, no commit yet). The base comes from the
// repository (its remote HEAD, the worktree's record): after
// --end-of-options it is a revision even when it reads as an option.
func StatusOf(ctx gitctx.Context, env []string) (gitcmd.Status, error) {
	g := Git{Dir: ctx.Toplevel, Env: env}
	noLocks := []string{"GIT_OPTIONAL_LOCKS=0"}
	out, err := g.run(noLocks, "status", "--porcelain=v2", "--branch")
	if err != nil {
		return gitcmd.Status{}, err
	}
	st := gitcmd.ParseStatus([]byte(out))
	if !st.Upstream {
		if out, err := g.run(noLocks, "rev-list", "--count", "--end-of-options", BaseOf(ctx, env)+"..HEAD", "--"); err == nil {
			st.Ahead, _ = strconv.Atoi(strings.TrimSpace(out))
		}
	}
	return st, nil
}

// aheadBehind counts commits of head not on base, and of base not on head.
func aheadBehind(g Git, base, head string) (int, int, error) {
	out, err := g.Run("rev-list", "--left-right", "--count", "--end-of-options", head+"..."+base)
	if err != nil {
		return 0, 0, err
	}
	a, b, _ := strings.Cut(out, "\t")
	ahead, _ := strconv.Atoi(a)
	behind, _ := strconv.Atoi(b)
	return ahead, behind, nil
}

// unique counts commits of head found on no other branch, tag or remote
// (its own branch excluded): work that removing the branch would lose.
func unique(g Git, head, branch string) (int, error) {
	// head comes first and the pseudo-options after it, so no
	// --end-of-options: it must be a commit id (as git worktree list gives).
	if !isOID(head) {
		return 0, fmt.Errorf("%q is not a commit id", head)
	}
	// A symbolic ref (refs/heads/alias -> refs/heads/<branch>, which anyone
	// with the repository can plant) counts as no other ref: it is its
	// target, whose commits are counted as that ref's anyway.
	syms, err := g.Run("for-each-ref", "--format=%(if)%(symref)%(then)%(refname)%(end)", "refs/heads/", "refs/tags/", "refs/remotes/")
	if err != nil {
		return 0, err
	}
	excludes := map[string][]string{}
	for _, ref := range strings.Split(syms, "\n") {
		for _, ns := range []string{"heads", "tags", "remotes"} {
			if name, ok := strings.CutPrefix(ref, "refs/"+ns+"/"); ok && name != "" {
				excludes[ns] = append(excludes[ns], "--exclude="+name)
			}
		}
	}
	if branch != "" {
		// --branches matches short names: refs/heads/ must not be in the pattern.
		excludes["heads"] = append(excludes["heads"], "--exclude="+branch)
	}
	// Each --exclude holds for the next --branches, --tags or --remotes only.
	args := []string{"rev-list", "--count", head, "--not"}
	args = append(append(args, excludes["heads"]...), "--branches")
	args = append(append(args, excludes["tags"]...), "--tags")
	args = append(append(args, excludes["remotes"]...), "--remotes")
	out, err := g.Run(args...)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(out)
}

// dirSize adds up the sizes of the files under dir.
func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// created is when a worktree was made: our record, else the mtime of the
// commondir file git writes once when it adds a worktree.
func created(gitDir string, m *Meta) time.Time {
	if m != nil && !m.Created.IsZero() {
		return m.Created
	}
	if fi, err := os.Stat(filepath.Join(gitDir, "commondir")); err == nil {
		return fi.ModTime().UTC()
	}
	return time.Time{}
}

// isOID reports whether s is a full object id in hex (SHA-1 or SHA-256).
func isOID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !(s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'f') {
			return false
		}
	}
	return true
}
