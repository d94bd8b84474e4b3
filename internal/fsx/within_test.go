package fsx

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestWithinAsDarwin compares paths as macOS's file systems do, on
// identities recorded after APFS's behaviour (not recorded on a Mac: no
// macOS machine runs these tests): a directory reached by a mis-cased cd
// or by the other Unicode normalisation is the same directory, the same
// device and inode; Claude's cwd is reported as it was typed.
func TestWithinAsDarwin(t *testing.T) {
	const wt = "/Users/u/src/app/.claude/worktrees/"
	ids := map[string]FileID{
		"/":                                      {1, 2},
		"/Users":                                 {1, 3},
		"/Users/u":                               {1, 4},
		"/Users/u/src":                           {1, 5},
		"/Users/u/src/app":                       {1, 6},
		"/Users/u/src/App":                       {1, 6},
		"/Users/u/src/app/.claude":               {1, 7},
		"/Users/u/src/App/.claude":               {1, 7},
		wt[:len(wt)-1]:                           {1, 8},
		"/Users/u/src/App/.claude/worktrees":     {1, 8},
		wt + "fix":                               {1, 10},
		"/Users/u/src/App/.claude/worktrees/Fix": {1, 10},
		"/Users/u/src/App/.claude/worktrees/Fix/web": {1, 11},
		wt + "fix2":        {1, 12},
		wt + "caf\u00e9":   {1, 13}, // NFC, as the worktree was named
		wt + "cafe\u0301":  {1, 13}, // NFD, as a shell may pass it
		"/private/tmp/app": {1, 14},
		"/tmp/app":         {1, 14}, // /tmp is a link to /private/tmp
	}
	recorded := func(p string) (FileID, bool) { id, ok := ids[p]; return id, ok }
	for _, c := range []struct {
		p, root string
		want    bool
	}{
		{wt + "fix", wt + "fix", true},
		{"/Users/u/src/App/.claude/worktrees/Fix", wt + "fix", true},
		{"/Users/u/src/App/.claude/worktrees/Fix/web", wt + "fix", true},
		{"/Users/u/src/App/.claude/worktrees/Fix/web/gone", wt + "fix", true}, // a parent is it
		{wt + "cafe\u0301/src", wt + "caf\u00e9", true},
		{"/tmp/app/x", "/private/tmp/app", true},
		{wt + "fix2", wt + "fix", false},
		{wt[:len(wt)-1], wt + "fix", false},
		{"/Users/u/src/app", wt + "fix", false},
		// Where root cannot be stat'ed (gone), names are folded.
		{"/Users/u/src/APP/.claude/worktrees/OLD/x", wt + "old", true},
		{wt + "Cafe\u0301-old", wt + "caf\u00e9-old", true},
		{wt + "\u00c9t\u00e9/x", wt + "E\u0301te\u0301", true},
		{wt + "old2", wt + "old", false},
		{wt + "cafe-old", wt + "caf\u00e9-old", false}, // a mark is no case
		{wt[:len(wt)-1], wt + "old", false},
	} {
		if got := WithinAs(c.p, c.root, true, recorded); got != c.want {
			t.Errorf("WithinAs(%q, %q) folding = %v, want %v", c.p, c.root, got, c.want)
		}
	}
	// A file system that does not fold (Linux) compares bytes.
	if WithinAs("/Users/u/src/App/.claude/worktrees/Fix", wt+"fix", false, recorded) {
		t.Error("WithinAs without folding took Fix for fix")
	}
	if !WithinAs(wt+"fix/web", wt+"fix", false, recorded) || !WithinAs(wt+"fix", wt+"fix/", false, recorded) {
		t.Error("WithinAs without folding missed a path below root")
	}
}

// Within is this system's comparison: bytes on Linux, whose file systems
// do not fold; on this machine the identity part runs for real, through a
// link.
func TestWithin(t *testing.T) {
	if NamesFold != (runtime.GOOS == "darwin") {
		t.Fatalf("NamesFold = %v on %s", NamesFold, runtime.GOOS)
	}
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "wt")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if !WithinAs(filepath.Join(link, "sub"), dir, true, nil) || !WithinAs(filepath.Join(link, "sub", "gone"), dir, true, nil) {
		t.Error("WithinAs folding: a path through a link to root is not within it")
	}
	if WithinAs(tmp, dir, true, nil) {
		t.Error("WithinAs folding: root's parent is within root")
	}
	if !NamesFold && Within(filepath.Join(tmp, "WT"), dir) {
		t.Error("Within folds case on a system whose file systems do not")
	}
	if !SameDir(dir, dir) || !SameDir(dir, dir+"/") || SameDir(dir, filepath.Join(dir, "sub")) {
		t.Error("SameDir: a dir is not itself, or is its own subdirectory")
	}
}

func TestFoldName(t *testing.T) {
	for in, want := range map[string]string{
		"plain":               "plain",
		"caf\u00e9":           "cafe\u0301",
		"cafe\u0301":          "cafe\u0301",
		"\u00c5ngstr\u00f6m":  "A\u030angstro\u0308m",
		"\u017b\u00f3\u0142w": "Z\u0307o\u0301\u0142w", // ł has no decomposition
		"日本":                  "日本",
	} {
		if got := foldName(in); got != want {
			t.Errorf("foldName(%q) = %q, want %q", in, got, want)
		}
	}
}
