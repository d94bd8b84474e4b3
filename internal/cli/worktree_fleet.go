package cli

import (
	"fmt"
	"os"
	"sync"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudeproc"
	"github.com/claude-account/claude-account/internal/fleet"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/shell"
	"github.com/claude-account/claude-account/internal/worktree"
)

// fleetKeeping gives, for rm and gc, what of Claude's fleet keeps a
// worktree: every background session of every account that works in it or
// below (Claude's own .claude/worktrees/ inside it included), and every
// supervisor running in a runtime inside its git dir (it writes there, and
// its sessions with it, wherever they work). The fleets are read once, on
// first use.
func fleetKeeping(d *Deps, a *account.Account) func(path, gitDir string) []worktree.Hosted {
	var once sync.Once
	type read struct {
		host  fleetHost
		fleet fleet.Fleet
	}
	var fleets []read
	return func(path, gitDir string) []worktree.Hosted {
		once.Do(func() {
			procs := claudeproc.Current()
			for _, h := range fleetHosts(d, a, "") {
				if f := fleet.Read(h.dir, procs); f.Live() {
					fleets = append(fleets, read{h, f})
				}
			}
		})
		var out []worktree.Hosted
		for _, r := range fleets {
			h, f := r.host, r.fleet
			inRuntime := h.runtime && gitDir != "" && fsx.Within(h.dir, gitDir)
			if inRuntime {
				// Stopping the supervisor ends the sessions it hosts.
				stop := "CLAUDE_CONFIG_DIR=" + shell.Quote(h.dir) + " claude daemon stop --any"
				what := fmt.Sprintf("supervisor (%s, PID %d) in the runtime %s", h.account, f.Supervisor, d.Env.TildePath(h.dir))
				if f.Supervisor == 0 {
					what = fmt.Sprintf("sessions of the supervisor (%s) of the runtime %s", h.account, d.Env.TildePath(h.dir))
				}
				out = append(out, worktree.Hosted{What: what, Stop: stop})
				for _, ag := range f.Agents {
					out = append(out, worktree.Hosted{What: fmt.Sprintf("background session %s (%s)", ag.ID, h.account), Stop: stop})
				}
				continue
			}
			for _, ag := range f.In(path) {
				out = append(out, worktree.Hosted{What: fmt.Sprintf("background session %s (%s)", ag.ID, h.account), Stop: stopCommand(h, ag.ID)})
			}
		}
		return out
	}
}

// stopCommand is the command that stops background session id hosted in h:
// close finds it by its id in the account dir and in every runtime the
// account vouches for, and stops it with Claude's own stop there, so it
// works with or without the Nix module's claude<name> command.
func stopCommand(h fleetHost, id string) string {
	return "claude-account close " + id
}

// aliveFn reports whether a PID is a process now, from one look at the
// process table, taken on first use.
func aliveFn() func(int) bool {
	var once sync.Once
	var snap *claudeproc.Snapshot
	return func(pid int) bool {
		once.Do(func() { snap = claudeproc.Current() })
		return pid == os.Getpid() || snap.Exists(pid)
	}
}
