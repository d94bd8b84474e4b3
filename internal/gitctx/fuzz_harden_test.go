package gitctx_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/gitctx"
)

// sandbox is a small world of git dirs a fuzzed .git file can point into:
// a main repository with a linked worktree and a submodule, a bare
// repository, a git dir whose config names another work tree, and ws/, the
// directory whose .git file the fuzzer writes.
func sandbox(f *testing.F) (root, ws string) {
	root, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	write := func(rel, data string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	gitDir := func(rel, config string) {
		write(rel+"/HEAD", "ref: refs/heads/main\n")
		write(rel+"/objects/info/.keep", "")
		write(rel+"/refs/heads/.keep", "")
		if config != "" {
			write(rel+"/config", config)
		}
	}
	gitDir("repo/.git", "[core]\n\tbare = false\n")
	write("repo/.git/worktrees/feat/HEAD", "ref: refs/heads/feat\n")
	write("repo/.git/worktrees/feat/commondir", "../..\n")
	write("repo/.git/worktrees/feat/gitdir", root+"/ws/.git\n")
	gitDir("repo/.git/modules/sub", "[core]\n\tbare = false\n")
	gitDir("bare.git", "[core]\n\tbare = true\n")
	gitDir("sep/gitdir", "[core]\n\tworktree = ../../other\n")
	write("other/README", "x\n")
	write("ws/README", "x\n")
	return root, filepath.Join(root, "ws")
}

// FuzzDetect writes arbitrary bytes as ws/.git and detects the context of
// ws: Detect must not panic, and what it returns must be plausible — the
// workspace is ws itself (unless the git dir's config names another work
// tree), every path is canonical and exists, and every note and error is
// one line.
func FuzzDetect(f *testing.F) {
	root, ws := sandbox(f)
	for _, s := range []string{
		"gitdir: ../repo/.git/worktrees/feat\n",
		"gitdir: " + root + "/repo/.git/worktrees/feat\n",
		"gitdir: ../repo/.git/modules/sub\n",
		"gitdir: ../repo/.git\n",
		"gitdir: ../bare.git\n",
		"gitdir: ../sep/gitdir\n",
		"gitdir: ../nowhere\n",
		"gitdir: ../repo/.git/worktrees/gone\n",
		"gitdir: ../nowhere\nsecond line\n",
		"gitdir: /\n",
		"gitdir: .\n",
		"gitdir: ..\n",
		"gitdir: ../../../../../../..\n",
		"gitdir: ../repo/.git/worktrees/feat/../../..\n",
		"gitdir: ../repo\x00/.git\n",
		"gitdir: \r\n",
		"gitdir:../repo/.git\n",
		"garbage",
		"",
		"\xff\xfe",
	} {
		f.Add([]byte(s))
	}
	kinds := map[gitctx.Kind]bool{gitctx.NotGit: true, gitctx.Main: true, gitctx.Linked: true, gitctx.Bare: true, gitctx.Submodule: true}
	get := func(k string) string {
		if k == "GIT_CEILING_DIRECTORIES" {
			return root // never walk above the sandbox
		}
		return ""
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(ws, ".git"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, err := gitctx.Detect(ws, get)
		if err != nil {
			// Errors, like notes, carry paths as they are (a path may hold
			// a newline); the CLI escapes control characters when it prints
			// them (cli.oneLine, harden-newline-paths.txtar).
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		// Notes carry paths as they are, newlines included: the CLI escapes
		// control characters when it prints them (cli.oneLine), so they
		// still reach the user as one line.
		for _, n := range ctx.Notes {
			if n == "" {
				t.Errorf("empty note")
			}
		}
		if !kinds[ctx.Kind] {
			t.Fatalf("kind %q", ctx.Kind)
		}
		if ctx.Dir != ws {
			t.Errorf("Dir = %q, want %q", ctx.Dir, ws)
		}
		for name, p := range map[string]string{"Toplevel": ctx.Toplevel, "GitDir": ctx.GitDir, "CommonDir": ctx.CommonDir} {
			if p == "" {
				continue
			}
			if !filepath.IsAbs(p) || filepath.Clean(p) != p {
				t.Errorf("%s = %q is not absolute and clean", name, p)
			}
			if real, err := filepath.EvalSymlinks(p); err != nil || real != p {
				t.Errorf("%s = %q is not canonical (%q, %v)", name, p, real, err)
			}
			if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
				t.Errorf("%s = %q is not a directory (%v)", name, p, err)
			}
		}
		switch ctx.Kind {
		case gitctx.NotGit:
			if ctx.Toplevel != "" || ctx.GitDir != "" || ctx.CommonDir != "" || ctx.Fingerprint != "" {
				t.Errorf("not-git with paths: %+v", ctx)
			}
			return
		case gitctx.Bare:
			if ctx.Toplevel != "" || ctx.Fingerprint != "" {
				t.Errorf("bare with a work tree: %+v", ctx)
			}
		default:
			if ctx.Fingerprint != gitctx.Fingerprint(ctx.Toplevel) {
				t.Errorf("fingerprint %q of %q", ctx.Fingerprint, ctx.Toplevel)
			}
			cfg, _ := os.ReadFile(filepath.Join(ctx.CommonDir, "config"))
			if ctx.Toplevel != ws && !strings.Contains(strings.ToLower(string(cfg)), "worktree") {
				t.Errorf("workspace %q for a .git file in %q, and no core.worktree says so: %+v", ctx.Toplevel, ws, ctx)
			}
		}
		if ctx.GitDir == "" || ctx.CommonDir == "" {
			t.Fatalf("git context without a git dir: %+v", ctx)
		}
		if _, err := os.Stat(filepath.Join(ctx.GitDir, "HEAD")); err != nil {
			t.Errorf("GitDir %q has no HEAD", ctx.GitDir)
		}
		if (ctx.Kind == gitctx.Linked) != (ctx.GitDir != ctx.CommonDir) {
			t.Errorf("kind %s with GitDir %q and CommonDir %q", ctx.Kind, ctx.GitDir, ctx.CommonDir)
		}
		if ctx.Kind == gitctx.Linked && ctx.Worktree != filepath.Base(ctx.GitDir) {
			t.Errorf("worktree name %q for %q", ctx.Worktree, ctx.GitDir)
		}
	})
}
