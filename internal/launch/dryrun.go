package launch

import (
	"fmt"
	"strings"

	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/shell"
)

// DryRun describes what a launch with args would change and start, taking
// no lock and writing nothing: the plan's steps, its notes, and the exec
// line (env(1) words and Claude's arguments, the launcher's hooks included).
// FindClaude has run.
func (w *Workspace) DryRun(args []string, inv session.Invocation, io IO) (string, error) {
	plan, err := configdir.MakePlan(w.Input())
	if err != nil {
		return "", err
	}
	defer plan.Close()
	if err := plan.Verify(); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(plan.String())
	for _, n := range append(w.Context.Notes, plan.Notes...) {
		b.WriteString("note: " + n + "\n")
	}
	if inv.Session {
		// The session's name is its lock's; its holder is not known yet.
		args = w.sessionArgs(strings.TrimSuffix(lock.Name(w.LockKey(), 0), ".lock"), "PID-START", args, io)
	} else {
		fmt.Fprintf(&b, "note: 'claude %s' is a command, not a session: it runs beside a session in this workspace, without the instance lock\n", inv.Command)
	}
	b.WriteString("exec " + envWords(w.env, w.ClaudeEnv()) + " " + shell.Join(append([]string{w.Claude.Path}, args...)) + "\n")
	return b.String(), nil
}
