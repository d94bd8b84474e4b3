package cli

import (
	"bytes"
	"errors"
	"io"
	"os/exec"

	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/out"
	"github.com/claude-account/claude-account/internal/statusline"
	"github.com/claude-account/claude-account/internal/usage"
)

// StatuslineCmd is `claude-account statusline`: Claude Code's statusLine
// command. Claude runs it often (at most every 300 ms while a conversation
// changes), so it does no network and runs one git status (and a rev-list
// on a branch without upstream; gitcmd adds one `git config --list` where
// the repository's configuration names a command).
type StatuslineCmd struct {
	NoGit      bool   `name:"no-git" help:"Skip the one git process (no dirty/ahead state)."`
	Waiting    bool   `help:"Add how many of the account's other sessions wait for you (see 'ps')."`
	Usage      string `placeholder:"ACCOUNT-DIR" help:"Record the rate limits Claude reports as the usage of the account kept in this dir, and show them (the launcher passes it)."`
	RecordOnly bool   `name:"record-only" help:"With --usage: print only what the account's own status line (its settings.json statusLine) prints, or nothing."`
}

// Help is shown under the command's usage.
func (c *StatuslineCmd) Help() string {
	return `Reads Claude's status JSON on stdin and prints one line:
  ACCOUNT · WORKTREE-OR-BRANCH · STATE · MODEL
where STATE is * for uncommitted changes and ↑N ↓N against the upstream (a
branch without one: ↑N against the base the worktree was made from). With
--waiting, "N waiting" follows when N of the account's other sessions wait for you.

While a window of the account is past 90%, a second row follows (also after the
account's own status line, which runs in place of this one): near the limit, the
figures with their reset times and the allowed account with the most headroom; at
the limit, when it resets and 'claude-account resume --next', which carries the
conversation on with that account; or that no account has headroom, and which
resets first. Claude Code shows every row a status line prints (2.0.77 to 2.1.332).

It is on for every account 'claude-account init' makes, and off otherwise. Three ways
to turn it on (or off); a statusLine of your own in settings.json always wins:
  - account.toml (accounts made by init): statusline = true, or false to turn it off;
  - home-manager: programs.claude-code.accounts.NAME.statusLine = true (default false);
  - settings.json, as any status-line command, here with --waiting:
      "statusLine": {"type": "command", "command": "claude-account statusline --waiting"}

Example, by hand:
  echo '{"model":{"display_name":"Opus"},"workspace":{"current_dir":"'$PWD'"}}' | claude-account statusline`
}

// Run prints the status line. It never fails for want of input: Claude shows
// whatever the first line of stdout is, so a partial line beats none.
func (c *StatuslineCmd) Run(d *Deps) error {
	var data []byte
	if d.Stdin != nil {
		data, _ = io.ReadAll(io.LimitReader(d.Stdin, 1<<20))
	}
	in := statusline.ParseInput(data)
	var used usage.Usage
	if c.Usage != "" {
		used = usage.Observe(c.Usage, data, d.Now())
		if c.RecordOnly {
			// The account's own line exactly as it prints it, then the
			// warning row, on a line of its own.
			own := out.Pass(d.Stdout)
			err := runOwnStatusLine(d, c.Usage, data, own)
			if row := warningRow(d, in, AccountFlags{}.named(d), used); row != "" {
				if own.Open() {
					d.stdout().Line("") // ends the account's last line
				}
				d.stdout().Line(row)
			}
			return err
		}
	}
	line := statusLine(d, in, !c.NoGit)
	if c.Usage == "" && line.Account != "" {
		// Named in settings.json (home-manager's statusLine option): the
		// account's figures, which the launcher's own line records.
		if dir, err := binding.AccountDir(d.Env, line.Account); err == nil {
			used, _ = usage.Read(dir, d.Now())
		}
	}
	line.Usage, line.Now = used, d.Now()
	if c.Waiting {
		// Asked with no account known too: it counts none then, but a lock
		// dir it refuses is still named (lock.readable).
		line.Waiting = waitingCount(d, line.Account, in.SessionID)
	}
	d.stdout().Line(line.String())
	if row := warningRow(d, in, line.Account, used); row != "" {
		d.stdout().Line(row)
	}
	return nil
}

// warningRow is the row the line adds while a window of the account is past
// usage.Warn (statusline.Warning), with the headroom of the accounts allowed
// where the session runs; "" below it: the accounts are weighed only then.
func warningRow(d *Deps, in statusline.Input, account string, used usage.Usage) string {
	w := statusline.Warning{Account: account, Usage: used, Now: d.Now()}
	if launch.IsSessionID(in.SessionID) {
		w.Conversation = in.SessionID
	}
	if used.Busiest(w.Now) < usage.Warn {
		return ""
	}
	at := *d
	at.Dir = in.Dir(d.Dir)
	if r, err := findRoom(&at, account); err == nil {
		if r.has {
			w.Room, w.RoomUsage = r.best.name, r.best.used
		} else {
			w.First, w.FirstAt = r.first, r.firstAt
		}
	}
	return w.String()
}

// statusLine is the line for Claude's input in, but usage and waiting
// sessions: the account (as a launch names it, else the binding of the dir),
// and what it shows of the repository.
func statusLine(d *Deps, in statusline.Input, useGit bool) statusline.Line {
	dir := in.Dir(d.Dir)
	acct := AccountFlags{}.named(d)
	if acct == "" {
		if b, ok, err := lookupBinding(d.Env, dir); err == nil && ok {
			acct = b.Account
		}
	}
	where, st := statusline.Repo(dir, d.Env, useGit)
	return statusline.Line{Account: acct, Where: where, Git: st, Model: in.ModelName()}
}

// runOwnStatusLine runs the status line command the account's settings name
// (statusline.OwnCommand) with sh -c, as Claude would have without the
// launcher's line, with the same input; its output is Claude's to show,
// passed on as it is. None: nothing is printed. Inside one (a status line
// that is itself this one), none runs again.
func runOwnStatusLine(d *Deps, accountDir string, input []byte, stdout io.Writer) error {
	if d.Env.Get(statusline.OwnEnv) != "" {
		return nil
	}
	command := statusline.OwnCommand(accountDir)
	if command == "" {
		return nil
	}
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Dir, cmd.Env = d.Dir, d.Env.With(statusline.OwnEnv, "1").List()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(input), stdout, d.Stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return ExitCodeError(exit.ExitCode())
		}
		return err
	}
	return nil
}
