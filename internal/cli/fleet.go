package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/fleet"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/runtimes"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/shell"
)

// backgroundSessions are the background sessions of account acct (of every
// account when ""), read from Claude's own files in each config dir that
// may host a supervisor: the account dir (the account's one supervisor) and
// the per-worktree runtimes the account's record vouches for (a supervisor
// a foreground session started with ←, or an older launcher's). A runtime
// dir the record does not name is a repository's, whatever it holds: its
// records are never read. Reading only: listing never starts a supervisor
// (claude agents would).
func backgroundSessions(d *Deps, acct string) []session.Info {
	owner := map[string]string{}
	var dirs []string
	for _, h := range fleetHosts(d, nil, acct) {
		owner[h.dir] = h.account
		dirs = append(dirs, h.dir)
	}
	var out []session.Info
	for _, f := range fleet.ReadAll(dirs) {
		for _, a := range f.Agents {
			out = append(out, session.DescribeAgent(owner[f.ConfigDir], a, d.Env.Get))
		}
	}
	return out
}

// fleetHost is a config dir whose fleet ps, close, jump, rm and gc read,
// and the account it belongs to: the account dir itself (where every fleet invocation of the
// launcher runs Claude), or a runtime the account's record vouches for (a
// session sent to the background with ←, or an older launcher, started a
// supervisor there).
type fleetHost struct {
	account string
	dir     string
	runtime bool
}

// fleetHosts is every config dir that may host a fleet of the account only,
// or of every account found (and of a, named or bound) when only is "".
// Runtimes count only when the account's record says the launcher made
// them: a runtime dir a repository brings names no supervisor of the user's.
func fleetHosts(d *Deps, a *account.Account, only string) []fleetHost {
	names := []string{only}
	if only == "" {
		names = binding.KnownAccounts(d.Env)
		if a != nil {
			names = append(names, a.Name)
		}
	}
	sort.Strings(names)
	dirOf := launch.AccountDirs(d.Env, a)
	var hosts []fleetHost
	seen := map[string]bool{}
	for _, name := range names {
		dir := dirOf(name)
		if dir == "" || seen[dir] {
			continue
		}
		seen[dir] = true
		for i, c := range fleetDirs(dir) {
			if i == 0 || !seen[c] {
				seen[c] = true
				hosts = append(hosts, fleetHost{account: name, dir: c, runtime: i > 0})
			}
		}
	}
	return hosts
}

// fleetDirs are the config dirs whose fleets are the account's: its dir,
// then each runtime its record vouches for (runtimes.Check: the dir the
// launcher made at that path, by inode).
func fleetDirs(accountDir string) []string {
	dirs := []string{accountDir}
	rts, _ := runtimes.List(accountDir)
	for _, rt := range rts {
		if rt.Made {
			dirs = append(dirs, rt.Dir)
		}
	}
	return dirs
}

// accountClaude is the Claude Code binary of account name (account.toml,
// $CLAUDE_ACCOUNT_CLAUDE, PATH), the one its supervisor's commands run with.
func accountClaude(d *Deps, name string) (string, error) {
	dir, err := binding.AccountDir(d.Env, name)
	if err != nil {
		return "", err
	}
	a, err := account.Load(name, dir)
	if err != nil {
		return "", err
	}
	return launch.FindClaude(launch.Candidates(a, d.Env), d.Env)
}

// fleetCommand is Claude's own command on background session in (attach,
// stop, logs: Claude's argv after the binary), run by the account's Claude
// in the config dir whose supervisor hosts it: Claude finds a supervisor
// by its config dir, so any other dir would answer "No session matching"
// or start a supervisor of its own.
func fleetCommand(d *Deps, in session.Info, args ...string) (*exec.Cmd, error) {
	claude, err := accountClaude(d, in.Account)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(claude, args...)
	cmd.Env = d.Env.With("CLAUDE_CONFIG_DIR", in.ConfigDir).List()
	cmd.Dir = d.Dir
	if fi, err := os.Stat(in.Path); err == nil && fi.IsDir() {
		cmd.Dir = in.Path
	}
	return cmd, nil
}

// shellCommand is cmd as a line for sh: cd to its dir, its config dir set.
func shellCommand(d *Deps, cmd *exec.Cmd, configDir string) string {
	return "cd " + shell.Quote(cmd.Dir) + " && CLAUDE_CONFIG_DIR=" + shell.Quote(configDir) + " " + shell.Join(cmd.Args)
}

// stopBackground stops background session in with Claude's own claude stop
// ID (never a signal to a PID read from a file) and waits up to timeout for
// its supervisor to no longer list it.
func stopBackground(d *Deps, in session.Info, timeout time.Duration) error {
	cmd, err := fleetCommand(d, in, "stop", in.ID)
	if err != nil {
		return err
	}
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("claude stop %s failed (%v): %s; run '%s' to see why", in.ID, err,
			strings.TrimSpace(output.String()), shellCommand(d, cmd, in.ConfigDir))
	}
	deadline := time.Now().Add(timeout)
	for {
		if !slices.ContainsFunc(fleet.Read(in.ConfigDir, nil).Agents, func(a fleet.Agent) bool { return a.ID == in.ID }) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("claude (%s) background session %s still runs %s after 'claude stop %s'; '%s' ends it",
				in.Account, in.ID, timeout, in.ID, strings.Replace(shellCommand(d, cmd, in.ConfigDir), " stop ", " kill ", 1))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
