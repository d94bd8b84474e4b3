// Command bench times claude-account run side by side with the shell+jq
// reference wrapper (bench/reference-wrapper.sh, the seed design's launcher)
// on fixtures it makes itself (fixture.go). Variants are interleaved (A B A B …), the
// warm-up runs are dropped, and medians, ratios and min–max are reported, so
// a noisy shared machine shows as spread rather than as a wrong ratio.
//
// usage: go run ./bench [-quick] [-n N] [-bin PATH] [-sizes 1,20,100] [-no-worktrees]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type variant struct {
	name    string
	prepare func() // untimed, before each run
	cmd     func() *exec.Cmd
}

type result struct {
	wall   []time.Duration
	maxRSS []int64 // KiB
}

func main() {
	quick := flag.Bool("quick", false, "tiny fixture, few runs: checks the harness works (CI)")
	n := flag.Int("n", 30, "timed runs per variant")
	bin := flag.String("bin", "", "claude-account binary (default: build one)")
	sizeList := flag.String("sizes", "1,20,100", "state sizes in MB, comma-separated")
	skipWT := flag.Bool("no-worktrees", false, "skip the worktree benchmarks")
	fixtureOnly := flag.String("make-fixture", "", "internal: make one fixture in DIR (size from -sizes) and exit")
	flag.Parse()
	hermetic()
	if *fixtureOnly != "" {
		mb, err := strconv.ParseFloat(*sizeList, 64)
		check(err)
		check(makeFixture(*fixtureOnly, mb))
		return
	}
	if *quick {
		*n = 3
	}
	work, err := os.MkdirTemp("", "claude-account-bench-")
	check(err)
	defer os.RemoveAll(work)
	if *bin == "" {
		*bin = filepath.Join(work, "claude-account")
		// Static, as the Nix package builds it: kong imports os/user, which
		// with cgo links libc and costs milliseconds at every start.
		c := exec.Command("go", "build", "-o", *bin, "./cmd/claude-account")
		c.Env = append(os.Environ(), "CGO_ENABLED=0")
		runCmd(c)
	}
	ref, err := filepath.Abs(filepath.Join("bench", "reference-wrapper.sh"))
	check(err)

	sizes := strings.Split(*sizeList, ",")
	if *quick {
		sizes = []string{"0.1"}
	}
	fmt.Printf("claude-account launch benchmark: %d timed runs per variant (after 2 warm-up), interleaved\n\n", *n)
	fmt.Println("| case | variant | median | min–max | peak RSS | ratio |")
	fmt.Println("|---|---|---|---|---|---|")
	for i, size := range sizes {
		fx := newFixture(work, fmt.Sprintf("fx%d", i), size, *bin, ref)
		if i == 0 {
			compare(*n, "small state, in sync", []variant{
				{name: "stub claude directly (floor)", cmd: fx.direct},
				{name: "claudebench (claude-account)", cmd: fx.ours},
				{name: "reference wrapper", prepare: fx.refReset, cmd: fx.reference},
			}, "reference wrapper", "claudebench (claude-account)")
		}
		label := size + " MB state"
		compare(*n, label+", write needed", []variant{
			{name: "cp of the state (floor)", cmd: fx.cp},
			{name: "claudebench (claude-account)", prepare: fx.stale, cmd: fx.ours},
			{name: "reference wrapper", prepare: fx.refStale, cmd: fx.reference},
		}, "reference wrapper", "claudebench (claude-account)")
		fx.stale()
		runCmd(fx.ours())
		compare(*n, label+", in sync", []variant{
			{name: "cp of the state (floor)", cmd: fx.cp},
			{name: "claudebench (claude-account)", cmd: fx.ours},
		}, "", "")
	}
	if !*skipWT {
		worktrees(work, *bin, *n, *quick)
	}
}

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
	compare(n, "new worktree", []variant{
		{name: "git worktree add -b (floor)", cmd: func() *exec.Cmd {
			i++
			return git("worktree", "add", "-q", "-b", fmt.Sprintf("plain-%d", i), filepath.Join(work, "plain", fmt.Sprint(i)))
		}},
		{name: "claude-account worktree new", cmd: func() *exec.Cmd {
			c := exec.Command(bin, "worktree", "new", fmt.Sprintf("ours-%d", i))
			c.Dir, c.Env = repo, env
			return c
		}},
	}, "", "")
	total := 200
	if quick {
		total = 10
	}
	for k := i; k < total; k++ {
		runCmd(git("worktree", "add", "-q", "-b", fmt.Sprintf("extra-%d", k), filepath.Join(work, "extra", fmt.Sprint(k))))
	}
	entries, _ := exec.Command("git", "-C", repo, "worktree", "list", "--porcelain").Output()
	count := strings.Count(string(entries), "\nworktree ") + 1
	compare(n, fmt.Sprintf("list %d worktrees", count), []variant{
		{name: "git worktree list (floor)", cmd: func() *exec.Cmd { return git("worktree", "list") }},
		{name: "claude-account worktree list", cmd: func() *exec.Cmd {
			c := exec.Command(bin, "worktree", "list")
			c.Dir, c.Env = repo, env
			return c
		}},
	}, "", "")
}

type fixture struct {
	dir, repo, home, state, fake, bin, ref, account string
	launcher                                        string // claudebench: a link to bin, as home-manager installs it
}

func newFixture(work, name, size, bin, ref string) *fixture {
	dir := filepath.Join(work, name)
	// In a child process: a 100 MB state built here would raise this
	// process's peak memory, which every child forked later inherits as its
	// own peak (ru_maxrss counts the memory a child had before exec).
	self, err := os.Executable()
	check(err)
	run(self, "-make-fixture", dir, "-sizes", size)
	fx := &fixture{dir: dir, repo: filepath.Join(dir, "repo"), home: filepath.Join(dir, "home"),
		state: filepath.Join(dir, "state.json"), fake: filepath.Join(dir, "fake-claude"), bin: bin, ref: ref,
		account: filepath.Join(dir, "account")}
	// The same account for both: our account dir holds the fixture's files.
	acct := filepath.Join(fx.home, ".claude-bench")
	check(os.MkdirAll(acct, 0o700))
	run("cp", "-r", filepath.Join(fx.account, "commands"), acct+"/")
	run("cp", filepath.Join(fx.account, "settings.json"), acct+"/settings.json")
	run("cp", filepath.Join(fx.account, "mcp.json"), acct+"/.mcp.json")
	check(os.WriteFile(filepath.Join(acct, "account.toml"), []byte("name = \"bench\"\n"), 0o644))
	// The reference merges the overlay unconditionally; ours only when trusted.
	fx.launcher = filepath.Join(dir, "bin", "claudebench")
	check(os.MkdirAll(filepath.Dir(fx.launcher), 0o755))
	check(os.Symlink(bin, fx.launcher))
	c := fx.cmd(bin, "trust")
	runCmd(c)
	runCmd(fx.ours())
	return fx
}

func (fx *fixture) cmd(path string, args ...string) *exec.Cmd {
	c := exec.Command(path, args...)
	c.Dir = fx.repo
	c.Env = append(os.Environ(), "HOME="+fx.home, "XDG_DATA_HOME="+fx.home+"/.local/share",
		"XDG_STATE_HOME="+fx.home+"/.local/state", "XDG_RUNTIME_DIR="+fx.home+"/run",
		"CLAUDE_ACCOUNT_CLAUDE="+fx.fake, "TMPDIR="+fx.dir)
	return c
}

func (fx *fixture) direct() *exec.Cmd { return fx.cmd(fx.fake) }
func (fx *fixture) ours() *exec.Cmd   { return fx.cmd(fx.launcher) }
func (fx *fixture) reference() *exec.Cmd {
	return fx.cmd("bash", fx.ref, fx.account, fx.fake)
}
func (fx *fixture) cp() *exec.Cmd {
	return fx.cmd("cp", fx.state, filepath.Join(fx.dir, "copy.json"))
}
func (fx *fixture) runtime() string { return filepath.Join(fx.repo, ".git", "claude-runtime", "bench") }

// stale puts the large state (with a stale mcpServers) in our runtime.
func (fx *fixture) stale() {
	run("cp", fx.state, filepath.Join(fx.runtime(), ".claude.json"))
}

func (fx *fixture) refStale() {
	fx.refReset()
	run("cp", fx.state, filepath.Join(fx.repo, ".git", "claude-runtime", ".claude.json"))
}

// refReset removes the reference's PID file: its exec'd PID is gone, but a
// reused PID would make it refuse to start.
func (fx *fixture) refReset() {
	matches, _ := filepath.Glob(filepath.Join(fx.dir, "claude-*.pid"))
	for _, m := range matches {
		os.Remove(m)
	}
}

func compare(n int, label string, vs []variant, num, den string) {
	res := make([]result, len(vs))
	for i := 0; i < n+2; i++ {
		for j, v := range vs {
			if v.prepare != nil {
				v.prepare()
			}
			c := v.cmd()
			start := time.Now()
			runCmd(c)
			d := time.Since(start)
			if i < 2 {
				continue
			}
			res[j].wall = append(res[j].wall, d)
			if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
				res[j].maxRSS = append(res[j].maxRSS, ru.Maxrss)
			}
		}
	}
	med := map[string]time.Duration{}
	for j, v := range vs {
		med[v.name] = median(res[j].wall)
	}
	floor := med[vs[0].name]
	for j, v := range vs {
		w := sorted(res[j].wall)
		ratio := fmt.Sprintf("%.2f× floor", float64(med[v.name])/float64(floor))
		if j == 0 {
			ratio = "1 (floor)"
		}
		if num != "" && v.name == den {
			ratio += fmt.Sprintf("; reference ÷ ours = %.1f", float64(med[num])/float64(med[den]))
		}
		fmt.Printf("| %s | %s | %s | %s–%s | %s | %s |\n", label, v.name, ms(med[v.name]), ms(w[0]), ms(w[len(w)-1]), kib(maxOf(res[j].maxRSS)), ratio)
	}
}

// hermetic drops, before anything runs, every inherited variable that would
// steer the launcher, Claude or git: the harness runs from inside launcher
// sessions (CLAUDE_ACCOUNT=t names an account no fixture has), from git hooks
// (GIT_DIR) and under the user's own XDG dirs, and each child gets only the
// HOME, XDG and Claude settings its fixture gives it. XDG_CACHE_HOME stays:
// the launcher never reads it, and Go's build cache lives there.
func hermetic() {
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name == "XDG_CACHE_HOME" {
			continue
		}
		for _, p := range []string{"CLAUDE", "ANTHROPIC_", "GIT_", "XDG_", "DISABLE_"} {
			if strings.HasPrefix(name, p) {
				os.Unsetenv(name)
			}
		}
	}
}

func median(ds []time.Duration) time.Duration { return sorted(ds)[len(ds)/2] }

func sorted(ds []time.Duration) []time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s
}

func maxOf(xs []int64) int64 {
	var m int64
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
func kib(k int64) string        { return fmt.Sprintf("%.1f MiB", float64(k)/1024) }

func run(name string, args ...string) {
	runCmd(exec.Command(name, args...))
}

func runCmd(c *exec.Cmd) {
	out, err := c.CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: %s: %v\n%s", strings.Join(c.Args, " "), err, out)
		os.Exit(1)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}
