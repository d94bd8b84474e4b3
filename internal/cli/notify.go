package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sync"

	"github.com/claude-account/claude-account/internal/fleet"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/notify"
	"github.com/claude-account/claude-account/internal/session"
)

// notifyWaiting tells the user that session id (state s) waits, and why: a
// desktop notification naming the account and the worktree as ps does. It
// runs inside Claude's hook, so it reads only the session's lock file and
// its worktree's git files, starts the notifier and returns; a notification
// that cannot be shown is dropped silently ('ps' still shows the session).
//
// A session whose launcher has exited still runs these hooks: one sent to
// the background with ←, or started with --bg through the launcher (the
// supervisor forwards the launch's settings to the session it hosts). Its
// lock names nobody then: the account is read from the id the launcher gave
// it, the worktree from the hook's cwd, and a session Claude's supervisor
// hosts (CLAUDE_JOB_DIR, set in its hooks) is named with its short id and
// the jump that attaches it.
func notifyWaiting(d *Deps, id string, s *session.State) {
	dir := lock.Dir(d.Env)
	path := filepath.Join(dir, id+".lock")
	var in session.Info
	if h := lock.Read(path); h != nil {
		in = session.Describe(session.Running{ID: id, Lock: lock.Held{Holder: *h, Path: path}, State: s}, d.Env.Get)
	} else {
		in = session.DescribeAgent(accountOfID(id), fleet.Agent{Cwd: s.Cwd}, d.Env.Get)
	}
	if filepath.IsAbs(s.Cwd) {
		// The account with headroom is one allowed where the session works.
		d.Dir = s.Cwd
	}
	acct := in.Account
	if acct == "" {
		acct = id
	}
	where := worktreeName(in)
	if where == "" {
		where = filepath.Base(in.Path)
	}
	title := "Claude waits: " + acct + " · " + where
	body := notifyLines(d, acct, s)
	short := filepath.Base(d.Env.Get("CLAUDE_JOB_DIR"))
	if !fleet.ValidShort(short) {
		short = ""
	}
	if short != "" {
		title += " (background " + short + ")"
	}
	if in.Path != "" {
		body = append(body, d.Env.TildePath(in.Path))
	}
	if short != "" {
		body = append(body, "claude-account jump "+short)
	}
	if argv := notify.Command(runtime.GOOS, exec.LookPath, title, body...); argv != nil {
		_ = notify.Start(argv)
	}
}

// lockSuffix is what lock.Key and lock.Name add to the account in a session
// id: the runtime's fingerprint in a work tree, a slot number past the first.
var lockSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(-[0-9a-f]{16})?(\.[0-9]+)?$`) })

// accountOfID is the account of a session id (the lock's name: the account,
// then the runtime's fingerprint in a work tree, then a slot past the first).
func accountOfID(id string) string {
	return lockSuffix().ReplaceAllString(id, "")
}

// attended reports whether a person is at this launch's terminal: stdin and
// stdout are terminals. The launcher decides it for a session at launch
// (with no -p) and passes the state hook --notify only then: nothing a
// repository sets, nor the hook's own environment, decides it.
func attended(d *Deps) bool {
	stdout, ok := d.Stdout.(*os.File)
	return ok && terminal(d.Stdin) && terminal(stdout)
}
