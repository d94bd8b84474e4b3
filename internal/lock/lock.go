// Package lock keeps one Claude per account and workspace. It uses flock(2)
// on a file in a private per-user directory: the kernel releases the lock
// when the holder dies, so there are no stale PID files, and nothing lives at
// a predictable name in a shared /tmp where another user could plant a link.
package lock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// AlreadyRunningError is a launch refused because the slot is taken.
type AlreadyRunningError struct {
	Holder Holder
	Where  string // the workspace as shown to the user
	// Stop is the command that stops the holder from wherever the error is
	// printed (account and workspace named), filled in by the caller, which
	// knows them; "" reads "claude-account close".
	Stop string
	// Beside is the command that starts a second session in a worktree of
	// its own, "" where there is none (outside a work tree).
	Beside string
}

func (e *AlreadyRunningError) Error() string {
	stop := e.Stop
	if stop == "" {
		stop = "claude-account close"
	}
	// The PID named is Claude's, the one ps and top show; until Claude has
	// started, the launcher's, said as such.
	who := ""
	switch {
	case e.Holder.ClaudePID > 0:
		who = fmt.Sprintf(" as PID %d", e.Holder.ClaudePID)
	case e.Holder.PID > 0:
		who = fmt.Sprintf(", still starting (launcher PID %d)", e.Holder.PID)
	}
	msg := fmt.Sprintf("claude (%s) already runs in %s%s; '%s' stops it", e.Holder.Account, e.Where, who, stop)
	if e.Beside != "" {
		msg += fmt.Sprintf(", or '%s' starts a second one in a worktree of its own", e.Beside)
	}
	return msg
}

// ExitCode is 3: scripts can tell "already running" from a failure.
func (e *AlreadyRunningError) ExitCode() int { return 3 }

// Lock is a held lock; Release (or the process dying) frees it.
type Lock struct {
	f      *os.File
	Path   string
	holder Holder
}

// Name is the lock file's name for a key and slot.
func Name(key string, slot int) string {
	if slot == 0 {
		return key + ".lock"
	}
	return fmt.Sprintf("%s.%d.lock", key, slot)
}

// Acquire takes the first free of slots locks for key. With one slot a taken
// lock is an *AlreadyRunningError naming the holder.
func Acquire(dir, key string, slots int, h Holder, where string) (*Lock, error) {
	return AcquireFrom(dir, key, 0, slots, h, where)
}

// AcquireFrom is Acquire over the slots from `from` up to slots: the panel's
// sessions (claude-account wrap) take the slots past the first, which stays
// the terminal's, so neither refuses the other.
func AcquireFrom(dir, key string, from, slots int, h Holder, where string) (*Lock, error) {
	if err := EnsureDir(dir); err != nil {
		return nil, err
	}
	var first *Holder
	for slot := from; slot < slots; slot++ {
		path := filepath.Join(dir, Name(key, slot))
		f, err := openLock(path, syscall.O_RDWR|syscall.O_CREAT)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			if first == nil {
				first = awaitHolder(f)
			}
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				continue
			}
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		l := &Lock{f: f, Path: path, holder: h}
		if err := l.write(); err != nil {
			l.Release()
			return nil, err
		}
		return l, nil
	}
	if first == nil {
		first = &Holder{Account: h.Account}
	}
	return nil, &AlreadyRunningError{Holder: *first, Where: where}
}

// Holder is what the lock's file says of its holder.
func (l *Lock) Holder() Holder { return l.holder }

// Beat stamps the lock file with the time now: the holder was alive then
// (Unclean reads it after a holder died).
func (l *Lock) Beat() error {
	tv := syscall.NsecToTimeval(time.Now().UnixNano())
	return syscall.Futimes(int(l.f.Fd()), []syscall.Timeval{tv, tv})
}

// HeartbeatEvery is how often Heartbeat stamps the lock: after a crash, at
// most this much of the session's last writes are not taken as Claude's.
const HeartbeatEvery = time.Second

// Heartbeat stamps the lock (Beat) every HeartbeatEvery until stop is
// called; stop stamps it once more and returns when the stamping is over.
func (l *Lock) Heartbeat() (stop func()) {
	done, over := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(over)
		t := time.NewTicker(HeartbeatEvery)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				_ = l.Beat()
			case <-done:
				return
			}
		}
	}()
	return func() {
		close(done)
		<-over
	}
}

// SetClaudePID records Claude's own PID once it runs, for status and close.
func (l *Lock) SetClaudePID(pid int) error {
	l.holder.ClaudePID = pid
	return l.write()
}

// Release frees the lock. The file stays: deleting it would race with a
// launcher that has just opened it.
func (l *Lock) Release() {
	if l != nil && l.f != nil {
		// Forget who held it while still holding it, so a stale body never
		// names a PID that may since belong to another process.
		_ = l.f.Truncate(0)
		l.f.Close()
		l.f = nil
	}
}

// Key is the lock key of an instance: one per account outside a work tree
// (fingerprint ""), one per account and runtime dir in one (fingerprint: of
// the runtime dir).
func Key(account, fingerprint string) string {
	if fingerprint == "" {
		return account
	}
	return account + "-" + fingerprint
}

// Slots is how many instances of an account may run at once in one
// workspace: one, unless the account allows more.
func Slots(singleInstance bool) int {
	if singleInstance {
		return 1
	}
	return 64
}
