package lock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"

	"github.com/claude-account/claude-account/internal/env"
)

// Dir is the per-user lock directory: $XDG_RUNTIME_DIR/claude-account, else
// on Linux $TMPDIR/claude-account-<uid> (TMPDIR defaults to /tmp), on macOS
// $XDG_STATE_HOME/claude-account/locks (dirFor).
func Dir(e env.Env) string { return dirFor(e, runtime.GOOS) }

// dirFor is Dir on the system goos. macOS has no XDG_RUNTIME_DIR, and
// removes files not accessed for 3 days from $TMPDIR (confstr(3),
// _CS_DARWIN_USER_TEMP_DIR) and from /tmp: a lock file held by a longer
// session would go, and a second Claude start beside the first. The state
// dir is never swept, is the same whatever TMPDIR a terminal, ssh or launchd
// gives, and its path is short (~/.local/state/claude-account/locks).
func dirFor(e env.Env, goos string) string {
	if d := e.Get("XDG_RUNTIME_DIR"); filepath.IsAbs(d) {
		return filepath.Join(d, "claude-account")
	}
	if goos == "darwin" {
		return filepath.Join(e.StateHome(), "claude-account", "locks")
	}
	tmp := e.Get("TMPDIR")
	if !filepath.IsAbs(tmp) {
		tmp = "/tmp"
	}
	return filepath.Join(tmp, "claude-account-"+strconv.Itoa(os.Getuid()))
}

// EnsureDir makes the lock directory and checks it is a private directory of
// ours: not a symlink, owned by us, no access for others.
func EnsureDir(dir string) error {
	// Usually it is there and sound: one lstat.
	if err := CheckDir(dir); !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return fmt.Errorf("lock dir %s cannot be made (%v); point XDG_RUNTIME_DIR at a private directory of yours", dir, errors.Unwrap(err))
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("lock dir %s cannot be made (%v); point XDG_RUNTIME_DIR at a private directory of yours", dir, errors.Unwrap(err))
	}
	return CheckDir(dir)
}

// CheckDir reports why dir is not safe to keep locks in, or nil.
func CheckDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, _ := fi.Sys().(*syscall.Stat_t)
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("lock dir %s is a symlink; remove it (claude-account makes a private dir there)", dir)
	case !fi.IsDir():
		return fmt.Errorf("lock dir %s is not a directory; remove it (claude-account makes a private dir there)", dir)
	case st != nil && int(st.Uid) != os.Getuid():
		return fmt.Errorf("lock dir %s belongs to uid %d, not to you (uid %d); remove it or set XDG_RUNTIME_DIR to a private dir", dir, st.Uid, os.Getuid())
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("lock dir %s has mode %#o, open to others; run 'chmod 700 %s'", dir, fi.Mode().Perm(), dir)
	}
	return nil
}

// readable is CheckDir for the readers of dir (List, Read, Unclean): a
// dir that another user made or may write in holds locks that anyone could
// hold, whose bodies name any PID, so a reader believes none of it, just as
// Acquire takes no lock there. A dir not made yet holds nothing: nil.
func readable(dir string) error {
	if err := CheckDir(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// openLock opens a lock file, never through a link. With plain system
// calls: os.OpenFile would register it with the runtime's poller first (an
// eventfd, epoll calls and fcntls), for a file that is only flock-ed.
func openLock(path string, flag int) (*os.File, error) {
	fd, err := syscall.Open(path, flag|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, flag|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	}
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("lock file %s is a symlink; remove it", path)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	// A lock file of another user was planted while the dir was open to
	// others (CheckDir's fix, chmod 700, keeps what is in it): its holder
	// may name any PID, for close to signal. Never believed.
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || int(st.Uid) != os.Getuid() {
		syscall.Close(fd)
		if err != nil {
			return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
		}
		return nil, fmt.Errorf("lock file %s belongs to uid %d, not to you (uid %d); remove it", path, st.Uid, os.Getuid())
	}
	return os.NewFile(uintptr(fd), path), nil
}
