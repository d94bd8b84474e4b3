package worktree

import (
	"path/filepath"

	"github.com/claude-account/claude-account/internal/gitctx"
)

// BaseOf is the ref the commits of the worktree of ctx are counted against
// when its branch has no upstream, as List counts them: the ref a linked
// worktree was made from (its MetaFile), else the repository's default base.
// It reads files, and starts git only when the main worktree's HEAD is
// detached: the status line asks it. A linked worktree whose common dir is
// not <main>/.git is taken for one of a bare clone (List asks git), which
// prefers the remote's branch.
func BaseOf(ctx gitctx.Context, env []string) string {
	if ctx.Kind == gitctx.Linked {
		if m := ReadMeta(ctx.GitDir); m != nil && m.Base != "" {
			return m.Base
		}
	}
	r := &Repo{Common: ctx.CommonDir, Git: Git{Dir: ctx.Toplevel, Env: env},
		Bare: ctx.Kind == gitctx.Bare || ctx.Kind == gitctx.Linked && filepath.Base(ctx.CommonDir) != ".git"}
	return r.defaultBase()
}
