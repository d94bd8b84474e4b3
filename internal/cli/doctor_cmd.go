package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/doctor"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/lock"
)

// DoctorCmd is `claude-account doctor`.
type DoctorCmd struct {
	AccountFlags
	Dir  string `arg:"" optional:"" placeholder:"DIR" help:"Check the config dir of the workspace DIR is in (what its findings' fixes name). Default: the current directory."`
	Fix  bool   `help:"Repair what can be repaired safely, and say what was done."`
	JSON bool   `help:"Print JSON: {account, dir, ok, loggedIn, claude: {path, target?, version, versionFrom, problem?, startProblem?, versionSays?}, findings: [{id, path, message, fixable, fixed?}], shared: [{name, via, variable?, path, fromUser?, needs?, note?, mechanism?}], fleet: {background, agents, noApiKeyLogin?, needs?, summary}, identity: {login, recorded: {email?, organizationName?, organizationUuid?, accountUuid?, displayName?} or null, declared: {email?, organization?} or null, verdict, billedBy?, fix?, problem?}}; README-CLAUDE-CODE.md (JSON) says what each field means. With no account named or bound: an array of them, one an account."`
}

// Help is shown under the command's usage.
func (c *DoctorCmd) Help() string {
	return `Checks the config dir Claude would get here: every link resolves (naming the
exact broken hop: runtime → account → store), no link was replaced by a file,
no file Claude writes is on a read-only file system, the runtime belongs to this
workspace, the lock dir is private, and a trusted project overlay is unchanged.
It runs Claude's --version once: Claude is not ready when it cannot start, when
its release cannot be read, or when --version contradicts the release read from
its files. It shows who the login is, as Claude recorded it (email and
organization), and whether that is who account.toml's [identity] says the account
must be: a login that is someone else is a problem, and every session refused. Then says where each thing shared with the account resolves (login,
memory, plugins, settings, MCP servers, trust), and what Claude's background
sessions do under the launcher with its release. Exits 1 while anything is wrong.

With no account named (--account, $CLAUDE_ACCOUNT, claudeNAME) and none bound to the
directory, it checks every account 'claude-account accounts' lists, one section each,
and exits 1 when any has a problem.

Examples:
  claude-account doctor
  claude-account doctor --account max
  claude-account doctor --account max --fix
  claude-account doctor --account max --fix ~/src/app/.claude/worktrees/fix-login`
}

// DoctorReport is the --json body.
type DoctorReport struct {
	Account  string             `json:"account"`
	Dir      string             `json:"dir"` // the account dir
	OK       bool               `json:"ok"`
	Findings []doctor.Finding   `json:"findings"`
	Claude   claudever.Binary   `json:"claude"` // the Claude Code binary and its release
	Shared   []configdir.Shared `json:"shared"` // where each thing shared with the account resolves
	Fleet    doctor.Fleet       `json:"fleet"`  // what Claude's background sessions do under the launcher, by release
	// LoggedIn: Claude will find a login here (or an API key); false: it
	// will ask for one, once for the whole account.
	LoggedIn bool `json:"loggedIn"`
	// Identity: who the login is, as Claude recorded it, and whether it is
	// who the account declares ([identity]).
	Identity doctor.Identity `json:"identity"`
}

// Run checks, optionally fixes, and checks again.
func (c *DoctorCmd) Run(d *Deps) error {
	if c.Dir != "" {
		// The account is still the one of where doctor runs, as for close.
		if c.Account == "" {
			if name, ok, err := c.accountName(d); err != nil {
				return err
			} else if ok {
				c.Account = name
			}
		}
		in := *d
		in.Dir = c.Dir
		if !filepath.IsAbs(in.Dir) {
			in.Dir = filepath.Join(d.Dir, in.Dir)
		}
		if fi, err := os.Stat(in.Dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("%s does not exist; name a directory of the workspace to check", in.Dir)
		}
		d = &in
	}
	if c.Account == "" && c.AccountDir == "" && d.Env.Get("CLAUDE_ACCOUNT_DIR") == "" {
		if _, ok, err := c.accountName(d); err == nil && !ok {
			return c.all(d)
		}
	}
	ws, err := c.load(d)
	if err != nil {
		return err
	}
	rep, remaining, err := c.one(d, ws)
	if err != nil {
		return err
	}
	if c.JSON {
		if err := d.stdout().JSON(rep); err != nil {
			return err
		}
	}
	if remaining > 0 {
		return ExitCodeError(1)
	}
	return nil
}

// one checks (and with --fix repairs) the account of ws in its workspace,
// prints what it found unless --json, and returns the report and how many
// problems remain.
func (c *DoctorCmd) one(d *Deps, ws *launch.Workspace) (DoctorReport, int, error) {
	// Claude's --version runs once here, whatever the files tell: it shows
	// that Claude starts at all, and that it is the release the launch reads.
	bin, claudeErr := ws.FindClaudeWith(claudever.Options{Probe: true})
	if claudeErr != nil {
		bin = claudever.Missing(claudeErr.Error())
	}
	in := doctor.Input{Account: ws.Account, Context: ws.Context, Layout: ws.Layout,
		LockDir: lock.Dir(d.Env), Trust: trustStore(d), Now: d.Now(), Claude: bin, Env: d.Env, Unclean: ws.Unclean}
	found := doctor.Check(in)
	remaining := found
	if c.Fix && len(found) > 0 {
		// Repairs rewrite what a running Claude uses: take its lock first.
		held, err := ws.Acquire()
		var running *lock.AlreadyRunningError
		if errors.As(err, &running) {
			return DoctorReport{}, 0, fmt.Errorf("%v; stop it before 'doctor --fix' repairs what it uses", withStop(d, ws, err))
		}
		if err == nil {
			defer held.Release()
		}
		// An unusable lock dir is itself a finding that --fix repairs.
		found = doctor.Fix(found)
		if release, err := lock.Account(lock.Dir(d.Env), ws.Account.Name); err == nil {
			// The repairs were the launcher's: nothing runs here now.
			if err := ws.Leave(); err != nil {
				d.notef("%v", err)
			}
			release()
		}
		remaining = doctor.Check(in)
	}
	rep := DoctorReport{OK: len(remaining) == 0, Findings: append([]doctor.Finding{}, found...), Claude: bin,
		Shared: configdir.SharedState(ws.Account, ws.Layout, d.Env, bin), Fleet: doctor.FleetOf(bin), LoggedIn: doctor.HasLogin(in),
		Identity: doctor.IdentityOf(ws.Account, d.Env)}
	rep.Account, rep.Dir = ws.Account.Name, ws.Account.Dir
	if !c.JSON {
		for _, f := range found {
			d.stdout().Linef("problem: %s", f.Message)
			if f.Fixed != "" {
				d.stdout().Linef("  fixed: %s", f.Fixed)
			}
		}
		switch {
		case len(found) > 0:
		case !rep.LoggedIn:
			d.stdout().Linef("ok: claude (%s) can start in %s (config dir %s); it asks you to log in once: no login in %s yet, and every worktree shares the one you give",
				ws.Account.Name, ws.Where(), d.Env.TildePath(ws.Layout.ConfigDir), d.Env.TildePath(ws.Account.Dir))
		default:
			d.stdout().Linef("ok: claude (%s) is ready in %s (config dir %s)", ws.Account.Name, ws.Where(), d.Env.TildePath(ws.Layout.ConfigDir))
		}
		if claudeErr == nil {
			d.stdout().Linef("claude: %s, Claude Code %s", claudeWhere(d, bin), bin.Describe())
		}
		d.stdout().Linef("identity: %s", rep.Identity.Describe())
		for _, s := range rep.Shared {
			d.stdout().Linef("shared %s: %s", s.Name, sharedWhere(d, s))
		}
		if claudeErr == nil {
			d.stdout().Linef("background sessions: %s", rep.Fleet.Summary)
		}
	}
	if len(remaining) > 0 && c.Fix && !c.JSON {
		d.stdout().Linef("%d problem(s) remain", len(remaining))
	}
	return rep, len(remaining), nil
}

// all is doctor where no account is named nor bound: every account
// 'accounts' lists, one section each; the exit status is the worst.
func (c *DoctorCmd) all(d *Deps) error {
	list, skipped := listAccounts(d)
	noteSkipped(d, skipped)
	if len(list) == 0 {
		return errors.New("no account to check: make one with 'claude-account init NAME' (with '--from ~/.claude' to take in the setup you have), or declare it in home-manager")
	}
	reps := []DoctorReport{}
	worst := 0
	for i, a := range list {
		if !c.JSON {
			if i > 0 {
				d.stdout().Line("")
			}
			d.stdout().Linef("== account %s (%s)", a.Name, d.Env.TildePath(a.Dir))
		}
		one := *c
		one.Account, one.AccountDir = a.Name, a.Dir
		ws, err := one.load(d)
		if err == nil {
			var rep DoctorReport
			var n int
			if rep, n, err = one.one(d, ws); err == nil {
				reps = append(reps, rep)
				if n > 0 {
					worst = 1
				}
				continue
			}
		}
		// An account that cannot be checked is a problem of its own.
		worst = 1
		msg := strings.TrimPrefix(err.Error(), "claude-account: ")
		reps = append(reps, DoctorReport{Account: a.Name, Dir: a.Dir, Findings: []doctor.Finding{{ID: "account", Path: a.Dir, Message: msg}}})
		if !c.JSON {
			d.stdout().Linef("problem: %s", msg)
		}
	}
	if c.JSON {
		if err := d.stdout().JSON(reps); err != nil {
			return err
		}
	}
	if worst > 0 {
		return ExitCodeError(worst)
	}
	return nil
}
