package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/worktree"
)

// HookCmd answers Claude Code's own hooks: the worktree hooks, so that
// claude --worktree and agents with isolation: "worktree" get our worktrees,
// and the state hook that 'ps' reads.
type HookCmd struct {
	WorktreeCreate HookCreateCmd `cmd:"" name:"worktree-create" help:"WorktreeCreate hook: make the worktree Claude asks for, print its path."`
	WorktreeRemove HookRemoveCmd `cmd:"" name:"worktree-remove" help:"WorktreeRemove hook: remove it, saving any uncommitted work first."`
	State          HookStateCmd  `cmd:"" name:"state" help:"Session hooks: record whether Claude is working or waiting, for 'ps'."`
}

// Help is shown under the command's usage.
func (HookCmd) Help() string {
	return `Claude Code runs these with the hook's JSON on stdin. The launcher passes them to each
session it starts, with claude --settings, pointing at the launcher that started it: the
state hook always, the worktree hooks when [worktree] use_hooks = true in account.toml
(useWorktreeHooks in home-manager). Nothing is written into the account's settings.json.

Example, by hand:
  echo '{"name": "agent-a1b2c3d4", "cwd": "'$PWD'"}' | claude-account hook worktree-create`
}

// hookInput is the part of Claude Code's hook JSON we read. Claude sends
// "name" though its docs say "worktree_name"; both are accepted.
type hookInput struct {
	Name         string `json:"name"`
	WorktreeName string `json:"worktree_name"`
	Cwd          string `json:"cwd"`
	BaseCommit   string `json:"base_commit"`
	BaseRef      string `json:"base_ref"`
	WorktreePath string `json:"worktree_path"`
}

// readHook decodes one JSON object from stdin and returns at once: Claude
// may keep the pipe open, so waiting for EOF could hang.
func readHook(d *Deps) (*hookInput, error) {
	var in hookInput
	if err := json.NewDecoder(d.Stdin).Decode(&in); err != nil {
		return nil, fmt.Errorf("hook: reading the hook's JSON from stdin: %v; Claude Code sends it when it runs the hook", err)
	}
	if in.Cwd != "" {
		if !filepath.IsAbs(in.Cwd) {
			return nil, fmt.Errorf("hook: cwd %q in the hook's JSON is not absolute; Claude Code sends an absolute path, so check what runs this hook", in.Cwd)
		}
		d.Dir = in.Cwd
	}
	return &in, nil
}

// HookCreateCmd is `claude-account hook worktree-create`.
type HookCreateCmd struct {
	AccountFlags
	Session string `hidden:"" help:"The session that runs the hook (its state records the worktree)."`
	Token   string `hidden:"" help:"The session's token."`
}

// Run makes the worktree; stdout carries only its path, as Claude expects.
func (c *HookCreateCmd) Run(d *Deps) error {
	in, err := readHook(d)
	if err != nil {
		return err
	}
	name := in.Name
	if name == "" {
		name = in.WorktreeName
	}
	if name == "" {
		return errors.New("hook: the hook's JSON has no name; nothing to create")
	}
	base := in.BaseCommit
	if base == "" {
		base = in.BaseRef
	}
	res, _, err := newWorktree(d, c.AccountFlags, name, base, false)
	if err != nil {
		return err
	}
	for _, n := range res.Notes {
		d.notef("%s", n)
	}
	if c.Session != "" {
		// ps shows the worktree under the session that made it.
		_ = session.AddWorktree(lock.Dir(d.Env), c.Session, c.Token, res.Path, d.Now())
	}
	d.stdout().Line(res.Path)
	return nil
}

// HookRemoveCmd is `claude-account hook worktree-remove`.
type HookRemoveCmd struct {
	AccountFlags
}

// Run removes the worktree. Claude asked the user already; removal here is
// forced but loses nothing: uncommitted work is saved under
// refs/claude-account/wip/<name> and an unmerged branch is kept.
func (c *HookRemoveCmd) Run(d *Deps) error {
	in, err := readHook(d)
	if err != nil {
		return err
	}
	if in.WorktreePath == "" {
		return errors.New("hook: the hook's JSON has no worktree_path; nothing to remove")
	}
	r, a, _, err := repoFor(d, c.AccountFlags)
	if err != nil {
		return err
	}
	e, err := r.Resolve(in.WorktreePath)
	if err != nil {
		return err
	}
	// The Claude that runs this hook is left out of claudesIn (it asked);
	// any other Claude working there stops the removal, and so do the
	// conversations of an account whose dir is not found (nobody was asked
	// about them: forced, they would go unarchived).
	rm, err := r.Remove(e, worktree.RemoveOptions{Force: true, SpareUnfound: true, Running: runningIn(d), Claudes: claudesIn(), AccountDir: accountDirs(d, a), Now: d.Now()})
	if err != nil {
		return err
	}
	for _, n := range rm.Notes {
		d.notef("%s", n)
	}
	return nil
}

// Help is shown under the command's usage.
func (c *HookCreateCmd) Help() string {
	return `Reads Claude Code's WorktreeCreate hook JSON ({"name": …, "cwd": …}) on stdin, makes the
worktree, and prints only its path on stdout.

Example:
  echo '{"name": "agent-a1b2c3d4", "cwd": "'$PWD'"}' | claude-account hook worktree-create`
}

// Help is shown under the command's usage.
func (c *HookRemoveCmd) Help() string {
	return `Reads Claude Code's WorktreeRemove hook JSON ({"worktree_path": …}) on stdin and removes
that worktree, saving uncommitted work under refs/claude-account/wip/<name> first.

Example:
  echo '{"worktree_path": "'$PWD'/.claude/worktrees/agent-a1b2c3d4"}' | claude-account hook worktree-remove`
}

// HookStateCmd is `claude-account hook state`: every session the launcher
// starts runs it on the hook events of session.Events. dispatch runs it
// before kong parses anything (hookState): it runs on every prompt and stop.
type HookStateCmd struct {
	ID     string `required:"" help:"The session: its instance lock's name."`
	Token  string `required:"" help:"The lock holder's PID and start, so a state outlives nothing."`
	Notify bool   `help:"Show a desktop notification when the session starts to wait (account.toml notify = true; the launcher passes it only to a session a person attends)."`
}

// Help is shown under the command's usage.
func (c *HookStateCmd) Help() string {
	return `Reads one hook event of Claude Code ({"hook_event_name": …, "cwd": …}) on stdin and records
the session as working (a prompt, a tool that ran) or waiting (an answer's end, a permission
dialog, an idle notification) in $XDG_RUNTIME_DIR/claude-account/sessions/ID.json, where
'claude-account ps' reads it. It never blocks Claude: whatever goes wrong, it exits 0 or 1,
never 2, which would stop Claude's prompt or answer.

With --notify, a move into waiting also shows a desktop notification naming the account, the
worktree and why (notify-send, or osascript on macOS; nothing where neither is), at most one
per session in 10 seconds. At a usage limit (StopFailure "rate_limit", Claude Code 2.1.78+)
it names the limit, when it resets, and the allowed account with the most headroom with
'claude-account resume --next', or says that none has any and when the first resets. The
launcher passes --notify (account.toml notify = true) only to a session a person attends:
stdin and stdout are terminals and no -p. A session sent to the background keeps it, and
then notifies only when blocked (a limit, a permission dialog, a question), not at each
answer's end. The notifier is started and left: the hook never waits for it.`
}

// Run records the event.
func (c *HookStateCmd) Run(d *Deps) error {
	args := []string{"--id", c.ID, "--token", c.Token}
	if c.Notify {
		args = append(args, "--notify")
	}
	return hookState(d, args)
}

// hookState is 'hook state --id ID --token TOKEN [--notify]', read without
// kong: it is the cost of every event of every session. Its errors are
// plain errors (exit 1): exit 2 would block the prompt (UserPromptSubmit) or
// keep Claude from stopping (Stop).
func hookState(d *Deps, args []string) error {
	var id, token string
	notify := len(args) == 5 && args[4] == "--notify"
	for i := 0; i+1 < len(args); i += 2 {
		switch args[i] {
		case "--id":
			id = args[i+1]
		case "--token":
			token = args[i+1]
		}
	}
	if id == "" || token == "" || len(args) != 4 && !notify {
		return errors.New("hook state: usage: hook state --id ID --token TOKEN [--notify] (the launcher passes them)")
	}
	// One JSON value, not up to EOF: Claude may keep the pipe open.
	var in json.RawMessage
	if err := json.NewDecoder(d.Stdin).Decode(&in); err != nil {
		return fmt.Errorf("hook state: reading the hook's JSON from stdin: %v; Claude Code sends it when it runs the hook", err)
	}
	if session.InBackground(d.Env.Get) {
		// A background session's hooks (one sent there with ← keeps the
		// launcher's) outlive the launcher whose token they carry: its
		// state is the fleet's (claude agents, ps reads it), not a session
		// of the launcher's, so nothing is recorded; it still notifies
		// when it is blocked (a limit, a dialog, a question), for nobody
		// watches it, but not at each answer's end.
		if s, ok := session.BackgroundWait(in); ok && notify {
			notifyWaiting(d, id, s)
		}
		return nil
	}
	var wait func(*session.State)
	if notify {
		wait = func(s *session.State) { notifyWaiting(d, id, s) }
	}
	return session.Record(lock.Dir(d.Env), id, token, in, d.Now(), wait)
}
