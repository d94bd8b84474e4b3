package worktree

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/runtimes"
)

// keptFixture is an account dir and a runtime the account's record says
// the launcher made, in a repository under root, with one transcript.
func keptFixture(t *testing.T, accountDir, root string) (runtime, transcript string) {
	t.Helper()
	common := filepath.Join(root, "repo", ".git")
	runtime = filepath.Join(common, "worktrees", "feat", "claude-runtime", "max")
	if err := os.MkdirAll(filepath.Join(runtime, "projects", "-k"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(accountDir, 0o700); err != nil {
		t.Fatal(err)
	}
	place := runtimes.Place{Worktree: filepath.Join(root, "feat"), GitDir: filepath.Join(common, "worktrees", "feat"), CommonDir: common}
	if err := runtimes.Register(runtimes.Path(accountDir), runtime, place); err != nil {
		t.Fatal(err)
	}
	transcript = filepath.Join(runtime, "projects", "-k", "12345678-1234-4234-8234-123456789abc.jsonl")
	if err := os.WriteFile(transcript, []byte(`{"type":"user","cwd":"/x"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return runtime, transcript
}

// keep runs FindUnkept and KeepCopies as the after-exit pass does, the
// transcripts written after since.
func keep(t *testing.T, accountDir, runtime string, since int64) (Kept, string) {
	t.Helper()
	rt := runtimes.Check(accountDir, runtime)
	copies := CopiesDir(accountDir, rt.Place.CommonDir, runtime)
	todo, _ := FindUnkept(runtime, func() string { return copies }, since, !rt.Kept, rt.Quiet)
	k, err := KeepCopies(accountDir, runtime, copies, todo, false, time.Now(), 30*24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return k, filepath.Join(copies, "projects", "-k", "12345678-1234-4234-8234-123456789abc.jsonl")
}

func TestKeepCopiesLinks(t *testing.T) {
	root := t.TempDir()
	accountDir := filepath.Join(root, "account")
	runtime, src := keptFixture(t, accountDir, root)
	k, dst := keep(t, accountDir, runtime, 1)
	if k.Linked != 1 || k.Copied != 0 {
		t.Fatalf("kept %+v, want one hard link", k)
	}
	a, _ := os.Stat(src)
	b, err := os.Lstat(dst)
	if err != nil || !os.SameFile(a, b) || b.Mode().Perm() != 0o600 {
		t.Fatalf("%s: %v, same file %v, mode %v; want a hard link of mode 0600", dst, err, err == nil && os.SameFile(a, b), b.Mode())
	}
	if k, _ := keep(t, accountDir, runtime, 1); k.Linked+k.Copied != 0 {
		t.Errorf("a second pass kept %+v again", k)
	}
}

// TestKeepCopiesAcrossFileSystems: an account dir on another file system
// than the repository (here /dev/shm, a tmpfs) gets a copy, with the
// transcript's time, where link(2) says EXDEV; and a new copy once the
// transcript grew.
func TestKeepCopiesAcrossFileSystems(t *testing.T) {
	shm, err := os.MkdirTemp("/dev/shm", "kept-")
	if err != nil {
		t.Skip("no /dev/shm to put the account dir on another file system: ", err)
	}
	t.Cleanup(func() { os.RemoveAll(shm) })
	root := t.TempDir()
	if same(t, shm, root) {
		t.Skip("/dev/shm is on the same file system as ", root)
	}
	accountDir := filepath.Join(shm, "account")
	runtime, src := keptFixture(t, accountDir, root)
	k, dst := keep(t, accountDir, runtime, 1)
	if k.Copied != 1 || k.Linked != 0 || !strings.Contains(k.CopiedWhy, "cross-device") {
		t.Fatalf("kept %+v, want one copy, because of EXDEV", k)
	}
	a, _ := os.Stat(src)
	b, err := os.Lstat(dst)
	if err != nil || !b.ModTime().Equal(a.ModTime()) || b.Mode().Perm() != 0o600 {
		t.Fatalf("%s: %v; want a copy with the transcript's time, mode 0600", dst, err)
	}
	// The next session started after the file last changed (its clock, the
	// kernel's, ticks coarser than Go's: taken from the file itself).
	since := runtimes.Ctime(a) - 1
	f, err := os.OpenFile(src, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"user","cwd":"/x","message":"more"}` + "\n")
	f.Close()
	if k, _ := keep(t, accountDir, runtime, since); k.Copied != 1 {
		t.Fatalf("after the transcript grew, kept %+v, want it copied again", k)
	}
	if data, _ := os.ReadFile(dst); !strings.Contains(string(data), "more") {
		t.Errorf("the copy lacks the new turn: %s", data)
	}
}

func same(t *testing.T, a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	return devOf(fa) == devOf(fb)
}

func devOf(fi fs.FileInfo) uint64 { return uint64(fi.Sys().(*syscall.Stat_t).Dev) }
