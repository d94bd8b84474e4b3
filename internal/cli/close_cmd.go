package cli

import (
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/claude-account/claude-account/internal/lock"
)

// CloseCmd is `claude-account close`.
type CloseCmd struct {
	AccountFlags
	All     bool          `help:"Stop the account's Claude in every workspace, not just this one."`
	Timeout time.Duration `default:"10s" help:"How long to wait for each to exit."`
}

// Help is shown under the command's usage.
func (c *CloseCmd) Help() string {
	return `Sends SIGTERM to the launcher holding the lock (it passes the signal to Claude),
waits for the lock to be released, and reports.

Examples:
  claude-account close --account max          # the one running in this workspace
  claude-account close --account max --all    # every workspace`
}

// Run stops the holders.
func (c *CloseCmd) Run(d *Deps) error {
	ws, err := c.load(d)
	if err != nil {
		return err
	}
	match := func(k string) bool { return k == ws.lockKey() }
	if c.All {
		match = lock.AccountKeys(ws.account.Name)
	}
	all, err := lock.List(lock.Dir(d.Env), match)
	if err != nil {
		return err
	}
	// Keys of "max" also match an account "max-work": the holder says whose it is.
	var held []lock.Held
	for _, h := range all {
		if h.Account == ws.account.Name || h.Account == "" {
			held = append(held, h)
		}
	}
	if len(held) == 0 {
		where := "anywhere"
		switch {
		case c.All:
		case ws.inWorkTree():
			where = "in " + ws.where(d)
		default:
			where = "outside git"
		}
		fmt.Fprintf(d.Stdout, "not running: claude (%s) has no instance %s; nothing to stop\n", ws.account.Name, where)
		return nil
	}
	var failed []string
	for _, h := range held {
		where := "outside git"
		if h.Workspace != "" {
			where = "in " + d.Env.TildePath(h.Workspace)
		}
		if h.PID <= 0 {
			// kill(0) would signal our own process group.
			failed = append(failed, fmt.Sprintf("claude (%s) %s has just started and not yet written its PID to %s; run close again in a moment", h.Account, where, h.Path))
			continue
		}
		if err := syscall.Kill(h.PID, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
			failed = append(failed, fmt.Sprintf("PID %d: %v", h.PID, err))
			continue
		}
		deadline := time.Now().Add(c.Timeout)
		for lock.Probe(h.Path) != nil && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if lock.Probe(h.Path) != nil {
			failed = append(failed, fmt.Sprintf("claude (%s) %s, PID %d, still runs after %s; 'kill -KILL %d' ends it", h.Account, where, h.PID, c.Timeout, h.PID))
			continue
		}
		fmt.Fprintf(d.Stdout, "stopped claude (%s) %s (PID %d)\n", h.Account, where, h.PID)
	}
	if len(failed) > 0 {
		return errors.New(failed[0])
	}
	return nil
}
