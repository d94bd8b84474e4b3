// Package lock keeps one Claude per account and workspace. It uses flock(2)
// on a file in a private per-user directory: the kernel releases the lock
// when the holder dies, so there are no stale PID files, and nothing lives at
// a predictable name in a shared /tmp where another user could plant a link.
package lock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/jsonx"
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

// Holder is the body of a lock file.
type Holder struct {
	PID       int       `json:"pid"`                 // the launcher, which forwards signals to Claude
	ClaudePID int       `json:"claudePid,omitempty"` // Claude itself, once started: the PID ps shows
	Account   string    `json:"account"`
	Workspace string    `json:"workspace"`           // the toplevel, or "" outside a work tree
	ConfigDir string    `json:"configDir,omitempty"` // Claude's CLAUDE_CONFIG_DIR
	Started   time.Time `json:"started"`
	// In tmux, the launcher's TMUX (the server's socket, its PID, the
	// session) and TMUX_PANE (the pane, "%3"): where 'jump' goes.
	Tmux string `json:"tmux,omitempty"`
	Pane string `json:"pane,omitempty"`
}

// ValidPane reports whether pane is a tmux pane id as TMUX_PANE holds it:
// "%" and digits. Anything else is not passed to tmux as a target.
func ValidPane(pane string) bool {
	if len(pane) < 2 || len(pane) > 12 || pane[0] != '%' {
		return false
	}
	for _, r := range pane[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// TmuxSocket is the server socket of a TMUX value ("socket,pid,session"),
// "" when it names none.
func TmuxSocket(tmux string) string {
	socket, _, _ := strings.Cut(tmux, ",")
	if !filepath.IsAbs(socket) {
		return ""
	}
	return socket
}

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
	if err := EnsureDir(dir); err != nil {
		return nil, err
	}
	var first *Holder
	for slot := 0; slot < slots; slot++ {
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

// write replaces the body in place: the file is never replaced or deleted
// while locked, since a lock on a renamed-away inode would lock nothing.
func (l *Lock) write() error {
	h := l.holder
	fields := []jsonx.Field{{Name: "pid", Value: jsonx.Int(h.PID)}}
	if h.ClaudePID != 0 {
		fields = append(fields, jsonx.Field{Name: "claudePid", Value: jsonx.Int(h.ClaudePID)})
	}
	fields = append(fields,
		jsonx.Field{Name: "account", Value: jsonx.String(h.Account)},
		jsonx.Field{Name: "workspace", Value: jsonx.String(h.Workspace)},
		jsonx.Field{Name: "configDir", Value: jsonx.String(h.ConfigDir)},
		jsonx.Field{Name: "started", Value: jsonx.String(h.Started.Format(time.RFC3339Nano))})
	if h.Pane != "" {
		fields = append(fields, jsonx.Field{Name: "tmux", Value: jsonx.String(h.Tmux)},
			jsonx.Field{Name: "pane", Value: jsonx.String(h.Pane)})
	}
	data := jsonx.Object(false, fields...)
	// Write, then cut: a reader never sees an empty body, only the old or
	// the new one (or, for a moment, the new one with old bytes after it,
	// which it reads past: the body is one JSON value).
	data = append(data, '\n')
	if _, err := l.f.WriteAt(data, 0); err != nil {
		return err
	}
	return l.f.Truncate(int64(len(data)))
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

func readHolder(f *os.File) *Holder {
	var h Holder
	buf := make([]byte, 4096)
	n, _ := f.ReadAt(buf, 0)
	if json.NewDecoder(bytes.NewReader(buf[:n])).Decode(&h) != nil {
		return nil
	}
	return &h
}

// awaitHolder reads the holder of a lock someone has just taken: its body
// may not be written yet, so it looks again for up to 200 ms before giving up
// on naming a PID.
func awaitHolder(f *os.File) *Holder {
	for deadline := time.Now().Add(200 * time.Millisecond); ; time.Sleep(5 * time.Millisecond) {
		if h := readHolder(f); h != nil && h.PID > 0 || time.Now().After(deadline) {
			return h
		}
	}
}

// Held is one lock that someone holds now.
type Held struct {
	Holder
	Path string `json:"lockFile"`
}

// RunningIn answers, for a work tree, which accounts' launchers hold a lock
// in dir on it now (every holder names its work tree, canonical as
// detected). The locks are listed once, at the first question: most callers
// (a session's after-exit pass) never ask one. A dir that cannot be listed
// (one List refuses) answers none, and refused, when not nil, is told why
// once: no Claude of ours runs off such a dir, and a process that works in
// a worktree is found by its working directory.
func RunningIn(dir string, refused func(error)) func(toplevel string) []string {
	var held []Held
	listed := false
	return func(toplevel string) []string {
		if !listed {
			var err error
			held, err = List(dir, func(string) bool { return true })
			if err != nil && refused != nil {
				refused(err)
			}
			listed = true
		}
		canon, err := filepath.EvalSymlinks(toplevel)
		if err != nil {
			return nil
		}
		var out []string
		for _, h := range held {
			// As the file system names them: on macOS a launch in a
			// mis-cased cd holds the worktree under that spelling.
			if fsx.SameDir(h.Workspace, canon) {
				out = append(out, h.Account)
			}
		}
		return out
	}
}

// List returns the held locks in dir whose key match accepts, probing each
// with a shared non-blocking flock that is released at once. A dir Acquire
// would refuse is refused here too, with its fix (readable).
func List(dir string, match func(key string) bool) ([]Held, error) {
	if err := readable(dir); err != nil {
		return nil, err
	}
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Held
	for _, de := range des {
		name, ok := strings.CutSuffix(de.Name(), ".lock")
		key, _, _ := strings.Cut(name, ".") // account names have no dots
		if !ok || !de.Type().IsRegular() || !match(key) {
			continue
		}
		path := filepath.Join(dir, de.Name())
		if h := Probe(path); h != nil {
			out = append(out, Held{Holder: *h, Path: path})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// AccountKeys matches the lock keys of an account, outside git and in each
// workspace; an account whose name extends this one ("max-work" for "max")
// matches too, so callers check Holder.Account.
func AccountKeys(account string) func(string) bool {
	return func(key string) bool { return key == account || strings.HasPrefix(key, account+"-") }
}

// Unclean reports whether a holder of one of key's slots died without
// releasing it (a launcher killed with -9): the lock is free but its file
// still names the holder, which Release would have cleared. It returns 0
// when none did, else the last time (Unix nanoseconds) such a holder was
// known alive: its lock file's modification time, which Heartbeat keeps
// stamping while Claude runs. Claude ends with its launcher (the kernel
// tells it to), so what changed in its config dir until then may be its
// work; what changed later is not. A machine that lost power leaves no lock
// in a lock dir on tmpfs (XDG_RUNTIME_DIR): 0, and the session's changes are
// then treated like any made while no Claude ran.
func Unclean(dir, key string, slots int) int64 {
	if readable(dir) != nil {
		return 0 // Acquire refuses the dir next, and says why
	}
	var last int64
	for slot := 0; slot < slots; slot++ {
		path := filepath.Join(dir, Name(key, slot))
		fi, err := os.Lstat(path)
		if err != nil {
			if slot > 0 {
				break // slots are taken in order: none past a missing one
			}
			continue
		}
		if fi.Size() > 0 && fi.Mode().IsRegular() && Probe(path) == nil {
			last = max(last, fi.ModTime().UnixNano())
		}
	}
	return last
}

// Read returns what the lock file at path says of its holder, without
// probing the lock: for a holder that knows it holds it (its session's
// hooks). nil when it says nothing, or when its dir is one List refuses.
func Read(path string) *Holder {
	if readable(filepath.Dir(path)) != nil {
		return nil
	}
	f, err := openLock(path, syscall.O_RDONLY)
	if err != nil {
		return nil
	}
	defer f.Close()
	return readHolder(f)
}

// Probe returns the holder of the lock at path, or nil when it is free.
func Probe(path string) *Holder {
	f, err := openLock(path, syscall.O_RDONLY)
	if err != nil {
		return nil
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err == nil {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return nil
	}
	if h := readHolder(f); h != nil {
		return h
	}
	return &Holder{}
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
