package lock

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestUnclean(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "locks")
	if Unclean(dir, "max-1", 1) {
		t.Fatal("no lock file: not unclean")
	}
	l, err := Acquire(dir, "max-1", 1, Holder{PID: os.Getpid(), Account: "max", Started: time.Now()}, "here")
	if err != nil {
		t.Fatal(err)
	}
	if Unclean(dir, "max-1", 1) {
		t.Error("a lock held now is not an unclean end")
	}
	l.Release()
	if Unclean(dir, "max-1", 1) {
		t.Error("a released lock is a clean end")
	}
	// A holder killed with -9 leaves its body in the free lock file.
	if err := os.WriteFile(filepath.Join(dir, Name("max-1", 0)), []byte(`{"pid": 12345}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if !Unclean(dir, "max-1", 1) {
		t.Error("a free lock whose file names a holder is an unclean end")
	}
}
