package launch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/session"
)

// Next asks the launcher of a session whose conversation a usage limit
// stopped to continue it on another account once its Claude exits, in its
// own terminal ('claude-account resume --next' writes it, then closes that
// Claude as 'claude-account close' does). It lives beside the session's
// state, in the private lock dir: never in a repository.
type Next struct {
	Token   string `json:"token"`   // the session's holder (session.Token): a request for another holder is stale
	ID      string `json:"id"`      // the conversation
	Account string `json:"account"` // the account to continue it on
	Why     string `json:"why"`     // the line that says which account and why, for the launcher's terminal
	// Args are more arguments for the next Claude ('resume --next ID --
	// ARGS'), after the limited session's own that carry over.
	Args []string `json:"args,omitempty"`
	// At is when it was asked: a request older than nextExpiry (its close
	// was interrupted: Ctrl-C, a crash) is not acted on, so that a later
	// ordinary exit of that session does not hand it over unasked.
	At time.Time `json:"at"`
}

// nextExpiry is how long a request stands: resume --next writes it right
// before it closes the session, and waits 10 s at most for it to exit.
const nextExpiry = time.Minute

// nextRequestLimit bounds the read of a request (a few hundred bytes).
const nextRequestLimit = 16 << 10

func nextPath(lockDir, id string) string {
	return filepath.Join(session.StateDir(lockDir), id+".next")
}

// RequestNext writes n for the session r (one of session.List's).
func RequestNext(lockDir string, r session.Running, n Next) error {
	if err := session.ValidID(r.ID); err != nil {
		return err
	}
	if err := lock.CheckDir(session.StateDir(lockDir)); err != nil {
		return err
	}
	n.Token = session.Token(r.Lock.PID, r.Lock.Started.UnixNano())
	n.At = time.Now()
	data, err := json.Marshal(n)
	if err != nil {
		return err
	}
	return fsx.WriteFile(nextPath(lockDir, r.ID), data, 0o600)
}

// CancelNext removes the request for session r, when closing it failed.
func CancelNext(lockDir string, r session.Running) {
	if session.ValidID(r.ID) == nil {
		_ = os.Remove(nextPath(lockDir, r.ID))
	}
}

// NextPending reports whether the request for session r is still there:
// its launcher removes it as it takes it, before its lock is released, so
// one left once the lock is free was not taken.
func NextPending(lockDir string, r session.Running) bool {
	if session.ValidID(r.ID) != nil {
		return false
	}
	_, err := os.Lstat(nextPath(lockDir, r.ID))
	return err == nil
}

// takeNext reads and removes the request for session id when it is
// token's; one of an earlier holder is removed unread. nil when none.
func takeNext(lockDir, id, token string) *Next {
	if session.ValidID(id) != nil {
		return nil
	}
	p := nextPath(lockDir, id)
	data, err := fsx.ReadFileNoFollow(p, nextRequestLimit)
	if err != nil {
		return nil
	}
	_ = os.Remove(p)
	var n Next
	if json.Unmarshal(data, &n) != nil || n.Token != token || !IsSessionID(n.ID) || n.Account == "" ||
		time.Since(n.At) > nextExpiry || time.Until(n.At) > nextExpiry {
		return nil
	}
	return &n
}
