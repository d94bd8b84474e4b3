package runtimes

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzRead: any record reads without panicking, or is refused; one that
// reads encodes to a record that reads back the same (paths that are not
// valid UTF-8 too: encodePath), and every place it
// believes is a clean absolute path (a relative one would resolve against
// whatever directory a command runs in).
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"runtimes": {"/src/app/.git/claude-runtime/max": {"ino": 12, "quiet": 34, "worktree": "/src/app", "gitDir": "/src/app/.git", "commonDir": "/src/app/.git"}}}`))
	f.Add([]byte(`{"runtimes": {"/x": {"ino": 1, "worktree": "../../victim", "gitDir": "/a/../b"}}}`))
	f.Add([]byte(`{"runtimes": {}, "gone": {"/old/app/.git/claude-runtime/max": {"ino": 12, "dev": 2049, "quiet": 34, "gone": 56, "worktree": "/old/app"}}}`))
	f.Add([]byte(`{"runtimes": {}, "gone": [1]}`))
	f.Add([]byte(`{"runtimes": []}`))
	f.Add([]byte(`{"runtimes": {"a": {"ino": -1, "quiet": "x", "worktree": 5}}}`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), FileName)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := Read(path)
		if err != nil {
			return
		}
		for dir, e := range merged(r) {
			for _, p := range []string{e.Worktree, e.GitDir, e.CommonDir} {
				if p != "" && (!filepath.IsAbs(p) || filepath.Clean(p) != p) {
					t.Errorf("runtime %q: place %q believed", dir, p)
				}
			}
		}
		if err := os.WriteFile(path, r.Encode(), 0o600); err != nil {
			t.Fatal(err)
		}
		again, err := Read(path)
		if err != nil {
			t.Fatalf("the encoded record does not read: %v\n%s", err, r.Encode())
		}
		if !reflect.DeepEqual(r, again) {
			t.Errorf("read back %+v, want %+v", again, r)
		}
	})
}

// merged is every entry of r, runtimes and gone alike.
func merged(r *Record) map[string]Entry {
	m := map[string]Entry{}
	for _, from := range []map[string]Entry{r.Gone, r.Runtimes} {
		for p, e := range from {
			m[p] = e
		}
	}
	return m
}
