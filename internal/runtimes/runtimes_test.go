package runtimes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRecord(t *testing.T) {
	root := t.TempDir()
	rec := filepath.Join(root, FileName)
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := Register(rec, a, Place{}); err != nil {
		t.Fatal(err)
	}
	r, err := Read(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Made(a) || r.Made(b) {
		t.Fatalf("Made(a) = %v, Made(b) = %v; want true, false", r.Made(a), r.Made(b))
	}
	// A dir put in its place (another inode) is not the one made.
	if err := os.Rename(a, a+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(a, 0o700); err != nil {
		t.Fatal(err)
	}
	if r.Made(a) {
		t.Error("a new dir at the recorded path is taken for the one made")
	}
	// Registering another forgets the runtime whose path now names another
	// dir, and one that is gone; b is kept.
	if err := Register(rec, b, Place{}); err != nil {
		t.Fatal(err)
	}
	if r, _ = Read(rec); r.Made(a) || !r.Made(b) || len(r.Runtimes) != 1 {
		t.Errorf("after registering b: %v", r.Runtimes)
	}
}

func TestQuiet(t *testing.T) {
	root := t.TempDir()
	rec := filepath.Join(root, FileName)
	dir := filepath.Join(root, "rt")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	before := filepath.Join(dir, "before")
	if err := os.WriteFile(before, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Register(rec, dir, Place{}); err != nil {
		t.Fatal(err)
	}
	r, _ := Read(rec)
	if r.Quiet(dir) != 0 {
		t.Fatal("a runtime just made is in use, not quiet")
	}
	if err := MarkQuiet(rec, dir, time.Now(), nil); err != nil {
		t.Fatal(err)
	}
	r, _ = Read(rec)
	q := r.Quiet(dir)
	if q == 0 {
		t.Fatal("MarkQuiet recorded nothing")
	}
	if ChangedSince(before, q) {
		t.Error("a file written before the launcher left is taken as changed since")
	}
	// Something written later (an archive extracted over it), even with an
	// old mtime, changed since: its inode change time says so. The kernel
	// stamps files from a coarse clock that lags time.Now by up to a tick:
	// wait, by polling, until a file written now is stamped after q.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		probe := filepath.Join(dir, "probe")
		if err := os.WriteFile(probe, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if ChangedSince(probe, q) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no file was stamped after the quiet time within a minute")
		}
		os.Remove(probe)
	}
	after := filepath.Join(dir, "after")
	if err := os.WriteFile(after, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(after, old, old); err != nil {
		t.Fatal(err)
	}
	if !ChangedSince(after, q) {
		t.Error("a file written after the launcher left is not seen as changed")
	}
	if ChangedSince(after, 0) {
		t.Error("with no quiet time known, nothing counts as changed")
	}
	// Nothing changed since the time recorded: the time stays, and the
	// record is not written (unchanged is asked with that time); when it
	// says something changed, the time moves on.
	fi, _ := os.Stat(rec)
	var asked int64
	if err := MarkQuiet(rec, dir, time.Now(), func(quiet int64) bool { asked = quiet; return true }); err != nil {
		t.Fatal(err)
	}
	if fi2, _ := os.Stat(rec); asked != q || !os.SameFile(fi, fi2) {
		t.Errorf("MarkQuiet with nothing changed: asked about %d (want %d), record rewritten %v", asked, q, !os.SameFile(fi, fi2))
	}
	if err := MarkQuiet(rec, dir, time.Now(), func(int64) bool { return false }); err != nil {
		t.Fatal(err)
	}
	if r, _ = Read(rec); r.Quiet(dir) <= q {
		t.Error("MarkQuiet with a change did not move the time on")
	}
	// A runtime the record does not name is not marked.
	other := filepath.Join(root, "other")
	_ = os.Mkdir(other, 0o700)
	if err := MarkQuiet(rec, other, time.Now(), nil); err != nil {
		t.Fatal(err)
	}
	if r, _ = Read(rec); r.Quiet(other) != 0 {
		t.Error("a runtime not made was marked")
	}
	// LeftAlone says, without writing, what MarkQuiet would do.
	for _, tc := range []struct {
		dir       string
		unchanged func(int64) bool
		want      bool
	}{
		{dir, func(int64) bool { return true }, true},
		{dir, func(int64) bool { return false }, false},
		{dir, nil, false},
		{other, func(int64) bool { return false }, true}, // not ours: nothing to write
	} {
		if got, err := LeftAlone(rec, tc.dir, tc.unchanged); err != nil || got != tc.want {
			t.Errorf("LeftAlone(%s) = %v, %v; want %v", tc.dir, got, err, tc.want)
		}
	}
	fresh := filepath.Join(root, "fresh")
	_ = os.Mkdir(fresh, 0o700)
	if err := Register(rec, fresh, Place{}); err != nil {
		t.Fatal(err)
	}
	if got, _ := LeftAlone(rec, fresh, func(int64) bool { return true }); got {
		t.Error("a runtime never left alone yet (quiet 0) counts as left alone")
	}
}

func TestReadDamaged(t *testing.T) {
	rec := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(rec, []byte(`{"runtimes": [1,`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Read(rec)
	if err == nil || !strings.Contains(err.Error(), rec+":1:") || !strings.Contains(err.Error(), "fix it or remove it") {
		t.Errorf("damaged record: %v", err)
	}
	if _, err := Read(filepath.Join(t.TempDir(), "missing")); err != nil {
		t.Errorf("a missing record is an empty one: %v", err)
	}
}

func TestCheckPlace(t *testing.T) {
	root := t.TempDir()
	acct := filepath.Join(root, "acct")
	mk := func(p string) string {
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mk(acct)
	rec := Path(acct)
	// A main worktree's runtime, recorded with its place.
	main := mk(filepath.Join(root, "app", ".git", "claude-runtime", "max"))
	here := Place{Worktree: filepath.Join(root, "app"), GitDir: filepath.Join(root, "app", ".git"), CommonDir: filepath.Join(root, "app", ".git")}
	if err := Register(rec, main, here); err != nil {
		t.Fatal(err)
	}
	// What its workspace.json says is never read.
	if err := os.WriteFile(filepath.Join(main, "workspace.json"), []byte(`{"toplevel":"/home/victim/.config/fish/conf.d","gitDir":".git/evil.git"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if rt := Check(acct, main); !rt.Made || !rt.Known || rt.Place != here {
		t.Errorf("Check(main) = %+v; want made, known, %+v", rt, here)
	}
	// A linked worktree's runtime of an earlier record (no place): its
	// work tree is the one git's gitdir file names, when that work tree's
	// .git names the git dir back.
	gitDir := filepath.Join(root, "app", ".git", "worktrees", "wt")
	linked := mk(filepath.Join(gitDir, "claude-runtime", "max"))
	wt := mk(filepath.Join(root, "wt"))
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(gitDir, "gitdir"), filepath.Join(wt, ".git")+"\n")
	write(filepath.Join(wt, ".git"), "gitdir: "+gitDir+"\n")
	if err := Register(rec, linked, Place{}); err != nil {
		t.Fatal(err)
	}
	rt := Check(acct, linked)
	if !rt.Made || rt.Known || rt.Place.Worktree != wt || rt.Place.CommonDir != filepath.Join(root, "app", ".git") {
		t.Errorf("Check(linked) = %+v; want made, not known, work tree %s", rt, wt)
	}
	// A work tree that names another git dir is not taken.
	write(filepath.Join(wt, ".git"), "gitdir: /elsewhere/.git/worktrees/x\n")
	if rt := Check(acct, linked); rt.Place.Worktree != "" {
		t.Errorf("Check(linked) with a work tree naming another git dir = %+v; want no work tree", rt)
	}
	// A dir in the place of the one made: listed, not made, with the reason.
	if err := os.Rename(main, main+".old"); err != nil {
		t.Fatal(err)
	}
	mk(main)
	all, err := List(acct)
	if err != nil || len(all) != 2 {
		t.Fatalf("List = %v, %v", all, err)
	}
	for _, rt := range all {
		if rt.Dir == main && (rt.Made || !strings.Contains(rt.Why, "another directory took the place")) {
			t.Errorf("a replaced runtime: %+v", rt)
		}
	}
	// A relative or unclean path in a hand-edited record is not believed.
	write(rec, `{"runtimes": {"`+linked+`": {"ino": 1, "worktree": "../../victim", "gitDir": "/a/../b", "commonDir": "/c"}}}`)
	r, err := Read(rec)
	if err != nil {
		t.Fatal(err)
	}
	if p := r.Runtimes[linked].Place; p.Worktree != "" || p.GitDir != "" || p.CommonDir != "/c" {
		t.Errorf("place read from a hand-edited record: %+v", p)
	}
}
