package runtimes

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// quietRuntime makes a runtime dir at dir, records it in rec and marks it
// left alone once its inode change time is behind (the kernel's clock lags
// time.Now: poll, never sleep a fixed time).
func quietRuntime(t *testing.T, rec, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Register(rec, dir, Place{Worktree: "/w/app", GitDir: "/w/app/.git", CommonDir: "/w/app/.git"}); err != nil {
		t.Fatal(err)
	}
	if err := MarkQuiet(rec, dir, time.Now(), nil); err != nil {
		t.Fatal(err)
	}
}

// later waits until a change made now is stamped after the quiet time of
// dir in rec, so that what the test changes next counts as changed since.
func later(t *testing.T, rec, dir string) {
	t.Helper()
	r, _ := Read(rec)
	q := r.Runtimes[dir].Quiet
	probe := filepath.Join(t.TempDir(), "probe")
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		if err := os.WriteFile(probe, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if ChangedSince(probe, q) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no file was stamped after the quiet time within a minute")
		}
	}
}

func TestMovedRuntime(t *testing.T) {
	root := t.TempDir()
	rec := filepath.Join(root, FileName)
	old := filepath.Join(root, "app", ".git", "claude-runtime", "max")
	quietRuntime(t, rec, old)
	r, _ := Read(rec)
	quiet := r.Runtimes[old].Quiet

	// The repository moved whole: found by its inode, where it was.
	if err := os.Rename(filepath.Join(root, "app"), filepath.Join(root, "app2")); err != nil {
		t.Fatal(err)
	}
	now := filepath.Join(root, "app2", ".git", "claude-runtime", "max")
	rt := r.Check(now)
	if !rt.Made || rt.From != old || rt.Quiet != quiet || !rt.Known || rt.Place.Worktree != "/w/app" {
		t.Fatalf("Check after a move = %+v; want made, from %s, quiet %d, its old place", rt, old, quiet)
	}
	// Another account's runtime of that inode is not this one.
	if rt := r.Check(filepath.Join(root, "app2", ".git", "claude-runtime", "pro")); rt.Made {
		t.Error("a dir of another name is taken for the moved one")
	}

	// Registered at its new path, it keeps its quiet time, and the old
	// path is forgotten.
	if err := Register(rec, now, Place{Worktree: "/w/app2"}); err != nil {
		t.Fatal(err)
	}
	r, _ = Read(rec)
	if e, ok := r.Runtimes[now]; !ok || e.Quiet != quiet {
		t.Errorf("registered after the move: %+v; want the quiet time %d kept", e, quiet)
	}
	if _, ok := r.Runtimes[old]; ok {
		t.Error("the old path is still recorded")
	}
	if _, ok := r.Gone[old]; ok {
		t.Error("the old path is still remembered as gone")
	}
}

func TestMovedRuntimeFoundAfterOtherLaunches(t *testing.T) {
	root := t.TempDir()
	rec := filepath.Join(root, FileName)
	old := filepath.Join(root, "app", "max")
	quietRuntime(t, rec, old)
	if err := os.Rename(filepath.Join(root, "app"), filepath.Join(root, "app2")); err != nil {
		t.Fatal(err)
	}
	// A launch elsewhere first: the runtime gone from its path is kept
	// among the gone, and found where it is now.
	quietRuntime(t, rec, filepath.Join(root, "other", "max"))
	r, _ := Read(rec)
	if _, ok := r.Gone[old]; !ok {
		t.Fatalf("the moved runtime is forgotten: %+v", r)
	}
	if rt := r.Check(filepath.Join(root, "app2", "max")); !rt.Made || rt.From != old {
		t.Errorf("Check after a move and another launch = %+v", rt)
	}
}

func TestMovedRuntimeNotProven(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, rec, now string, r *Record)
	}{
		{"changed since the launcher left it", func(t *testing.T, rec, now string, r *Record) {
			// A file made in it after the move (an archive extracted over
			// the moved checkout): the dir changed since Quiet.
			later(t, rec, filepath.Join(filepath.Dir(filepath.Dir(now)), "app", "max"))
			if err := os.WriteFile(filepath.Join(now, ".credentials.json"), []byte("{}"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"never left quiet", func(t *testing.T, rec, now string, r *Record) {
			for p, e := range r.Runtimes {
				e.Quiet = 0
				r.Runtimes[p] = e
			}
		}},
		{"another device", func(t *testing.T, rec, now string, r *Record) {
			for p, e := range r.Runtimes {
				e.Dev++
				r.Runtimes[p] = e
			}
		}},
		{"a record of an earlier version, without its device", func(t *testing.T, rec, now string, r *Record) {
			for p, e := range r.Runtimes {
				e.Dev = 0
				r.Runtimes[p] = e
			}
		}},
		{"another inode", func(t *testing.T, rec, now string, r *Record) {
			for p, e := range r.Runtimes {
				e.Ino++
				r.Runtimes[p] = e
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			rec := filepath.Join(root, FileName)
			quietRuntime(t, rec, filepath.Join(root, "app", "max"))
			if err := os.Rename(filepath.Join(root, "app"), filepath.Join(root, "app2")); err != nil {
				t.Fatal(err)
			}
			now := filepath.Join(root, "app2", "max")
			r, _ := Read(rec)
			tc.change(t, rec, now, r)
			if rt := r.Check(now); rt.Made {
				t.Errorf("taken for the moved runtime: %+v", rt)
			}
		})
	}
}

func TestMovedRuntimeLinkLeftBehind(t *testing.T) {
	// mv app app2; ln -s app2 app: the path recorded still reaches the dir,
	// by a link; it is the same dir, not a copy.
	root := t.TempDir()
	rec := filepath.Join(root, FileName)
	old := filepath.Join(root, "app", "max")
	quietRuntime(t, rec, old)
	if err := os.Rename(filepath.Join(root, "app"), filepath.Join(root, "app2")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("app2", filepath.Join(root, "app")); err != nil {
		t.Fatal(err)
	}
	r, _ := Read(rec)
	if rt := r.Check(filepath.Join(root, "app2", "max")); !rt.Made || rt.From != old {
		t.Errorf("Check with a link left behind = %+v; want made, from %s", rt, old)
	}
	// A copy beside it is another inode: never it.
	if err := os.MkdirAll(filepath.Join(root, "copy", "max"), 0o700); err != nil {
		t.Fatal(err)
	}
	if rt := r.Check(filepath.Join(root, "copy", "max")); rt.Made {
		t.Errorf("a copy is taken for the moved runtime: %+v", rt)
	}
}

func TestForgetGone(t *testing.T) {
	r := &Record{Runtimes: map[string]Entry{}, Gone: map[string]Entry{}}
	now := time.Now().UnixNano()
	r.Gone["/old"] = Entry{Ino: 1, Dev: 1, Quiet: 1, Gone: now - int64(goneFor) - 1}
	for i := range goneMax + 3 {
		r.Gone[filepath.Join("/gone", string(rune('a'+i)))] = Entry{Ino: 2, Dev: 1, Quiet: 1, Gone: now - int64(i)}
	}
	r.forget(now)
	if _, ok := r.Gone["/old"]; ok {
		t.Error("a runtime gone longer than goneFor is remembered")
	}
	if len(r.Gone) != goneMax {
		t.Errorf("%d remembered, want %d", len(r.Gone), goneMax)
	}
	if _, ok := r.Gone["/gone/a"]; !ok {
		t.Error("the newest gone was forgotten")
	}
}

func TestListWhereGitSays(t *testing.T) {
	root := t.TempDir()
	acct := filepath.Join(root, "acct")
	gitDir := filepath.Join(root, "app", ".git", "worktrees", "feat")
	rt := filepath.Join(gitDir, "claude-runtime", "max")
	old, moved, other := filepath.Join(root, "feat"), filepath.Join(root, "moved"), filepath.Join(root, "other")
	for _, d := range []string{acct, rt, moved, other} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	at := Place{Worktree: old, GitDir: gitDir, CommonDir: filepath.Join(root, "app", ".git")}
	if err := Register(Path(acct), rt, at); err != nil {
		t.Fatal(err)
	}
	list := func() Runtime {
		all, err := List(acct)
		if err != nil || len(all) != 1 {
			t.Fatalf("List = %v, %v", all, err)
		}
		return all[0]
	}
	// git worktree move: the gitdir file names the new place, whose .git
	// names the git dir back.
	write(filepath.Join(gitDir, "gitdir"), filepath.Join(moved, ".git")+"\n")
	write(filepath.Join(moved, ".git"), "gitdir: "+gitDir+"\n")
	if got := list(); got.Place.Worktree != moved || got.Known || !got.Made {
		t.Errorf("after a move: %+v; want the work tree %s, made, not known", got, moved)
	}
	// Check, which the launch reads, keeps the record's place: the launch
	// there moves the conversations from it.
	if got := Check(acct, rt); got.Place != at || !got.Known {
		t.Errorf("Check after a move: %+v; want the record's place", got)
	}
	// A gitdir file naming a work tree that does not name the git dir back
	// is not believed.
	write(filepath.Join(gitDir, "gitdir"), filepath.Join(other, ".git")+"\n")
	write(filepath.Join(other, ".git"), "gitdir: /elsewhere/.git/worktrees/feat\n")
	if got := list(); got.Place.Worktree != old || !got.Known {
		t.Errorf("a gitdir file naming another's work tree: %+v; want the record's %s", got, old)
	}
}

func TestGoneFrom(t *testing.T) {
	root := t.TempDir()
	rec := filepath.Join(root, FileName)
	old := filepath.Join(root, "app", "max")
	quietRuntime(t, rec, old)
	r, _ := Read(rec)
	if got := r.GoneFrom("/w/app", filepath.Join(root, "app2", "max")); got != "" {
		t.Errorf("GoneFrom with the runtime still there = %q", got)
	}
	if err := os.RemoveAll(filepath.Join(root, "app")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ worktree, dir, want string }{
		{"/w/app", filepath.Join(root, "app2", "max"), old},
		{"/w/app", filepath.Join(root, "app2", "pro"), ""}, // another account's name
		{"/w/other", filepath.Join(root, "app2", "max"), ""},
		{"", filepath.Join(root, "app2", "max"), ""},
		{"/w/app", old, ""}, // its own path: not moved from anywhere
	} {
		if got := r.GoneFrom(tc.worktree, tc.dir); got != tc.want {
			t.Errorf("GoneFrom(%q, %q) = %q; want %q", tc.worktree, tc.dir, got, tc.want)
		}
	}
}

func TestRelocate(t *testing.T) {
	root := t.TempDir()
	rec := filepath.Join(root, FileName)
	main := filepath.Join(root, "app", ".git", "claude-runtime", "max")
	linked := filepath.Join(root, "app", ".git", "worktrees", "feat", "claude-runtime", "max")
	elsewhere := filepath.Join(root, "lib", ".git", "worktrees", "feat", "claude-runtime", "max")
	for _, d := range []string{main, linked, elsewhere} {
		quietRuntime(t, rec, d)
	}
	r, _ := Read(rec)
	quiet := r.Runtimes[linked].Quiet
	if err := os.Rename(filepath.Join(root, "app"), filepath.Join(root, "app2")); err != nil {
		t.Fatal(err)
	}
	// A launch in the moved repository's main worktree records its linked
	// worktree's runtime where it is now too, its place left to git's files.
	common := filepath.Join(root, "app2", ".git")
	if err := Register(rec, filepath.Join(common, "claude-runtime", "max"), Place{Worktree: filepath.Join(root, "app2"), GitDir: common, CommonDir: common}); err != nil {
		t.Fatal(err)
	}
	r, _ = Read(rec)
	now := filepath.Join(common, "worktrees", "feat", "claude-runtime", "max")
	if e, ok := r.Runtimes[now]; !ok || e.Quiet != quiet || e.Place != (Place{}) {
		t.Errorf("the linked worktree's runtime after the move: %+v, %v; want its quiet time, no place", e, ok)
	}
	if !r.Check(now).Made {
		t.Error("the relocated runtime is not the launcher's")
	}
	for _, p := range []string{main, linked} {
		if _, ok := r.Runtimes[p]; ok {
			t.Errorf("%s is still recorded", p)
		}
		if _, ok := r.Gone[p]; ok {
			t.Errorf("%s is still remembered as gone", p)
		}
	}
	// Another repository's runtime of the same worktree name stays.
	if _, ok := r.Runtimes[elsewhere]; !ok {
		t.Error("another repository's runtime was moved")
	}
}

func TestCommonOf(t *testing.T) {
	for _, tc := range []struct{ p, common, rel string }{
		{"/w/app/.git/claude-runtime/max", "/w/app/.git", "claude-runtime/max"},
		{"/w/app/.git/worktrees/feat/claude-runtime/max", "/w/app/.git", "worktrees/feat/claude-runtime/max"},
		{"/w/bare.git/claude-runtime/max", "/w/bare.git", "claude-runtime/max"},
		{"/state/claude-account/0123/max", "", ""},
	} {
		if c, rel := commonOf(tc.p); c != tc.common || rel != tc.rel {
			t.Errorf("commonOf(%s) = %q, %q; want %q, %q", tc.p, c, rel, tc.common, tc.rel)
		}
	}
}
