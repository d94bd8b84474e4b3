package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/fleet"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/session"
)

// CloseCmd is `claude-account close`.
type CloseCmd struct {
	AccountFlags
	Dir      string        `arg:"" optional:"" placeholder:"DIR|ID" help:"Stop the Claude of the workspace DIR is in (any directory of a worktree, or one outside git), or the background session whose short id (ps's PANE/ID) is ID. Default: the current directory."`
	Worktree string        `placeholder:"NAME" help:"Stop the Claude of this worktree of the current repository: its name (as in 'worktree new NAME'), path or branch."`
	All      bool          `help:"Stop the account's Claude in every workspace, not just this one."`
	Timeout  time.Duration `default:"10s" help:"How long to wait for each to exit."`
}

// Help is shown under the command's usage.
func (c *CloseCmd) Help() string {
	return `Sends SIGTERM to the launcher holding the lock (it passes the signal to Claude),
waits for the lock to be released, and reports with Claude's PID. The account is
--account, $CLAUDE_ACCOUNT or the program name, else the binding of the directory
close runs in (as for 'run --worktree'). With none of them, close stops the Claude
that runs in the workspace, whatever its account; when Claudes of several accounts
run there, it stops none and names the close of each. When the account has no
Claude there but another account has, close says so and names the command that
stops that one.

A background session (claude --bg, or one sent to the background with ←) is Claude's
supervisor's, not the launcher's: close stops those of the workspace too, and one named by
its short id from anywhere, with Claude's own 'claude stop ID' run by the account's Claude
in the config dir whose supervisor hosts it, and waits until the supervisor lists it no
more. An ID that is also the name of a directory here means the session (ps showed it);
name the directory as ./ID. Only the account dir and the runtimes the account's record
vouches for are looked at: a runtime a repository brings with it hosts nothing close
would stop.

Examples:
  claude-account close                                     # whatever runs in this workspace
  claude-account close --worktree fix-login                # in that worktree, from anywhere in the repository
  claude-account close --account max                       # max's, in this workspace
  claude-account close --account max ~/src/app             # in that workspace, from anywhere
  claude-account close --account max --all                 # every workspace
  claude-account close 1a2b3c4d                            # the background session with that id`
}

// target moves d to the workspace --worktree or DIR names. The account is
// resolved first where close was called (a worktree may live outside the
// bound directory), as run --worktree does.
func (c *CloseCmd) target(d *Deps) (*Deps, error) {
	switch {
	case c.Worktree != "" && c.Dir != "":
		return nil, UsageError{errors.New("give either --worktree NAME or DIR, not both")}
	case c.All && (c.Worktree != "" || c.Dir != ""):
		return nil, UsageError{errors.New("--all stops every workspace; drop --worktree and DIR, or --all")}
	case c.Worktree == "" && c.Dir == "":
		return d, nil
	}
	in := *d
	if c.Worktree != "" {
		r, _, _, err := repoFor(d, c.AccountFlags)
		if err != nil {
			return nil, err
		}
		e, err := r.Resolve(c.Worktree)
		if err != nil {
			return nil, err
		}
		in.Dir = e.Path
	} else {
		in.Dir = c.Dir
		if !filepath.IsAbs(in.Dir) {
			in.Dir = filepath.Join(d.Dir, in.Dir)
		}
	}
	if fi, err := os.Stat(in.Dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s does not exist; name a directory of the workspace whose Claude to stop", in.Dir)
	}
	return &in, nil
}

// Run stops the holders: the account's when one is given or bound here;
// with none, whichever account's Claude runs in the workspace, if only one
// does.
func (c *CloseCmd) Run(d *Deps) error {
	name, from, named, err := c.account(d)
	if err != nil {
		return err
	}
	if named {
		c.Account = name // where close was called, not where it points
	}
	if c.byID(d) {
		acct := ""
		if named {
			acct = name
		}
		return c.closeID(d, acct)
	}
	d, err = c.target(d)
	if err != nil {
		return err
	}
	if !named && !c.All {
		return c.closeAny(d)
	}
	ws, err := c.load(d)
	if err != nil {
		if from != nil {
			err = explainNotFound(d, err, from)
		}
		return err
	}
	match := func(k string) bool { return k == ws.LockKey() }
	if c.All {
		match = lock.AccountKeys(ws.Account.Name)
	}
	all, err := lock.List(lock.Dir(d.Env), match)
	if err != nil {
		return err
	}
	// Keys of "max" also match an account "max-work": the holder says whose it is.
	var held []lock.Held
	for _, h := range all {
		if h.Account == ws.Account.Name || h.Account == "" {
			held = append(held, h)
		}
	}
	var bg []session.Info
	switch {
	case c.All:
		bg = backgroundSessions(d, ws.Account.Name)
	case ws.InWorkTree():
		bg = backgroundIn(d, ws.Account.Name, ws.Toplevel())
	}
	if len(held) == 0 && len(bg) == 0 {
		where := "anywhere"
		switch {
		case c.All:
		case ws.InWorkTree():
			where = "in " + ws.Where()
		default:
			where = "outside git"
		}
		d.stdout().Linef("not running: claude (%s) has no instance %s; nothing to stop", ws.Account.Name, where)
		if !c.All {
			// Another account's Claude there is what the user likely
			// meant: the binding or a habit named the wrong account.
			others, err := holdersIn(d, ws.Toplevel())
			if err != nil {
				return err
			}
			for _, h := range others {
				if h.Account != ws.Account.Name {
					d.stdout().Linef("claude (%s) runs there as PID %d: '%s' stops it", h.Account, claudePID(h.Holder), closeCommand(d.Env, h.Account, ws.Toplevel()))
				}
			}
		}
		return nil
	}
	again := closeCommand(d.Env, ws.Account.Name, ws.Toplevel())
	if c.All {
		again = "claude-account close --account " + ws.Account.Name + " --all"
	}
	return errors.Join(c.stop(d, held, ws.Account.Name, again), c.stopBackground(d, bg))
}

// closeAny is close with no account given: it stops the Claude that runs in
// d's workspace whatever its account, or, when several accounts run one
// there, names them and the close of each.
func (c *CloseCmd) closeAny(d *Deps) error {
	ctx, err := gitctx.Detect(d.Dir, d.Env.Get)
	if err != nil {
		return err
	}
	top := ctx.Toplevel // "" outside a work tree, where each account has one lock
	held, err := holdersIn(d, top)
	if err != nil {
		return err
	}
	where := "outside git"
	if top != "" {
		where = "in " + d.Env.TildePath(top)
	}
	var bg []session.Info
	if top != "" {
		bg = backgroundIn(d, "", top)
	}
	var accounts []string
	for _, h := range held {
		if !slices.Contains(accounts, h.Account) {
			accounts = append(accounts, h.Account)
		}
	}
	for _, in := range bg {
		if !slices.Contains(accounts, in.Account) {
			accounts = append(accounts, in.Account)
		}
	}
	switch len(accounts) {
	case 0:
		d.stdout().Linef("not running: no Claude runs %s; nothing to stop", where)
		return nil
	case 1:
		return errors.Join(c.stop(d, held, accounts[0], closeCommand(d.Env, accounts[0], top)), c.stopBackground(d, bg))
	}
	var whose, closes []string
	for _, h := range held {
		whose = append(whose, fmt.Sprintf("claude (%s) as PID %d", h.Account, claudePID(h.Holder)))
	}
	for _, in := range bg {
		whose = append(whose, fmt.Sprintf("claude (%s) background session %s", in.Account, in.ID))
	}
	for _, a := range accounts {
		closes = append(closes, "'"+closeCommand(d.Env, a, top)+"'")
	}
	return UsageError{fmt.Errorf("%d Claudes run %s: %s; name one: %s", len(whose), where, joinOr(whose, "and"), joinOr(closes, "or"))}
}

// byID reports whether DIR is a background session's short id (what ps
// shows under PANE/ID) rather than a directory: hex digits naming no
// directory here, or naming a background session that runs now, even when
// a directory here has that name too (the id is what ps showed; the
// directory is still ./ID). Else a directory named like an id would turn
// 'close ID' into stopping this worktree's foreground Claude.
func (c *CloseCmd) byID(d *Deps) bool {
	if c.Dir == "" || c.Worktree != "" || !fleet.ValidShort(c.Dir) {
		return false
	}
	p := c.Dir
	if !filepath.IsAbs(p) {
		p = filepath.Join(d.Dir, p)
	}
	if _, err := os.Lstat(p); err != nil {
		return true
	}
	return slices.ContainsFunc(backgroundSessions(d, ""), func(in session.Info) bool { return in.ID == c.Dir })
}

// closeID stops the background session whose short id is c.Dir, of account
// acct ("" any), wherever it works.
func (c *CloseCmd) closeID(d *Deps, acct string) error {
	if c.All {
		return UsageError{errors.New("--all stops every workspace; drop the ID, or --all")}
	}
	var found []session.Info
	for _, in := range backgroundSessions(d, acct) {
		if in.ID == c.Dir {
			found = append(found, in)
		}
	}
	if len(found) == 0 {
		return fmt.Errorf("no background session %s runs; 'claude-account ps' lists them (close takes the id in its PANE/ID column)", c.Dir)
	}
	return c.stopBackground(d, found)
}

// backgroundIn are the background sessions of acct ("" any) whose worktree
// is top.
func backgroundIn(d *Deps, acct, top string) []session.Info {
	var out []session.Info
	for _, in := range backgroundSessions(d, acct) {
		if in.Path == top {
			out = append(out, in)
		}
	}
	return out
}

// stopBackground stops each background session with Claude's own stop, in
// the config dir that hosts it, and reports each.
func (c *CloseCmd) stopBackground(d *Deps, bg []session.Info) error {
	var errs []error
	for _, in := range bg {
		if err := stopBackground(d, in, c.Timeout); err != nil {
			errs = append(errs, err)
			continue
		}
		where := "outside git"
		if in.Path != "" {
			where = "in " + d.Env.TildePath(in.Path)
		}
		d.stdout().Linef("stopped claude (%s) background session %s %s", in.Account, in.ID, where)
	}
	return errors.Join(errs...)
}

// holdersIn lists the instance locks held in the workspace whose top level
// is top (every holder names its work tree, canonical as detected; "" is
// outside one), of every account.
func holdersIn(d *Deps, top string) ([]lock.Held, error) {
	all, err := lock.List(lock.Dir(d.Env), func(string) bool { return true })
	if err != nil {
		return nil, err
	}
	var out []lock.Held
	for _, h := range all {
		if h.Workspace == top && h.Account != "" {
			out = append(out, h)
		}
	}
	return out, nil
}

// joinOr joins words as a sentence lists them: "a", "a and b", "a, b and c".
func joinOr(words []string, conj string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

// stop signals each holder's launcher (it passes the signal to Claude) and
// waits for its lock to be released. acct is whose they are; again is the
// close to run again for a holder that has not yet written its PID.
func (c *CloseCmd) stop(d *Deps, held []lock.Held, acct, again string) error {
	var failed []string
	for _, h := range held {
		if h.Account == "" {
			h.Account = acct // a body not written yet: the key said whose
		}
		where := "outside git"
		if h.Workspace != "" {
			where = "in " + d.Env.TildePath(h.Workspace)
		}
		if h.PID <= 0 {
			// kill(0) would signal our own process group.
			failed = append(failed, fmt.Sprintf("claude (%s) %s has just started and not yet written its PID to %s; run '%s' again in a moment", h.Account, where, h.Path, again))
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
			pid := claudePID(h.Holder)
			failed = append(failed, fmt.Sprintf("claude (%s) %s, PID %d, still runs after %s; 'kill -KILL %d' ends it", h.Account, where, pid, c.Timeout, pid))
			continue
		}
		d.stdout().Linef("stopped claude (%s) %s (PID %d)", h.Account, where, claudePID(h.Holder))
	}
	if len(failed) > 0 {
		return errors.New(failed[0])
	}
	return nil
}

// closeCommand is the close that stops account's Claude in workspace (a
// canonical top level, "" outside a work tree) from any directory:
// suggestions name it so that they run as printed, wherever they are
// printed (claudemax sets no CLAUDE_ACCOUNT in the user's shell, and run
// --worktree prints in another workspace than the one it names). Outside a
// work tree the lock is the account's alone: any directory outside git
// names it, and / is one.
func closeCommand(e env.Env, account, workspace string) string {
	if workspace == "" {
		workspace = "/"
	}
	return "claude-account close --account " + account + " " + e.ShellPath(workspace)
}

// withStop names in an *lock.AlreadyRunningError the close that stops the
// holder of ws's lock; other errors pass unchanged.
func withStop(d *Deps, ws *launch.Workspace, err error) error {
	var running *lock.AlreadyRunningError
	if errors.As(err, &running) {
		// The holder's own work tree: another one can share this runtime
		// (GIT_WORK_TREE), and the holder's names the lock as well.
		where := ws.Toplevel()
		if running.Holder.Workspace != "" {
			where = running.Holder.Workspace
		}
		running.Stop = closeCommand(d.Env, ws.Account.Name, where)
	}
	return err
}

// withBeside names in an *lock.AlreadyRunningError the run that starts a
// second session of the account in a worktree of its own, in a work tree;
// other errors pass unchanged.
func withBeside(ws *launch.Workspace, err error) error {
	var running *lock.AlreadyRunningError
	if errors.As(err, &running) && ws.InWorkTree() {
		running.Beside = "claude-account run --account " + ws.Account.Name + " --worktree NEW"
	}
	return err
}

// claudePID is the PID to name for a holder: Claude's, the one ps shows,
// else (Claude not started yet) its launcher's, which close signals.
func claudePID(h lock.Holder) int {
	if h.ClaudePID > 0 {
		return h.ClaudePID
	}
	return h.PID
}
