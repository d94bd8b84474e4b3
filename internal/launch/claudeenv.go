package launch

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/shell"
	"github.com/claude-account/claude-account/internal/worktree"
)

// SessionEnv names, in a session's Claude's environment, the launcher's
// session (its lock's id): 'claude-account resume --next' typed inside that
// Claude continues that session's conversation. Only a hint: it is checked
// against the private lock dir and the process tree (a repository's
// .envrc could set it too).
const SessionEnv = "CLAUDE_ACCOUNT_SESSION"

// ClaudeEnv is Claude's environment: ours plus the config dir, the account
// and — in a workspace, unless the user chose one — a task list of its own.
func (w *Workspace) ClaudeEnv() env.Env {
	e := w.env.With("CLAUDE_CONFIG_DIR", w.Layout.ConfigDir, "CLAUDE_ACCOUNT", w.Account.Name)
	// The login, the memory and the plugins are the account's, in every
	// worktree: see configdir.SharedVia.
	for _, s := range configdir.SharedEnv(w.Account, w.Layout, w.env, w.Claude) {
		e[s.Variable] = s.Path
	}
	// A wrapper's account dir and Claude binary must not leak into a
	// launcher started from inside Claude for another account (claudepro
	// within claudemax): it would use this account's Claude.
	delete(e, "CLAUDE_ACCOUNT_DIR")
	delete(e, "CLAUDE_ACCOUNT_CLAUDE")
	// A session's own: Session sets it for the Claude it starts.
	delete(e, SessionEnv)
	// Nor the marks of a background session this launch runs inside (its
	// Bash tool running claudemax -p): they are the parent's, and the
	// hooks of the session started here would take it for a background
	// one and report nothing to ps (session.InBackground).
	delete(e, "CLAUDE_JOB_DIR")
	delete(e, "CLAUDE_CODE_SESSION_KIND")
	// Not for the fleet: its supervisor keeps the environment it starts
	// with for every session it hosts, from any worktree.
	if w.InWorkTree() && !w.fleet && e.Get("CLAUDE_CODE_TASK_LIST_ID") == "" && w.Claude.Has(claudever.TaskListID) {
		e["CLAUDE_CODE_TASK_LIST_ID"] = "ws-" + w.Context.Fingerprint
		if m := worktree.ReadMeta(w.Context.GitDir); m != nil && w.Context.Kind == gitctx.Linked {
			e["CLAUDE_CODE_TASK_LIST_ID"] = worktree.Flatten(m.Slug)
		}
	}
	return e
}

// envWords is what the launcher changes in Claude's environment, as words
// for env(1), which sh runs after exec as it would not run assignments:
// env -u for each variable it removes, then CLAUDE_CONFIG_DIR, then the
// others sorted.
func envWords(from, to env.Env) string {
	var set, unset []string
	for k, v := range to {
		if w, ok := from[k]; (!ok || w != v) && k != "CLAUDE_CONFIG_DIR" {
			set = append(set, k+"="+shell.Quote(v))
		}
	}
	for k := range from {
		if _, ok := to[k]; !ok {
			unset = append(unset, "-u "+shell.Quote(k))
		}
	}
	slices.Sort(set)
	slices.Sort(unset)
	words := append(append([]string{"env"}, unset...), "CLAUDE_CONFIG_DIR="+shell.Quote(to["CLAUDE_CONFIG_DIR"]))
	return strings.Join(append(words, set...), " ")
}

// Executable is this program's path, for the hooks a session runs: the
// binary itself, not a claude<name> link to it, which would start Claude.
func Executable() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		return real
	}
	return exe
}
