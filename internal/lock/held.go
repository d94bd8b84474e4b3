package lock

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/claude-account/claude-account/internal/fsx"
)

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
