package worktree

import (
	"fmt"

	"github.com/claude-account/claude-account/internal/claudeproc"
	"github.com/claude-account/claude-account/internal/gitctx"
)

// AfterExit removes an ephemeral worktree that Claude left without work (no
// uncommitted change, no commit beyond the one it started from) once Claude
// has exited in it; worktreesDir is the account's worktree dir setting. It
// returns one line saying what it did, or "" when ctx is no ephemeral
// worktree. Another account or instance may still run there: Remove refuses
// then, and the line says so.
func AfterExit(ctx gitctx.Context, worktreesDir string, env []string, o RemoveOptions, tilde func(string) string) string {
	if ctx.Kind != gitctx.Linked {
		return ""
	}
	m := ReadMeta(ctx.GitDir)
	if m == nil || !m.Ephemeral {
		return ""
	}
	r, err := Open(ctx, worktreesDir, env)
	if err != nil {
		return ""
	}
	e, err := r.Resolve(ctx.Toplevel)
	if err != nil {
		return ""
	}
	if o.Claudes == nil {
		// The Claude that exited is gone; another one (claude -w there, a
		// tool left running) keeps the worktree.
		o.Claudes = func(path string) ([]int, error) { return claudeproc.Current().In(path) }
	}
	if idle, why := r.Idle(e, m); !idle {
		return fmt.Sprintf("kept the ephemeral worktree %s: %s", tilde(e.Path), why)
	}
	if _, err := r.Remove(e, o); err != nil {
		return fmt.Sprintf("kept the ephemeral worktree %s: %v", tilde(e.Path), err)
	}
	return fmt.Sprintf("removed the ephemeral worktree %s (no changes)", tilde(e.Path))
}
