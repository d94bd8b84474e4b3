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
// line (env(1) words and Claude's arguments, the launcher's hooks included),
// a line each. FindClaude has run.
func (w *Workspace) DryRun(args []string, inv session.Invocation, io IO) ([]string, error) {
	if err := w.Launchable(); err != nil {
		return nil, err
	}
	var identityNote string
	if inv.Session || inv.Starts {
		note, err := w.identity(args)
		if err != nil {
			return nil, err
		}
		identityNote = note
	}
	if inv.Fleet {
		w.toFleet()
	}
	plan, err := configdir.MakePlan(w.Input())
	if err != nil {
		return nil, err
	}
	defer plan.Close()
	if err := plan.Verify(); err != nil {
		return nil, err
	}
	lines := plan.Lines()
	for _, n := range append(w.Context.Notes, plan.Notes...) {
		lines = append(lines, "note: "+n)
	}
	if identityNote != "" {
		lines = append(lines, "note: "+identityNote)
	}
	switch {
	case inv.Fleet:
		lines = append(lines, fmt.Sprintf("note: 'claude %s' is one of Claude's fleet: it runs with the account dir as its config dir, where the account's background sessions are, without the instance lock or the launcher's hooks", inv.Command))
	case inv.Session:
		// The session's name is its lock's; its holder is not known yet.
		args = w.sessionArgs(strings.TrimSuffix(lock.Name(w.LockKey(), 0), ".lock"), "PID-START", w.withPluginDirs(args), io)
	default:
		lines = append(lines, fmt.Sprintf("note: 'claude %s' is a command, not a session: it runs beside a session in this workspace, without the instance lock", inv.Command))
	}
	return append(lines, "exec "+envWords(w.env, w.ClaudeEnv())+" "+shell.Join(append([]string{w.Claude.Path}, args...))), nil
}
