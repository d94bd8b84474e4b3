package fsx_test

// Hardening of the one helper every write goes through: secrets are 0600
// from the first byte to the last, whatever mode the file had before, and
// the temporary file lives next to the target (as the package documents),
// never in $TMPDIR, where a crash would strand a copy of a secret.

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/fsx"
)

// renameio's temporary files and probes: "." + base name + a decimal number.
var tempName = regexp.MustCompile(`^\..+\d+$`)

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// TestHardenWriteSecretTightensMode: a .claude.json or .credentials.json
// that is 0644 (made by hand, restored from a backup) must come out 0600:
// WriteSecret promises "mode 0600 exactly".
func TestHardenWriteSecretTightensMode(t *testing.T) {
	for _, before := range []os.FileMode{0o644, 0o666, 0o640, 0o400} {
		dir := t.TempDir()
		path := filepath.Join(dir, ".claude.json")
		if err := os.WriteFile(path, []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, before); err != nil {
			t.Fatal(err)
		}
		if err := fsx.WriteSecret(path, []byte(`{"oauthAccount": {"token": "x"}}`)); err != nil {
			t.Fatal(err)
		}
		if got := mode(t, path); got != 0o600 {
			t.Errorf("WriteSecret over a %#o file left mode %#o, want 0600", before, got)
		}
	}
}

// TestHardenWriteSecretNewFileIgnoresUmask: with umask 0 a new secret is
// still 0600, not 0600 &^ umask widened somewhere.
func TestHardenWriteSecretNewFileIgnoresUmask(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), ".credentials.json")
	if err := fsx.WriteSecret(path, []byte(`{"claudeAiOauth": {}}`)); err != nil {
		t.Fatal(err)
	}
	if got := mode(t, path); got != 0o600 {
		t.Errorf("new secret has mode %#o, want 0600", got)
	}
}

// TestHardenWriteSecretNoWiderWindow watches the directories a temporary
// file can be in while a large secret is written over a 0644 file, and
// records the mode of every temporary file seen: none may be wider than
// 0600 at any moment.
func TestHardenWriteSecretNoWiderWindow(t *testing.T) {
	dir := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	path := filepath.Join(dir, ".claude.json")
	if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte(" "), 96<<20)
	data[0], data[len(data)-1] = '{', '}'

	var stop atomic.Bool
	var mu sync.Mutex
	seen := map[string]os.FileMode{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			for _, d := range []string{dir, tmp} {
				des, _ := os.ReadDir(d)
				for _, de := range des {
					if !tempName.MatchString(de.Name()) {
						continue
					}
					if fi, err := os.Lstat(filepath.Join(d, de.Name())); err == nil {
						mu.Lock()
						seen[filepath.Join(d, de.Name())] |= fi.Mode().Perm()
						mu.Unlock()
					}
				}
			}
			time.Sleep(200 * time.Microsecond)
		}
	}()
	err := fsx.WriteSecret(path, data)
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 {
		t.Log("no temporary file was caught in the act; only the final mode is checked")
	}
	for p, m := range seen {
		if m&^0o600 != 0 {
			t.Errorf("temporary file %s had mode %#o while the secret was written, want 0600 at most", p, m)
		}
	}
	if got := mode(t, path); got != 0o600 {
		t.Errorf("%s has mode %#o after WriteSecret, want 0600", path, got)
	}
}

// TestHardenTempFileInTargetDir: the package says "a temporary file in the
// same directory". With $TMPDIR on the same file system, renameio (without
// WithTempDir) makes its temporary file, and a probe, in $TMPDIR instead; a
// kill -9 then strands a full copy of .claude.json there. Nothing may be
// created in $TMPDIR: its mtime must not move.
func TestHardenTempFileInTargetDir(t *testing.T) {
	dir := t.TempDir()
	tmp := t.TempDir() // same file system as dir
	t.Setenv("TMPDIR", tmp)
	past := time.Now().Add(-time.Hour).Truncate(time.Second)
	for name, write := range map[string]func(string) error{
		"WriteFile":      func(p string) error { return fsx.WriteFile(p, []byte("{}\n"), 0o600) },
		"WriteSecret":    func(p string) error { return fsx.WriteSecret(p, []byte("{}\n")) },
		"WriteIfChanged": func(p string) error { _, err := fsx.WriteIfChanged(p, []byte("{\"a\": 1}\n"), 0o600); return err },
	} {
		if err := os.Chtimes(tmp, past, past); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name+".json")
		if err := write(path); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fi, err := os.Stat(tmp)
		if err != nil {
			t.Fatal(err)
		}
		if !fi.ModTime().Equal(past) {
			t.Errorf("%s created and removed files in $TMPDIR (%s), not in %s: pass renameio.WithTempDir(filepath.Dir(path))", name, tmp, dir)
		}
		des, _ := os.ReadDir(tmp)
		for _, de := range des {
			t.Errorf("%s left %s in $TMPDIR", name, de.Name())
		}
		des, _ = os.ReadDir(dir)
		for _, de := range des {
			if tempName.MatchString(de.Name()) {
				t.Errorf("%s left %s next to the target", name, de.Name())
			}
		}
	}
}
