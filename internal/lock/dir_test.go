package lock

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/claude-account/claude-account/internal/env"
)

// TestDirFor: where the locks are on each system, decided on any.
func TestDirFor(t *testing.T) {
	uid := strconv.Itoa(os.Getuid())
	const tmpdir = "/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/"
	for _, c := range []struct {
		goos string
		e    env.Env
		want string
	}{
		{"linux", env.Env{"XDG_RUNTIME_DIR": "/run/user/1000", "HOME": "/home/u"}, "/run/user/1000/claude-account"},
		{"linux", env.Env{"TMPDIR": "/tmp/u", "HOME": "/home/u"}, "/tmp/u/claude-account-" + uid},
		{"linux", env.Env{"HOME": "/home/u"}, "/tmp/claude-account-" + uid},
		// macOS sweeps $TMPDIR and /tmp of files unread for 3 days: never there.
		{"darwin", env.Env{"TMPDIR": tmpdir, "HOME": "/Users/u"}, "/Users/u/.local/state/claude-account/locks"},
		{"darwin", env.Env{"HOME": "/Users/u", "XDG_STATE_HOME": "/Users/u/state"}, "/Users/u/state/claude-account/locks"},
		{"darwin", env.Env{"XDG_RUNTIME_DIR": "/Users/u/run", "HOME": "/Users/u"}, "/Users/u/run/claude-account"},
	} {
		got := dirFor(c.e, c.goos)
		if got != c.want {
			t.Errorf("%s %v: %s, want %s", c.goos, c.e, got, c.want)
		}
		if c.goos == "darwin" && strings.HasPrefix(got, tmpdir) {
			t.Errorf("darwin: %s is in $TMPDIR", got)
		}
	}
}

// On macOS the lock dir is made inside the state dir, private, and a link
// planted there is refused as anywhere.
func TestDirForDarwinPrivate(t *testing.T) {
	home := t.TempDir()
	dir := dirFor(env.Env{"HOME": home}, "darwin")
	if err := EnsureDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, filepath.Dir(dir)} {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o700 || !fi.IsDir() {
			t.Errorf("%s: %v, want a 0700 dir", p, fi.Mode())
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), dir); err != nil {
		t.Fatal(err)
	}
	if err := EnsureDir(dir); err == nil || !strings.Contains(err.Error(), "is a symlink") {
		t.Errorf("a link as the lock dir: %v, want it refused", err)
	}
}

func TestTmux(t *testing.T) {
	for pane, want := range map[string]bool{"%0": true, "%123": true, "": false, "%": false, "3": false, "%3;x": false, "%-1": false, "%1234567890123": false} {
		if ValidPane(pane) != want {
			t.Errorf("ValidPane(%q) = %v", pane, !want)
		}
	}
	for tmux, want := range map[string]string{"/tmp/tmux-1000/default,123,0": "/tmp/tmux-1000/default", "/s": "/s", "": "", "rel,1,0": "", ",1,0": ""} {
		if got := TmuxSocket(tmux); got != want {
			t.Errorf("TmuxSocket(%q) = %q, want %q", tmux, got, want)
		}
	}
}

// TestReadersRefuseOpenDir: a lock dir others may write in is believed by
// no reader, as Acquire takes no lock there: List says why, with Acquire's
// words, and lists nothing; Read, Unclean and RunningIn find no holder.
func TestReadersRefuseOpenDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "locks")
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l, err := Acquire(dir, "max", 1, Holder{PID: 12345, Account: "max", Workspace: ws}, "here")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if err := os.WriteFile(filepath.Join(dir, Name("max-1", 0)), []byte(`{"pid": 12345}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	want := CheckDir(dir)
	if want == nil {
		t.Fatal("CheckDir takes a 0777 dir")
	}
	held, err := List(dir, func(string) bool { return true })
	if err == nil || err.Error() != want.Error() || held != nil {
		t.Errorf("List = %v, %v; want nothing and %q", held, err, want)
	}
	if h := Read(l.Path); h != nil {
		t.Errorf("Read = %+v, want nil", h)
	}
	if got := Unclean(dir, "max-1", 1); got != 0 {
		t.Errorf("Unclean = %d, want 0", got)
	}
	var told []error
	running := RunningIn(dir, func(err error) { told = append(told, err) })
	if got := running(ws); got != nil {
		t.Errorf("RunningIn = %v, want none", got)
	}
	running(ws)
	if len(told) != 1 || told[0].Error() != want.Error() {
		t.Errorf("RunningIn told %v, want %q once", told, want)
	}
}

// A lock file another user left in the dir (planted while it was open to
// others) names no holder for any reader, and Acquire refuses it with the
// fix. Needs root, to make a file of another user.
func TestLockFileOfAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to make a file another user owns")
	}
	dir := filepath.Join(t.TempDir(), "locks")
	if err := EnsureDir(dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, Name("max", 0))
	if err := os.WriteFile(path, []byte(`{"pid": 1, "account": "max"}`), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if h := Probe(path); h != nil {
		t.Errorf("Probe believed another user's lock file: %+v", h)
	}
	if h := Read(path); h != nil {
		t.Errorf("Read believed another user's lock file: %+v", h)
	}
	if held, err := List(dir, AccountKeys("max")); err != nil || len(held) != 0 {
		t.Errorf("List = %v, %v; want nothing", held, err)
	}
	_, err = Acquire(dir, "max", 1, Holder{Account: "max"}, "here")
	if err == nil || !strings.Contains(err.Error(), "belongs to uid 65534, not to you (uid 0); remove it") {
		t.Errorf("Acquire = %v; want it refused with the fix", err)
	}
}
