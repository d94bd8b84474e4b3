package configdir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/gitctx"
)

// DirName is the runtime's directory inside $GIT_DIR. Each account gets its
// own subdirectory: two accounts in one worktree must not share a login or
// a .claude.json.
const DirName = "claude-runtime"

// Layout says which directory becomes CLAUDE_CONFIG_DIR.
type Layout struct {
	ConfigDir string // CLAUDE_CONFIG_DIR
	IsRuntime bool   // a per-workspace runtime (layer 3), not the account dir
	ReadOnly  string // non-empty: the git dir that could not be written, so the runtime moved to the state dir
	// Stranger: the checkout git records for this git dir, when it is not
	// this work tree (gitctx.Context.Stranger): that one owns the git dir's
	// runtime, so this work tree's is in the state dir.
	Stranger string
}

// Locate picks the config dir for a context: the account dir outside git and
// in bare repositories (there is no work tree to isolate), else
// $GIT_DIR/claude-runtime/<account>, else — when the git dir is read-only, or
// belongs to another checkout (a .git file naming another checkout's git
// dir, GIT_WORK_TREE, a copied worktree) — a per-workspace dir under
// $XDG_STATE_HOME/claude-account/.
func Locate(a *account.Account, ctx gitctx.Context, e env.Env) Layout {
	if ctx.Kind == gitctx.NotGit || ctx.Kind == gitctx.Bare {
		return Layout{ConfigDir: a.Dir}
	}
	state := filepath.Join(e.StateHome(), "claude-account", ctx.Fingerprint, a.Name)
	if ctx.Stranger() {
		return Layout{ConfigDir: state, IsRuntime: true, Stranger: ctx.Recorded}
	}
	dir := filepath.Join(ctx.GitDir, DirName, a.Name)
	if writable(dir) {
		return Layout{ConfigDir: dir, IsRuntime: true}
	}
	return Layout{ConfigDir: state, IsRuntime: true, ReadOnly: ctx.GitDir}
}

// writable asks the kernel whether we could create or change dir, checking
// the nearest existing ancestor; access(2) reports EROFS for read-only mounts
// even to root, which plain permission bits would not stop.
func writable(dir string) bool {
	for p := dir; ; p = filepath.Dir(p) {
		err := syscall.Access(p, 2 /* W_OK */)
		if err == nil {
			return true
		}
		if !errors.Is(err, fs.ErrNotExist) || p == filepath.Dir(p) {
			return false
		}
	}
}

// exists reports whether path exists without following a final symlink.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
