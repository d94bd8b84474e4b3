package fsx

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 511, 512, 513, 1 << 20} {
		want := bytes.Repeat([]byte{'x'}, size)
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, want, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(p)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("size %d: got %d bytes, %v", size, len(got), err)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v, want fs.ErrNotExist", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no mkfifo:", err)
	}
	// A FIFO with no writer must not block: O_NONBLOCK makes the read end at once.
	if got, err := ReadFile(fifo); err != nil || len(got) != 0 {
		t.Fatalf("fifo: %q, %v", got, err)
	}
}

// TestReadFileNoFollow: a file is read up to one byte past the limit; a
// link is refused, never followed; a FIFO does not block.
func TestReadFileNoFollow(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ size, limit, want int }{
		{0, 10, 0}, {10, 10, 10}, {11, 10, 11}, {5000, 10, 11}, {600, 1 << 20, 600}, {1 << 20, 1 << 20, 1 << 20},
	} {
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, bytes.Repeat([]byte{'x'}, tc.size), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFileNoFollow(p, tc.limit)
		if err != nil || len(got) != tc.want {
			t.Fatalf("size %d, limit %d: got %d bytes, %v; want %d", tc.size, tc.limit, len(got), err, tc.want)
		}
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "f"), link); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFileNoFollow(link, 10); !errors.Is(err, syscall.ELOOP) {
		t.Fatalf("link: %d bytes, %v; want ELOOP", len(got), err)
	}
	// ReadFileLimit follows it, and reads all with no limit.
	if got, err := ReadFileLimit(link, -1); err != nil || len(got) != 1<<20 {
		t.Fatalf("ReadFileLimit(link, -1): %d bytes, %v; want %d", len(got), err, 1<<20)
	}
	if _, err := ReadFileNoFollow(filepath.Join(dir, "missing"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v, want fs.ErrNotExist", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no mkfifo:", err)
	}
	if got, err := ReadFileNoFollow(fifo, 10); err != nil || len(got) != 0 {
		t.Fatalf("fifo: %q, %v", got, err)
	}
}

func TestWriteSecretPieces(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".claude.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteSecretPieces(p, [][]byte{[]byte("{"), []byte(`"a":1`), []byte("}")}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(got) != `{"a":1}` || fi.Mode().Perm() != 0o600 {
		t.Fatalf("got %q mode %v; want {\"a\":1} 0600", got, fi.Mode().Perm())
	}
}

// TestWriteUnsynced: the file is replaced whole, at the mode given (not the
// old file's), under a temporary name IsTemp knows, and nothing is left
// behind when the write fails.
func TestWriteUnsynced(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "max-0123456789abcdef.json")
	if err := os.WriteFile(p, []byte("old, and longer than the new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteUnsynced(p, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(got) != "new" || fi.Mode().Perm() != 0o600 {
		t.Fatalf("got %q mode %v; want \"new\" 0600", got, fi.Mode().Perm())
	}
	for i := 0; i < 100; i++ {
		if tmp := tempName(p); filepath.Dir(tmp) != dir || !IsTemp(filepath.Base(tmp), filepath.Base(p)) {
			t.Fatalf("temporary name %s is not one IsTemp knows for %s in its dir", tmp, p)
		}
	}
	// The rename fails over a directory: its temporary file goes too.
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := WriteUnsynced(sub, []byte("x"), 0o600); err == nil {
		t.Fatal("a directory was replaced by a file")
	}
	if des, _ := os.ReadDir(dir); len(des) != 2 {
		t.Fatalf("left behind: %v; want only the file and sub", des)
	}
	if err := WriteUnsynced(filepath.Join(dir, "missing", "f"), nil, 0o600); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("in a missing dir: %v, want fs.ErrNotExist", err)
	}
}

// BenchmarkWriteFile and BenchmarkWriteUnsynced are a session state's write
// (a few hundred bytes, replaced) durably and not: the fsyncs WriteUnsynced
// saves are most of WriteFile's cost on a disk.
func BenchmarkWriteFile(b *testing.B) {
	benchmarkWrite(b, func(p string, data []byte) error { return WriteFile(p, data, 0o600) })
}

func BenchmarkWriteUnsynced(b *testing.B) {
	benchmarkWrite(b, func(p string, data []byte) error { return WriteUnsynced(p, data, 0o600) })
}

func benchmarkWrite(b *testing.B, write func(string, []byte) error) {
	p := filepath.Join(b.TempDir(), "max-0123456789abcdef.json")
	data := bytes.Repeat([]byte{'s'}, 300)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := write(p, data); err != nil {
			b.Fatal(err)
		}
	}
}

func TestSymlinkRefusesToReplaceAFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "commands")
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Symlink("/elsewhere", p); err == nil {
		t.Fatal("a directory was replaced by a link")
	}
	l := filepath.Join(dir, "link")
	if changed, err := Symlink("/a", l); err != nil || !changed {
		t.Fatalf("new link: %v, %v", changed, err)
	}
	if changed, err := Symlink("/a", l); err != nil || changed {
		t.Fatalf("same link again: changed=%v, %v; want no change", changed, err)
	}
	if changed, err := Symlink("/b", l); err != nil || !changed {
		t.Fatalf("retarget: %v, %v", changed, err)
	}
	if got, _ := os.Readlink(l); got != "/b" {
		t.Fatalf("link points to %s, want /b", got)
	}
}

func TestMap(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 10, mapMin - 1, mapMin, 3*mapMin + 7} {
		want := bytes.Repeat([]byte{'y'}, size)
		p := filepath.Join(dir, "m")
		if err := os.WriteFile(p, want, 0o600); err != nil {
			t.Fatal(err)
		}
		got, release, err := Map(p)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("size %d: %d bytes, %v", size, len(got), err)
		}
		release()
	}
	if _, release, err := Map(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	} else {
		release()
	}
}

func TestGuardTurnsATruncatedMappingIntoAnError(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(p, bytes.Repeat([]byte{'z'}, 4*mapMin), 0o600); err != nil {
		t.Fatal(err)
	}
	data, release, err := Map(p)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	err = Guard(p, func() error {
		sum := 0
		for _, b := range data {
			sum += int(b)
		}
		t.Logf("read %d", sum)
		return nil
	})
	if err == nil {
		t.Fatal("reading a truncated mapping gave no error")
	}
}

func TestRename(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "a", "f"), filepath.Join(dir, "b", "f")
	for _, d := range []string{filepath.Dir(from), filepath.Dir(to)} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(from, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Rename(from, to); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(from); !os.IsNotExist(err) {
		t.Errorf("%s still there: %v", from, err)
	}
	if data, err := os.ReadFile(to); err != nil || string(data) != "x" {
		t.Errorf("%s = %q, %v", to, data, err)
	}
	// The rename's own error is os.Rename's, unwrapped.
	if err := Rename(from, to); !os.IsNotExist(err) {
		t.Errorf("Rename of a missing file = %v, want not-exist", err)
	}
}
