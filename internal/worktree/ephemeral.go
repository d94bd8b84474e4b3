package worktree

import (
	"errors"
	"fmt"

	"github.com/claude-account/claude-account/internal/claudeproc"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/shell"
)

// AfterExit removes an ephemeral worktree that Claude left without work
// (no uncommitted change, no file git ignores that is not the worktree's
// machinery, no commit beyond the one it started from: Idle) once
// Claude has exited in it, its conversations archived first, as worktree rm
// does (o.AccountDir says where); worktreesDir is the account's worktree dir
// setting. It returns the lines saying what it did, none when ctx is no
// ephemeral worktree. Another account or instance may still run there, or a
// runtime there may hold conversations of an account whose dir it cannot
// find: Remove refuses then, and the last line says so and how to remove it
// without losing them. No line suggests --force: it would let those
// conversations go with the worktree.
func AfterExit(ctx gitctx.Context, worktreesDir string, env []string, o RemoveOptions, tilde func(string) string) []string {
	if ctx.Kind != gitctx.Linked {
		return nil
	}
	m := ReadMeta(ctx.GitDir)
	if m == nil || !m.Ephemeral {
		return nil
	}
	r, err := Open(ctx, worktreesDir, env)
	if err != nil {
		return nil
	}
	e, err := r.Resolve(ctx.Toplevel)
	if err != nil {
		return nil
	}
	if o.Claudes == nil {
		// The Claude that exited is gone; another one (claude -w there, a
		// tool left running) keeps the worktree.
		o.Claudes = func(path string) ([]int, error) { return claudeproc.Current().In(path) }
	}
	if idle, why := r.Idle(e, m); !idle {
		return []string{fmt.Sprintf("kept the ephemeral worktree %s: %s", tilde(e.Path), why)}
	}
	rm, err := r.Remove(e, o)
	if err != nil {
		return []string{fmt.Sprintf("kept the ephemeral worktree %s: %s", tilde(e.Path), keptWhy(err, e.Path))}
	}
	return append(rm.Notes, fmt.Sprintf("removed the ephemeral worktree %s (no changes)", tilde(e.Path)))
}

// keptWhy says why Remove refused an ephemeral worktree after its session,
// with the fix. A runtime holding conversations of an account whose dir the
// launch cannot find is removed by naming that dir, which archives them:
// worktree rm's own message also names --force, which would not.
func keptWhy(err error, path string) string {
	var ref *Refusal
	if !errors.As(err, &ref) {
		return err.Error()
	}
	switch ref.Reason {
	case ReasonAccountUnfound, ReasonAsideAccountUnfound:
		acct := ref.Account
		return fmt.Sprintf("it holds conversations of account %s, whose dir this launch cannot find; 'claude-account worktree rm --account %s --account-dir DIR %s' archives them there and removes it", acct, acct, shell.Quote(path))
	case ReasonClaudeUnknown:
		return fmt.Sprintf("cannot tell whether a Claude works in it: %v; once none does, 'claude-account worktree rm %s' removes it", ref.cause, shell.Quote(path))
	}
	return err.Error()
}
