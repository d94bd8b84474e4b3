package cli

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/statusline"
)

// BenchmarkStatusline is one status line in a typical repository (2,000
// tracked files in 40 directories, a linked worktree, one modified file):
// detection, HEAD, the bindings file and the one git status. Claude runs the
// command at most every 300 ms; the budget is 20 ms.
func BenchmarkStatusline(b *testing.B) {
	dir := b.TempDir()
	repo := filepath.Join(dir, "repo")
	git := func(args ...string) {
		b.Helper()
		cmd := exec.Command("git", args...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@b", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@b")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", repo)
	old := time.Now().Add(-time.Hour)
	for i := 0; i < 40; i++ {
		sub := filepath.Join(repo, fmt.Sprintf("pkg%02d", i))
		os.MkdirAll(sub, 0o755)
		for j := 0; j < 50; j++ {
			f := filepath.Join(sub, fmt.Sprintf("f%02d.go", j))
			os.WriteFile(f, []byte(fmt.Sprintf("package p\n// %d %d\n", i, j)), 0o644)
			// As in a real checkout the files are older than the index:
			// files as new as the index are "racily clean", and git would
			// re-read every one of them on each status.
			os.Chtimes(f, old, old)
		}
	}
	git("-C", repo, "add", "-A")
	git("-C", repo, "commit", "-q", "-m", "init")
	wt := filepath.Join(dir, "wt")
	git("-C", repo, "worktree", "add", "-q", "-b", "fix", wt)
	os.WriteFile(filepath.Join(wt, "pkg00", "f00.go"), []byte("package p\n// changed\n"), 0o644)
	filepath.WalkDir(wt, func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			os.Chtimes(p, old, old) // the checkout, too, older than its index
		}
		return nil
	})
	git("-C", wt, "status") // refresh the index as a real session would have
	e := env.Env{"HOME": filepath.Join(dir, "home"), "PATH": os.Getenv("PATH"), "XDG_CONFIG_HOME": filepath.Join(dir, "cfg")}
	d := &Deps{Env: e, Dir: wt, Prog: "claude-account", Stdout: io.Discard, Stderr: io.Discard, Now: time.Now}
	if _, err := bindingBind(e, dir, "bench"); err != nil {
		b.Fatal(err)
	}
	var in statusline.Input
	in.Workspace.CurrentDir = wt
	in.Model.DisplayName = "Opus"
	if got := statusLine(d, in, true).String(); got != "bench · wt (fix) · * · Opus" {
		b.Fatalf("line = %q", got)
	}
	// no-git is the pure-Go part alone: detection, HEAD, the bindings file.
	for _, useGit := range []bool{true, false} {
		name := "git"
		if !useGit {
			name = "no-git"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				_ = statusLine(d, in, useGit).String()
			}
		})
	}
}

func bindingBind(e env.Env, dir, acct string) (string, error) {
	c, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	return binding.Bind(e, c, acct)
}
