// Package statusline is the line `claude-account statusline` prints for
// Claude Code: what Claude's status JSON says (Input), what the line shows of
// the repository (Repo: the worktree and branch, and worktree.StatusOf),
// and how the parts read (Line). The command finds the account and its usage
// and passes them here as values; the account's own status line command,
// which runs instead with --record-only, is named by OwnCommand.
package statusline

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitcmd"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/usage"
	"github.com/claude-account/claude-account/internal/worktree"
)

// Input is the part of Claude's status JSON the line shows.
type Input struct {
	SessionID string `json:"session_id"`
	Cwd       string `json:"cwd"`
	Model     struct {
		ID          string `json:"id"`
		DisplayName string `json:"display_name"`
	} `json:"model"`
	Workspace struct {
		CurrentDir string `json:"current_dir"`
	} `json:"workspace"`
}

// ParseInput reads Claude's status JSON; what does not parse is left empty
// (a partial line beats none).
func ParseInput(data []byte) Input {
	var in Input
	_ = json.Unmarshal(data, &in)
	return in
}

// Dir is the directory the line is about: the workspace's current dir, else
// the session's cwd, else dir (the command's own).
func (in Input) Dir(dir string) string {
	if in.Workspace.CurrentDir != "" {
		return in.Workspace.CurrentDir
	}
	if in.Cwd != "" {
		return in.Cwd
	}
	return dir
}

// ModelName is the model's display name, else its id.
func (in Input) ModelName() string {
	if in.Model.DisplayName != "" {
		return in.Model.DisplayName
	}
	return in.Model.ID
}

// Line is what the status line shows:
//
//	ACCOUNT · WORKTREE-OR-BRANCH · STATE · MODEL · USAGE · N waiting
//
// each part left out when empty, but the account ("?" when unknown).
type Line struct {
	Account string        // "" when unknown
	Where   string        // the worktree and branch (Repo); "" outside git
	Git     gitcmd.Status // the worktree's state (Repo); zero shows nothing
	Model   string
	Usage   usage.Usage // the account's rate limits, as of Now
	Now     time.Time
	Waiting int // the account's other sessions waiting for their user
}

// String is the line, before it is made inert (out.Printer.Line does).
func (l Line) String() string {
	acct := l.Account
	if acct == "" {
		acct = "?"
	}
	parts := []string{acct}
	for _, p := range []string{l.Where, State(l.Git), l.Model} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if s := l.Usage.Short(l.Now); s != "" {
		if l.Usage.Busiest(l.Now) >= usage.Warn {
			s = "⚠ " + s
		}
		parts = append(parts, s)
	}
	if l.Waiting > 0 {
		parts = append(parts, strconv.Itoa(l.Waiting)+" waiting")
	}
	return strings.Join(parts, " · ")
}

// State is what the line shows of git status: "*" when anything is changed
// or untracked, "↑N ↓N" against the upstream (or the base, see
// worktree.StatusOf).
func State(st gitcmd.Status) string {
	var s []string
	if st.Changed > 0 {
		s = append(s, "*")
	}
	if st.Ahead > 0 {
		s = append(s, "↑"+strconv.Itoa(st.Ahead))
	}
	if st.Behind > 0 {
		s = append(s, "↓"+strconv.Itoa(st.Behind))
	}
	return strings.Join(s, " ")
}

// Repo is what the line shows of the repository dir is in: where in it
// (Where), and with useGit its state (worktree.StatusOf: git's only
// processes here). Nothing outside a repository, or when git fails.
func Repo(dir string, e env.Env, useGit bool) (where string, st gitcmd.Status) {
	ctx, err := gitctx.Detect(dir, e.Get)
	if err != nil || ctx.GitDir == "" {
		return "", gitcmd.Status{}
	}
	if useGit && ctx.Toplevel != "" {
		st, _ = worktree.StatusOf(ctx, e.List())
	}
	return Where(ctx), st
}

// Where names the worktree of ctx: a linked worktree's name, with its
// branch in parentheses unless that is the name or worktree-<name>; else the
// branch; a detached HEAD as @<commit>. It reads HEAD itself.
func Where(ctx gitctx.Context) string {
	where := ctx.Worktree
	head, detached, err := gitctx.Head(ctx.GitDir)
	if err != nil {
		return where
	}
	if detached {
		head = "@" + head
	}
	if where == "" {
		return head
	}
	if head != "" && head != where && head != "worktree-"+where {
		where += " (" + head + ")"
	}
	return where
}

// OwnEnv is set for the account's own status line command: a status line
// that is itself this one (named by hand in settings.json) is not run again
// when it is set.
const OwnEnv = "CLAUDE_ACCOUNT_OWN_STATUSLINE"

// OwnCommand is the status line command the account's settings name, as
// Claude would have run it without the launcher's line; "" for none. The
// settings are the account dir's, named on the command line the launcher
// wrote: every runtime's settings.json is a link to that file, so it is the
// one Claude reads and /statusline writes. Never $CLAUDE_CONFIG_DIR's: a
// project's settings env reaches the status line and may point it at a
// settings.json of the repository, whose command would run.
func OwnCommand(accountDir string) string {
	settings, _ := fsx.ReadFile(filepath.Join(accountDir, "settings.json"))
	line := gjson.GetBytes(settings, "statusLine")
	command := line.Get("command").String()
	if line.Get("type").String() != "command" || strings.TrimSpace(command) == "" {
		return ""
	}
	return command
}
