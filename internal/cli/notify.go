package cli

import (
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/notify"
	"github.com/claude-account/claude-account/internal/session"
)

// notifyWaiting tells the user that session id (state s) waits, and why: a
// desktop notification naming the account and the worktree as ps does. It
// runs inside Claude's hook, so it reads only the session's lock file and
// its worktree's git files, starts the notifier and returns; a notification
// that cannot be shown is dropped silently ('ps' still shows the session).
func notifyWaiting(d *Deps, id string, s *session.State, reason string) {
	dir := lock.Dir(d.Env)
	path := filepath.Join(dir, id+".lock")
	h := lock.Read(path)
	if h == nil {
		h = &lock.Holder{}
	}
	in := session.Describe(session.Running{ID: id, Lock: lock.Held{Holder: *h, Path: path}, State: s}, d.Env.Get)
	acct := in.Account
	if acct == "" {
		acct = id
	}
	where := worktreeName(in)
	if where == "" {
		where = filepath.Base(in.Path)
	}
	title := "Claude waits: " + acct + " · " + where
	body := []string{reason}
	if in.Path != "" {
		body = append(body, d.Env.TildePath(in.Path))
	}
	if argv := notify.Command(runtime.GOOS, exec.LookPath, title, body...); argv != nil {
		_ = notify.Start(argv)
	}
}
