package lock

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestUnclean(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "locks")
	if Unclean(dir, "max-1", 1) != 0 {
		t.Fatal("no lock file: not unclean")
	}
	l, err := Acquire(dir, "max-1", 1, Holder{PID: os.Getpid(), Account: "max", Started: time.Now()}, "here")
	if err != nil {
		t.Fatal(err)
	}
	if Unclean(dir, "max-1", 1) != 0 {
		t.Error("a lock held now is not an unclean end")
	}
	l.Release()
	if Unclean(dir, "max-1", 1) != 0 {
		t.Error("a released lock is a clean end")
	}
	// A holder killed with -9 leaves its body in the free lock file; when
	// it was last stamped is when it was last known alive.
	path := filepath.Join(dir, Name("max-1", 0))
	if err := os.WriteFile(path, []byte(`{"pid": 12345}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	alive := time.Date(2026, 11, 25, 7, 0, 0, 0, time.UTC)
	if err := os.Chtimes(path, alive, alive); err != nil {
		t.Fatal(err)
	}
	if got := Unclean(dir, "max-1", 1); got != alive.UnixNano() {
		t.Errorf("a free lock whose file names a holder is an unclean end, alive until %d; got %d", alive.UnixNano(), got)
	}
}

func TestHeartbeat(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "locks")
	l, err := Acquire(dir, "max-1", 1, Holder{PID: os.Getpid(), Account: "max", Started: time.Now()}, "here")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(l.Path, old, old); err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	stop := l.Heartbeat()
	deadline := time.Now().Add(10 * HeartbeatEvery)
	for {
		fi, err := os.Stat(l.Path)
		if err != nil {
			t.Fatal(err)
		}
		if !fi.ModTime().Before(before.Truncate(time.Microsecond)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lock was not stamped within %v", 10*HeartbeatEvery)
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop()
}

// BenchmarkAcquireRelease is a session's instance lock, taken and released.
func BenchmarkAcquireRelease(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "locks")
	h := Holder{PID: os.Getpid(), Account: "max", Started: time.Now()}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		l, err := Acquire(dir, "max-1", 1, h, "here")
		if err != nil {
			b.Fatal(err)
		}
		l.Release()
	}
}
