package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// worktrees times worktree new against plain git worktree add on the same
// repository, and worktree list with many worktrees.
func worktrees(work, bin string, n int, quick bool) {
	repo := filepath.Join(work, "wt-repo")
	run("git", "init", "-q", repo)
	for i := 0; i < 50; i++ {
		check(os.WriteFile(filepath.Join(repo, fmt.Sprintf("f%d.txt", i)), []byte(strings.Repeat("x", 2000)), 0o644))
	}
	git := func(args ...string) *exec.Cmd {
		c := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=b", "-c", "user.email=b@x"}, args...)...)
		return c
	}
	runCmd(git("add", "."))
	runCmd(git("commit", "-qm", "init"))
	i := 0
	env := append(os.Environ(), "HOME="+filepath.Join(work, "wt-home"))
	report(compare(n, []variant{
		{name: "git worktree add -b (floor)", cmd: func() *exec.Cmd {
			i++
			return git("worktree", "add", "-q", "-b", fmt.Sprintf("plain-%d", i), filepath.Join(work, "plain", fmt.Sprint(i)))
		}},
		{name: "claude-account worktree new", cmd: func() *exec.Cmd {
			c := exec.Command(bin, "worktree", "new", fmt.Sprintf("ours-%d", i))
			c.Dir, c.Env = repo, env
			return c
		}},
	}), "new worktree", "")
	total := 200
	if quick {
		total = 10
	}
	for k := i; k < total; k++ {
		runCmd(git("worktree", "add", "-q", "-b", fmt.Sprintf("extra-%d", k), filepath.Join(work, "extra", fmt.Sprint(k))))
	}
	entries, _ := exec.Command("git", "-C", repo, "worktree", "list", "--porcelain").Output()
	count := strings.Count(string(entries), "\nworktree ") + 1
	report(compare(n, []variant{
		{name: "git worktree list (floor)", cmd: func() *exec.Cmd { return git("worktree", "list") }},
		{name: "claude-account worktree list", cmd: func() *exec.Cmd {
			c := exec.Command(bin, "worktree", "list")
			c.Dir, c.Env = repo, env
			return c
		}},
	}), fmt.Sprintf("list %d worktrees", count), "")
}
