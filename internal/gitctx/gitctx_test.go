package gitctx

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repos is a tree of real repositories made by the real git, under a root
// whose name has a space and a non-ASCII letter, so every case also checks
// such paths.
type repos struct {
	root string   // canonical t.TempDir()
	base string   // root/rép o
	env  []string // environment for git: no user or system config
}

func (r *repos) path(rel string) string { return filepath.Join(r.base, filepath.FromSlash(rel)) }

func newRepos(tb testing.TB) *repos {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git not installed")
	}
	root, err := filepath.EvalSymlinks(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	r := &repos{root: root, base: filepath.Join(root, "rép o")}
	global := filepath.Join(root, "gitconfig")
	if err := os.WriteFile(global, nil, 0o644); err != nil {
		tb.Fatal(err)
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			r.env = append(r.env, kv)
		}
	}
	r.env = append(r.env, "GIT_CONFIG_GLOBAL="+global, "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C")
	if err := os.MkdirAll(r.base, 0o755); err != nil {
		tb.Fatal(err)
	}
	return r
}

// run runs git in dir with extra environment and returns its trimmed stdout.
func (r *repos) run(dir string, env map[string]string, args ...string) (string, error) {
	args = append([]string{
		"-c", "user.name=Test", "-c", "user.email=test@example.com",
		"-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always",
	}, args...)
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append([]string(nil), r.env...)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", errors.New(strings.Join(args, " ") + ": " + err.Error() + ": " + stderr.String())
	}
	return strings.TrimRight(string(out), "\n"), nil
}

func (r *repos) git(tb testing.TB, dir string, args ...string) {
	tb.Helper()
	if _, err := r.run(dir, nil, args...); err != nil {
		tb.Fatal(err)
	}
}

func (r *repos) mkdir(tb testing.TB, rel string) {
	tb.Helper()
	if err := os.MkdirAll(r.path(rel), 0o755); err != nil {
		tb.Fatal(err)
	}
}

func (r *repos) write(tb testing.TB, rel, content string) {
	tb.Helper()
	r.mkdir(tb, filepath.Dir(filepath.FromSlash(rel)))
	if err := os.WriteFile(r.path(rel), []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// mainWithWorktree makes main (with a committed "a b/ç/") and its linked
// worktree wt.
func (r *repos) mainWithWorktree(tb testing.TB) {
	r.git(tb, r.base, "init", "-q", "main")
	r.write(tb, "main/a b/ç/f", "x\n")
	r.git(tb, r.path("main"), "add", ".")
	r.git(tb, r.path("main"), "commit", "-q", "-m", "init")
	r.git(tb, r.path("main"), "worktree", "add", "-q", "-b", "wt", "../wt")
}

// gitView is what git itself says about a directory.
type gitView struct{ gitDir, commonDir, toplevel string }

func (r *repos) view(t *testing.T, dir string, env map[string]string) gitView {
	t.Helper()
	out, err := r.run(dir, env, "rev-parse", "--absolute-git-dir", "--git-common-dir")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	if len(lines) != 2 {
		t.Fatalf("git rev-parse in %s printed %q", dir, out)
	}
	common := lines[1]
	if !filepath.IsAbs(common) { // relative to git's (physical) cwd
		common = filepath.Join(canon(t, dir), common)
	}
	v := gitView{gitDir: canon(t, lines[0]), commonDir: canon(t, common)}
	// Fails without a work tree (bare repo, cwd inside a git dir).
	if top, err := r.run(dir, env, "rev-parse", "--show-toplevel"); err == nil && top != "" {
		v.toplevel = canon(t, top)
	}
	return v
}

func canon(t *testing.T, p string) string {
	t.Helper()
	c, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func lookup(env map[string]string) func(string) string {
	return func(k string) string { return env[k] }
}

func TestDetectMatchesGit(t *testing.T) {
	r := newRepos(t)
	r.mainWithWorktree(t)

	// Bare repositories, one with a linked worktree, and a .git dir that
	// says core.bare = true.
	r.git(t, r.base, "init", "-q", "--bare", "bare.git")
	r.git(t, r.base, "clone", "-q", "--bare", r.path("main"), "bclone.git")
	r.git(t, r.path("bclone.git"), "worktree", "add", "-q", "../bwt")
	r.git(t, r.base, "init", "-q", "nb")
	r.git(t, r.path("nb"), "config", "core.bare", "true")

	// Submodules: in a main worktree, and in the linked worktree, where
	// git keeps the module's git dir under .git/worktrees/wt/modules/.
	r.git(t, r.base, "init", "-q", "subsrc")
	r.write(t, "subsrc/d/f", "x\n")
	r.git(t, r.path("subsrc"), "add", ".")
	r.git(t, r.path("subsrc"), "commit", "-q", "-m", "init")
	r.git(t, r.base, "init", "-q", "super")
	r.git(t, r.path("super"), "submodule", "add", "-q", r.path("subsrc"), "s")
	r.git(t, r.path("wt"), "submodule", "add", "-q", r.path("subsrc"), "s1")

	// --separate-git-dir: a .git file pointing to a plain git dir.
	r.git(t, r.base, "init", "-q", "--separate-git-dir", r.path("sep.git"), "sepwt")

	// A worktree whose main repository moved, inside another repository's
	// work tree: git stops at the broken .git file and so must we.
	r.git(t, r.base, "init", "-q", "outer")
	r.git(t, r.base, "init", "-q", "moved")
	r.git(t, r.path("moved"), "commit", "-q", "--allow-empty", "-m", "init")
	r.git(t, r.path("moved"), "worktree", "add", "-q", r.path("outer/dwt"))
	if err := os.Rename(r.path("moved"), r.path("moved2")); err != nil {
		t.Fatal(err)
	}

	// core.bare beats core.worktree, with a warning from git.
	r.git(t, r.base, "init", "-q", "bw")
	r.git(t, r.path("bw"), "config", "core.bare", "true")
	r.git(t, r.path("bw"), "config", "core.worktree", "..")

	// Setup reads core.bare without following includes.
	r.git(t, r.base, "init", "-q", "inc")
	r.write(t, "inc/.git/extra", "[core]\n\tbare = true\n")
	r.git(t, r.path("inc"), "config", "include.path", "extra")

	// A .git symlink to another repository's git dir.
	r.mkdir(t, "dotgitlink")
	if err := os.Symlink(r.path("main/.git"), r.path("dotgitlink/.git")); err != nil {
		t.Fatal(err)
	}

	r.mkdir(t, "plain")
	link := filepath.Join(r.root, "link")
	if err := os.Symlink(r.path("main/a b"), link); err != nil {
		t.Fatal(err)
	}

	sub := r.path("main/a b/ç")
	cases := []struct {
		name     string
		dir      string
		env      map[string]string
		from     string // where git shows the expected answer, if not dir
		kind     Kind
		worktree string
		notes    []string // substrings, one per expected note
	}{
		{name: "main toplevel", dir: r.path("main"), kind: Main},
		{name: "main subdir", dir: sub, kind: Main},
		{name: "symlinked cwd", dir: link, kind: Main},
		{name: "linked worktree", dir: r.path("wt"), kind: Linked, worktree: "wt"},
		{name: "linked worktree subdir", dir: r.path("wt/a b/ç"), kind: Linked, worktree: "wt"},
		{name: "bare", dir: r.path("bare.git"), kind: Bare},
		{name: "bare subdir", dir: r.path("bare.git/refs/heads"), kind: Bare},
		{name: "core.bare in .git", dir: r.path("nb"), kind: Bare},
		{name: "worktree of bare clone", dir: r.path("bwt"), kind: Linked, worktree: "bwt"},
		{name: "inside bare clone's worktrees dir", dir: r.path("bclone.git/worktrees/bwt"), from: r.path("bwt"), kind: Linked, worktree: "bwt"},
		{name: "submodule", dir: r.path("super/s"), kind: Submodule},
		{name: "submodule subdir", dir: r.path("super/s/d"), kind: Submodule},
		{name: "submodule in linked worktree", dir: r.path("wt/s1"), kind: Submodule},
		{name: "inside .git", dir: r.path("main/.git"), from: r.path("main"), kind: Main},
		{name: "inside .git/objects", dir: r.path("main/.git/objects"), from: r.path("main"), kind: Main},
		{name: "inside .git/worktrees/wt", dir: r.path("main/.git/worktrees/wt"), from: r.path("wt"), kind: Linked, worktree: "wt"},
		{name: "inside .git/modules/s", dir: r.path("super/.git/modules/s"), kind: Submodule},
		{name: "inside linked worktree's modules/s1", dir: r.path("main/.git/worktrees/wt/modules/s1/refs"), from: r.path("wt/s1"), kind: Submodule},
		{name: "separate git dir", dir: r.path("sepwt"), kind: Main},
		{name: "symlinked .git dir", dir: r.path("dotgitlink"), kind: Main},
		{name: "core.bare from an include", dir: r.path("inc"), kind: Main},
		{name: "core.bare and core.worktree", dir: r.path("bw"), kind: Bare, notes: []string{"sets core.bare, so git ignores its core.worktree"}},
		{name: "GIT_DIR with core.bare and core.worktree", dir: r.path("plain"), env: map[string]string{"GIT_DIR": r.path("bw/.git")}, kind: Bare, notes: []string{"sets core.bare, so git ignores its core.worktree"}},
		{name: "inside separate git dir", dir: r.path("sep.git"), kind: Bare, notes: []string{"work tree is unknown"}},
		{name: "dangling gitdir", dir: r.path("outer/dwt"), kind: NotGit, notes: []string{"/.git points to " + r.path("moved/.git/worktrees/dwt") + ", which does not exist (main repository moved?); run 'git worktree repair'"}},
		{name: "not git", dir: r.path("plain"), env: map[string]string{"GIT_CEILING_DIRECTORIES": r.root}, kind: NotGit},

		{name: "GIT_DIR: work tree is cwd", dir: r.path("plain"), env: map[string]string{"GIT_DIR": r.path("main/.git")}, kind: Main},
		{name: "GIT_DIR relative", dir: r.path("main/a b"), env: map[string]string{"GIT_DIR": "../.git"}, kind: Main},
		{name: "GIT_DIR and GIT_WORK_TREE", dir: r.path("plain"), env: map[string]string{"GIT_DIR": r.path("main/.git"), "GIT_WORK_TREE": r.path("main")}, kind: Main},
		{name: "GIT_DIR bare", dir: r.path("plain"), env: map[string]string{"GIT_DIR": r.path("bare.git")}, kind: Bare},
		{name: "GIT_DIR bare with GIT_WORK_TREE", dir: r.path("plain"), env: map[string]string{"GIT_DIR": r.path("bare.git"), "GIT_WORK_TREE": "."}, kind: Main},
		{name: "GIT_DIR is a .git file", dir: r.path("bwt"), env: map[string]string{"GIT_DIR": ".git"}, kind: Linked, worktree: "bwt"},
		{name: "GIT_DIR of a submodule", dir: r.path("plain"), env: map[string]string{"GIT_DIR": r.path("super/.git/modules/s")}, kind: Submodule},
		{name: "GIT_WORK_TREE alone", dir: sub, env: map[string]string{"GIT_WORK_TREE": ".."}, kind: Main},
		{name: "GIT_WORK_TREE alone in bare", dir: r.path("bare.git"), env: map[string]string{"GIT_WORK_TREE": r.path("plain")}, kind: Main},

		{name: "ceiling at toplevel", dir: sub, env: map[string]string{"GIT_CEILING_DIRECTORIES": r.path("main")}, kind: NotGit},
		{name: "ceiling at parent", dir: sub, env: map[string]string{"GIT_CEILING_DIRECTORIES": r.path("main/a b")}, kind: NotGit},
		{name: "ceiling at cwd", dir: sub, env: map[string]string{"GIT_CEILING_DIRECTORIES": sub}, kind: Main},
		{name: "ceiling below cwd", dir: r.path("main"), env: map[string]string{"GIT_CEILING_DIRECTORIES": sub}, kind: Main},
		{name: "ceiling via symlink", dir: sub, env: map[string]string{"GIT_CEILING_DIRECTORIES": "relative:" + link}, kind: NotGit},
		{name: "ceiling after empty entry is not resolved", dir: sub, env: map[string]string{"GIT_CEILING_DIRECTORIES": ":" + link}, kind: Main},
		{name: "ceiling ignored with GIT_DIR", dir: sub, env: map[string]string{"GIT_CEILING_DIRECTORIES": r.path("main"), "GIT_DIR": r.path("main/.git")}, kind: Main},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Detect(c.dir, lookup(c.env))
			if err != nil {
				t.Fatalf("Detect: %v", err)
			}
			if got.Kind != c.kind {
				t.Errorf("Kind = %s, want %s (%+v)", got.Kind, c.kind, got)
			}
			if want := canon(t, c.dir); got.Dir != want {
				t.Errorf("Dir = %q, want %q", got.Dir, want)
			}
			if got.Worktree != c.worktree {
				t.Errorf("Worktree = %q, want %q", got.Worktree, c.worktree)
			}
			checkNotes(t, got.Notes, c.notes)

			if c.kind == NotGit {
				if out, err := r.run(c.dir, c.env, "rev-parse", "--git-dir"); err == nil {
					t.Fatalf("git finds a repository at %s: %s", c.dir, out)
				}
				if got.GitDir != "" || got.CommonDir != "" || got.Toplevel != "" || got.Fingerprint != "" {
					t.Errorf("NotGit with paths: %+v", got)
				}
				return
			}
			// Git at the start dir agrees on the git dir; where git sees
			// no work tree (cwd inside a git dir) the rest comes from the
			// work tree we mapped it to.
			if at := r.view(t, c.dir, c.env); at.gitDir != got.GitDir {
				t.Errorf("GitDir = %q, git says %q", got.GitDir, at.gitDir)
			}
			from := c.from
			if from == "" {
				from = c.dir
			}
			want := r.view(t, from, c.env)
			if got.GitDir != want.gitDir {
				t.Errorf("GitDir = %q, git in %s says %q", got.GitDir, from, want.gitDir)
			}
			if got.CommonDir != want.commonDir {
				t.Errorf("CommonDir = %q, git says %q", got.CommonDir, want.commonDir)
			}
			if got.Toplevel != want.toplevel {
				t.Errorf("Toplevel = %q, git says %q", got.Toplevel, want.toplevel)
			}
			wantFP := ""
			if got.Toplevel != "" {
				wantFP = Fingerprint(got.Toplevel)
			}
			if got.Fingerprint != wantFP {
				t.Errorf("Fingerprint = %q, want %q", got.Fingerprint, wantFP)
			}
		})
	}
}

func checkNotes(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("Notes = %q, want %d matching %q", got, len(want), want)
		return
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("Notes[%d] = %q, want it to contain %q", i, got[i], want[i])
		}
	}
}

func TestSymlinkSameFingerprint(t *testing.T) {
	r := newRepos(t)
	r.mainWithWorktree(t)
	link := filepath.Join(r.root, "link to wt")
	if err := os.Symlink(r.path("wt"), link); err != nil {
		t.Fatal(err)
	}
	direct, err := Detect(r.path("wt/a b"), nil)
	if err != nil {
		t.Fatal(err)
	}
	via, err := Detect(filepath.Join(link, "a b"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if direct.Fingerprint == "" || via.Fingerprint != direct.Fingerprint || via.Toplevel != direct.Toplevel || via.Dir != direct.Dir {
		t.Errorf("via symlink %+v\ndirect %+v", via, direct)
	}
}

func TestDetectErrors(t *testing.T) {
	r := newRepos(t)
	r.mainWithWorktree(t)
	for _, c := range []struct {
		name, dir string
		env       map[string]string
		want      string
	}{
		{"GIT_DIR missing", r.path("main"), map[string]string{"GIT_DIR": "nowhere"}, "GIT_DIR=nowhere: no such file or directory; unset GIT_DIR"},
		{"GIT_DIR not a repository", r.path("main"), map[string]string{"GIT_DIR": "a b"}, "GIT_DIR=a b: not a git repository; unset GIT_DIR"},
		{"GIT_WORK_TREE missing", r.path("main"), map[string]string{"GIT_WORK_TREE": "nowhere"}, "GIT_WORK_TREE=nowhere: no such file or directory; unset GIT_WORK_TREE"},
		{"dir missing", r.path("nowhere"), nil, "no such file or directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Detect(c.dir, lookup(c.env))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Detect = %+v, %v; want error containing %q", got, err, c.want)
			}
			if c.env != nil {
				if _, err := r.run(c.dir, c.env, "status", "--porcelain"); err == nil {
					t.Errorf("git accepts %v", c.env)
				}
			}
		})
	}

	t.Run("unreadable .git file", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root reads any file")
		}
		dotGit := r.path("wt/.git")
		if err := os.Chmod(dotGit, 0); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(dotGit, 0o644)
		_, err := Detect(r.path("wt"), lookup(nil))
		if !errors.Is(err, os.ErrPermission) || !strings.Contains(err.Error(), dotGit) {
			t.Fatalf("Detect: %v; want permission denied naming %s", err, dotGit)
		}
	})
}

// TestBrokenRepos covers on-disk states git refuses, where the launch
// still goes ahead with a note.
func TestBrokenRepos(t *testing.T) {
	r := newRepos(t)
	r.mainWithWorktree(t)
	r.write(t, "junk/.git", "not a gitdir file\n")
	r.write(t, "notrepo/.git", "gitdir: ../plain\n")
	r.mkdir(t, "plain")
	r.git(t, r.base, "init", "-q", "badcfg")
	r.write(t, "badcfg/.git/config", "[core]\n\tbare = maybe\n")
	r.git(t, r.base, "init", "-q", "wtcfg")
	r.git(t, r.path("wtcfg"), "config", "core.worktree", "../gone")
	// A pruneable worktree: its directory was deleted.
	r.git(t, r.path("main"), "worktree", "add", "-q", "../doomed")
	if err := os.RemoveAll(r.path("doomed")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, dir string
		kind      Kind
		note      string
	}{
		{"not a gitdir file", r.path("junk"), NotGit, "is neither a git directory nor a 'gitdir: <path>' file"},
		{"gitdir not a repository", r.path("notrepo"), NotGit, "which is not a git repository"},
		{"bad config", r.path("badcfg"), Main, `config:2: bad boolean value "maybe" for core.bare; git refuses`},
		{"core.worktree missing", r.path("wtcfg"), NotGit, "sets core.worktree to ../gone, which does not exist"},
		{"inside a deleted worktree's git dir", r.path("main/.git/worktrees/doomed"), NotGit, "run 'git worktree prune'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Detect(c.dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.Kind != c.kind {
				t.Errorf("Kind = %s, want %s", got.Kind, c.kind)
			}
			checkNotes(t, got.Notes, []string{c.note})
		})
	}
}

func TestFingerprint(t *testing.T) {
	// FNV-1a 64 written out from its definition, independent of hash/fnv:
	// start from the offset basis; for each byte, xor it in and multiply
	// by the FNV prime.
	fnv1a := func(s string) string {
		h := uint64(14695981039346656037)
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= 1099511628211
		}
		return fmt.Sprintf("%016x", h)
	}
	for _, c := range []struct{ in, want string }{
		{"", "cbf29ce484222325"},       // the offset basis itself
		{"a", "af63dc4c8601ec8c"},      // published FNV-1a 64 test vector
		{"foobar", "85944171f73967e8"}, // published FNV-1a 64 test vector
		{"/home/user/src/app", ""},
		{"/tmp/rép o/main", ""},
	} {
		want := fnv1a(c.in)
		if c.want != "" && c.want != want {
			t.Fatalf("the test's own FNV-1a gives %s for %q, not the published %s", want, c.in, c.want)
		}
		if got := Fingerprint(c.in); got != want {
			t.Errorf("Fingerprint(%q) = %s, want %s", c.in, got, want)
		}
	}
}

func BenchmarkDetect(b *testing.B) {
	r := newRepos(b)
	r.mainWithWorktree(b)
	for _, bc := range []struct{ name, dir string }{
		{"main-subdir", r.path("main/a b/ç")},
		{"linked-worktree", r.path("wt/a b")},
	} {
		b.Run(bc.name, func(b *testing.B) {
			env := lookup(nil)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Detect(bc.dir, env); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRecordedCheckout: only the work tree git records for a git dir owns
// it; every other way of reaching that git dir is a stranger.
func TestRecordedCheckout(t *testing.T) {
	r := newRepos(t)
	r.mainWithWorktree(t)
	r.mkdir(t, "planted")
	r.write(t, "planted/.git", "gitdir: "+r.path("main/.git")+"\n")
	r.mkdir(t, "copy")
	r.write(t, "copy/.git", "gitdir: "+r.path("main/.git/worktrees/wt")+"\n")
	r.mkdir(t, "other")
	r.git(t, r.path("main"), "worktree", "add", "-q", r.path("moved-from"), "-b", "m")
	r.git(t, r.path("main"), "worktree", "move", r.path("moved-from"), r.path("moved-to"))
	for _, c := range []struct {
		dir      string
		env      map[string]string
		recorded string
		stranger bool
	}{
		{dir: "main", recorded: "main"},
		{dir: "main/.git", recorded: "main"},
		{dir: "wt", recorded: "wt"},
		{dir: "moved-to", recorded: "moved-to"},
		{dir: "planted", recorded: "main", stranger: true},
		{dir: "copy", recorded: "wt", stranger: true},
		{dir: "other", env: map[string]string{"GIT_DIR": r.path("main/.git"), "GIT_WORK_TREE": r.path("other")}, recorded: "main", stranger: true},
	} {
		ctx, err := Detect(r.path(c.dir), func(k string) string { return c.env[k] })
		if err != nil {
			t.Fatal(err)
		}
		if ctx.Recorded != r.path(c.recorded) || ctx.Stranger() != c.stranger {
			t.Errorf("%s: recorded %s, stranger %v; want %s, %v", c.dir, ctx.Recorded, ctx.Stranger(), r.path(c.recorded), c.stranger)
		}
	}
	// A worktree moved by hand: git still records the old place.
	if err := os.Rename(r.path("moved-to"), r.path("by-hand")); err != nil {
		t.Fatal(err)
	}
	ctx, err := Detect(r.path("by-hand"), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if ctx.Recorded != r.path("moved-to") || !ctx.Stranger() {
		t.Errorf("moved by hand: recorded %s, stranger %v; want the old place, a stranger", ctx.Recorded, ctx.Stranger())
	}
}
