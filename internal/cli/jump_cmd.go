package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/shell"
)

// JumpCmd is `claude-account jump`.
type JumpCmd struct {
	ID      string `arg:"" optional:"" placeholder:"ID" help:"The session: Claude's PID, its WORKTREE or ACCOUNT/WORKTREE as 'ps' shows them, or Claude's session id. Default: the one that needs you most, as --waiting."`
	Waiting bool   `help:"The waiting session that needs you most, in the order of 'ps' (at a limit, a permission dialog, a question, a failed answer, an answer's end, just started), the longest waiting first; as without ID."`
}

// Help is shown under the command's usage.
func (c *JumpCmd) Help() string {
	return `Switches this tmux client to the pane where a Claude session runs: the one named, or the
one that needs you most. The launcher records the pane (TMUX_PANE) of each
session it starts in tmux; 'ps' shows it in its PANE column. jump selects that pane and
its window, and switches the client to its tmux session; it prints nothing when it did.

ID is what 'ps' shows of a session: Claude's PID, its WORKTREE (main for a repository's
main worktree), ACCOUNT/WORKTREE where sessions of several accounts share a worktree name,
or Claude's session id (ps --json's sessionId). A name that fits several sessions is an
error that lists them.

A background session (ps shows its short id under PANE/ID; ID takes it) has no pane: jump
attaches it with Claude's own 'claude attach ID', run by the account's Claude in the config
dir whose supervisor hosts it: inside tmux in a new window, else in this terminal; where
there is no terminal it prints that command. --waiting counts one that needs input.

Where it cannot jump, it prints the session's account, worktree, Claude's PID and path,
says why, and exits 1: jump runs outside tmux (TMUX is not set), the session was not
started in tmux, or it runs in another tmux server than this one.

Examples:
  claude-account jump                 # the waiting session that needs you most
  claude-account jump fix-login       # the session of that worktree
  claude-account jump work/main       # work's session in a main worktree
  claude-account jump 41822           # Claude with that PID
  bind-key W run-shell 'claude-account jump --waiting'   # in ~/.tmux.conf`
}

// Run switches the client.
func (c *JumpCmd) Run(d *Deps) error {
	if c.Waiting && c.ID != "" {
		return UsageError{errors.New("give either ID or --waiting, not both")}
	}
	infos, err := sessions(d, "")
	if err != nil {
		return err
	}
	var in session.Info
	if c.ID == "" {
		// The first of ps's rows that waits: the one that needs its user
		// most (a limit, a dialog before an answer's end), longest first.
		i := slices.IndexFunc(infos, waits)
		if i < 0 {
			return errors.New("no Claude session waits for you; 'claude-account ps' lists those that run")
		}
		in = infos[i]
	} else if in, err = pickSession(infos, c.ID); err != nil {
		return err
	}
	if in.Kind == session.Background {
		return attach(d, in)
	}
	why := cannotJump(in, d.Env.Get("TMUX"))
	if why == "" {
		tmux, err := exec.LookPath("tmux")
		if err != nil {
			why = "tmux is not on PATH"
		} else {
			// One tmux command: the pane's window, the pane, then the client
			// to its session. switch-client without -c moves the client this
			// runs in.
			cmd := exec.Command(tmux, "-S", in.TmuxSocket, "select-window", "-t", in.Pane, ";",
				"select-pane", "-t", in.Pane, ";", "switch-client", "-t", in.Pane)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err == nil {
				return nil
			}
			why = fmt.Sprintf("tmux could not switch to pane %s: %s", in.Pane, strings.TrimSpace(stderr.String()))
		}
	}
	d.stdout().Line(describeSession(d, in))
	return errors.New("cannot jump to it: " + why)
}

// cannotJump says why this client (of the tmux whose TMUX is ours) cannot
// jump to session in, or "".
func cannotJump(in session.Info, ours string) string {
	mine := lock.TmuxSocket(ours)
	switch {
	case in.Pane == "":
		return "it was not started in tmux, so it has no pane to jump to"
	case ours == "":
		return "this terminal is not in tmux (TMUX is not set); it runs in pane " + in.Pane + " of the tmux server at " + in.TmuxSocket + ": attach to that one and jump there"
	case mine != in.TmuxSocket:
		return "it runs in pane " + in.Pane + " of the tmux server at " + in.TmuxSocket + ", and this terminal is in the one at " + mine
	}
	return ""
}

// describeSession is one line naming a session for a person: account,
// worktree, state, Claude's PID and its path.
func describeSession(d *Deps, in session.Info) string {
	return fmt.Sprintf("%s · %s, %s %s: PID %d in %s", in.Account, orDash(worktreeName(in)), in.ReasonText,
		since(d.Now(), in.Since), in.PID, orDash(d.Env.TildePath(in.Path)))
}

// pickSession is the one session of infos that id names (see JumpCmd.ID).
func pickSession(infos []session.Info, id string) (session.Info, error) {
	var found []session.Info
	for _, in := range infos {
		if matchSession(in, id) {
			found = append(found, in)
		}
	}
	switch len(found) {
	case 0:
		return session.Info{}, fmt.Errorf("no running Claude session is %q; 'claude-account ps' lists them (jump takes Claude's PID, the WORKTREE or ACCOUNT/WORKTREE, or a background session's id)", id)
	case 1:
		return found[0], nil
	}
	names := make([]string, len(found))
	for i, in := range found {
		names[i] = fmt.Sprintf("%s/%s (PID %d)", in.Account, orDash(worktreeName(in)), in.PID)
	}
	return session.Info{}, fmt.Errorf("%d sessions are %q: %s; name one by its PID or ACCOUNT/WORKTREE", len(found), id, strings.Join(names, ", "))
}

func matchSession(in session.Info, id string) bool {
	if in.ID != "" && id == in.ID {
		return true // a background session's short id: 8 hex digits, maybe all decimal
	}
	if n, err := strconv.Atoi(id); err == nil {
		return n > 0 && (n == in.PID || n == in.LauncherPID)
	}
	name := worktreeName(in)
	if acct, wt, ok := strings.Cut(id, "/"); ok && acct == in.Account && (wt == name || wt == in.Slug) {
		return true
	}
	return id == name || in.Slug != "" && id == in.Slug || in.SessionID != "" && id == in.SessionID
}

// attach opens background session in, which has no pane, with Claude's own
// claude attach ID in the config dir that hosts it: inside tmux in a new
// window of this client's session, else in this terminal; where there is no
// terminal (a script, a key binding's run-shell outside tmux) it prints the
// command that does.
func attach(d *Deps, in session.Info) error {
	cmd, err := fleetCommand(d, in, "attach", in.ID)
	if err != nil {
		return err
	}
	line := shellCommand(d, cmd, in.ConfigDir)
	if ours := d.Env.Get("TMUX"); ours != "" {
		tmux, err := exec.LookPath("tmux")
		if err != nil {
			return fmt.Errorf("tmux is not on PATH, so jump cannot open a window for %s; run '%s'", in.ID, line)
		}
		// The window's shell gets the tmux server's environment, not ours:
		// the command line carries the config dir.
		win := exec.Command(tmux, "-S", lock.TmuxSocket(ours), "new-window", "-n", in.ID, "-c", cmd.Dir,
			"exec env CLAUDE_CONFIG_DIR="+shell.Quote(in.ConfigDir)+" "+shell.Join(cmd.Args))
		var stderr bytes.Buffer
		win.Stderr = &stderr
		if err := win.Run(); err != nil {
			return fmt.Errorf("tmux could not open a window for %s: %s; run '%s'", in.ID, strings.TrimSpace(stderr.String()), line)
		}
		return nil
	}
	stdout, ok := d.Stdout.(*os.File)
	if !terminal(d.Stdin) || !ok || !terminal(stdout) {
		d.stdout().Line(line)
		return nil
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = d.Stdin, stdout, d.Stderr
	return cmd.Run()
}

// terminal reports whether f is a terminal: it has a line discipline
// (/dev/null is a character device too, and no terminal).
func terminal(f *os.File) bool {
	if f == nil {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), ioctlReadTermios)
	return err == nil
}
