package session

import (
	"github.com/claude-account/claude-account/internal/fleet"
	"github.com/claude-account/claude-account/internal/gitctx"
)

// Kinds of a session.
const (
	Foreground = "foreground" // the launcher started it: it holds an instance lock
	Background = "background" // Claude's supervisor hosts it (fleet.Agent)
)

// DescribeAgent is a background session of account as ps shows it: where it
// works is the worktree of its cwd (the supervisor records the cwd of the
// --bg that started it; a session Claude moved into a worktree it made,
// .claude/worktrees/NAME, works there), read from git's files as for a
// foreground session. getenv is the environment git reads.
func DescribeAgent(account string, a fleet.Agent, getenv func(string) string) Info {
	in := Info{Kind: Background, Account: account, ID: a.ID, State: a.State, Reason: agentReason(a.State), Detail: a.Detail,
		Since: a.Since, PID: a.PID, SessionID: a.SessionID, ConfigDir: a.ConfigDir,
		Path: a.Cwd, Worktrees: []Worktree{}}
	if a.Cwd == "" {
		return in
	}
	if ctx, err := gitctx.Detect(a.Cwd, getenv); err == nil && ctx.Toplevel != "" {
		in.Path = ctx.Toplevel
		in.Slug, in.Branch = where(ctx)
	}
	return in
}

// agentReason is why a background session is in Claude's state of it: one
// that needs input waits on a question or a dialog (Claude's line, Detail,
// says which), ranked as a question.
func agentReason(state string) string {
	switch state {
	case fleet.NeedsInput:
		return Question
	case fleet.Done:
		return Ended
	case fleet.Failed:
		return Failed
	case fleet.Starting:
		return Started
	}
	return Busy
}
