package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/fleet"
)

// The fleet memory benchmark: what background sessions started from three
// worktrees of one repository cost, plain Claude with one config dir (the
// floor: what a user without the launcher runs) against the launcher with
// one account, in one run. Each side runs one `--bg` from each worktree
// against a loopback stand-in API (fleetapi.go), waits until every session
// is idle and the fleet's processes hold still, sums RSS and PSS
// (/proc/PID/smaps_rollup) over every process of the fleet (procs.go), and
// stops it with Claude's own `claude daemon stop --any` in each config dir
// that hosts a supervisor. The sides run one after the other, so they share
// no pages and PSS is each side's own.
//
// It needs a real Claude Code whose --bg works (2.1.141+, DESIGN.md fact 20).

const fleetWorktrees = 3

// fleetKey is the stand-in's API key: Claude asks to approve a key it has
// not seen, so each config dir is seeded with its approval.
const fleetKey = "sk-ant-bench-fake-key-0000"

// fleetSide is one way of running the fleet, and what it cost.
type fleetSide struct {
	name    string
	procs   []proc
	configs []string // the config dirs whose supervisor runs
	rss     int64    // KiB
	pss     int64
	// answered: the model requests the stand-in API answered for this side
	// (each session's task, and what Claude asks besides).
	answered int64
	failed   string // why the fleet did not settle ("" when it did)
}

// fleetMemory runs both sides and prints them side by side; it says plainly
// why when it cannot run.
func fleetMemory(work string, t tools, claude string) {
	const title = "fleet memory (background sessions from 3 worktrees)"
	if claude == "" {
		fmt.Printf("%s: skipped: no real Claude Code named; give one whose --bg works (≥ %s) with -claude PATH or $BENCH_CLAUDE\n\n", title, claudever.Background)
		return
	}
	c := claudever.Identify(claude, "", nil)
	switch {
	case !c.Known:
		fmt.Printf("%s: skipped: the release of %s cannot be read: %s\n\n", title, claude, c.Problem)
		return
	case !c.Has(claudever.Background):
		fmt.Printf("%s: skipped: Claude Code %s has no background sessions (needs ≥ %s)\n\n", title, c.Version, claudever.Background)
		return
	}
	if _, err := os.Stat("/proc/self/smaps_rollup"); err != nil {
		fmt.Printf("%s: skipped: needs Linux's /proc/PID/smaps_rollup\n\n", title)
		return
	}
	url, stop := stubAPI()
	defer stop()
	mark := fmt.Sprintf("CLAUDE_ACCOUNT_BENCH_FLEET=%d-%d", os.Getpid(), time.Now().UnixNano())
	plain := runFleet(work, "plain", mark+"-plain", claude, c.Version.String(), url, t.bin)
	ours := runFleet(work, "launcher", mark+"-launcher", claude, c.Version.String(), url, t.bin)
	fmt.Printf("| %s, Claude Code %s | processes | supervisors | API requests | RSS | PSS | RSS ratio | PSS ratio |\n|---|---|---|---|---|---|---|---|\n", title, c.Version)
	for i, s := range []fleetSide{plain, ours} {
		ratio := [2]string{"1 (floor)", "1 (floor)"}
		if i > 0 {
			ratio = [2]string{fmt.Sprintf("%.2f×", float64(s.rss)/float64(plain.rss)), fmt.Sprintf("%.2f×", float64(s.pss)/float64(plain.pss))}
		}
		fmt.Printf("| %s | %d | %d | %d | %s | %s | %s | %s |\n", s.name, len(s.procs), len(s.configs), s.answered, kib(s.rss), kib(s.pss), ratio[0], ratio[1])
	}
	for _, s := range []fleetSide{plain, ours} {
		if s.failed != "" {
			fmt.Printf("\n%s: not measured at rest: %s\n", s.name, s.failed)
		}
	}
	fmt.Println()
}

// runFleet starts one background session from each of three worktrees, the
// plain way or through the launcher, measures the fleet once it is idle, and
// stops it.
func runFleet(work, how, mark, claude, version, url, launcher string) fleetSide {
	root := filepath.Join(work, "fleet-"+how)
	home := filepath.Join(root, "home")
	check(os.MkdirAll(home, 0o755))
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=" + fleetKey,
		"DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_MAX_RETRIES=0", mark}
	if tmp := os.Getenv("TMPDIR"); tmp != "" {
		env = append(env, "TMPDIR="+tmp)
	}
	dirs := fleetRepo(root)
	before := answered.Load()
	// Onboarded, the key approved, every worktree trusted: --bg refuses an
	// untrusted workspace.
	trusted := []string{}
	for _, d := range dirs {
		trusted = append(trusted, fmt.Sprintf(`%q: {"hasTrustDialogAccepted": true}`, d))
	}
	seed := fmt.Sprintf(`{"hasCompletedOnboarding": true, "lastOnboardingVersion": %q, "customApiKeyResponses": {"approved": [%q], "rejected": []}, "projects": {%s}}`,
		version, fleetKey[len(fleetKey)-20:], strings.Join(trusted, ", "))
	side := fleetSide{name: "plain Claude, one CLAUDE_CONFIG_DIR (floor)"}
	var start func(dir string) *exec.Cmd
	if how == "plain" {
		config := filepath.Join(root, "config")
		check(os.MkdirAll(config, 0o700))
		check(os.WriteFile(filepath.Join(config, ".claude.json"), []byte(seed), 0o600))
		env = append(env, "CLAUDE_CONFIG_DIR="+config)
		start = func(dir string) *exec.Cmd { return exec.Command(claude, "--bg", "say done") }
	} else {
		side.name = "claude-account run --account bench -- --bg"
		env = append(env, "CLAUDE_ACCOUNT_CLAUDE="+claude)
		c := exec.Command(launcher, "init", "bench")
		c.Env = env
		runCmd(c)
		check(os.WriteFile(filepath.Join(home, ".claude-bench", ".claude.json"), []byte(seed), 0o600))
		// The repository trusted for the account, as accepting Claude's
		// dialog once in it records (internal/ledger).
		check(os.WriteFile(filepath.Join(home, ".claude-bench", ".claude-account-shared.json"),
			[]byte(fmt.Sprintf(`{"trustedRepositories": [%q]}`, dirs[0])), 0o600))
		start = func(dir string) *exec.Cmd {
			return exec.Command(launcher, "run", "--account", "bench", "--", "--bg", "say done")
		}
	}
	for _, dir := range dirs {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		c := start(dir)
		c = exec.CommandContext(ctx, c.Path, c.Args[1:]...)
		c.Dir, c.Env = dir, env
		out, err := c.CombinedOutput()
		cancel()
		if err != nil || !strings.Contains(string(out), "backgrounded") {
			stopFleet(claude, env, mark)
			check(fmt.Errorf("%s in %s: %v: %s (a session the launcher or Claude could not send to the background)", strings.Join(c.Args, " "), dir, err, out))
		}
	}
	var err error
	side.procs, side.configs, err = settle(mark)
	if err != nil {
		// Measured anyway, and said: the other side's figures still count.
		side.failed = err.Error()
	}
	side.answered = answered.Load() - before
	for _, p := range side.procs {
		side.rss += p.rss
		side.pss += p.pss
	}
	stopFleet(claude, env, mark)
	return side
}

// fleetRepo makes a repository with three worktrees (its main one and two
// linked) and returns their paths.
func fleetRepo(root string) []string {
	repo := filepath.Join(root, "repo")
	git := func(args ...string) {
		runCmd(exec.Command("git", append([]string{"-C", repo, "-c", "user.name=b", "-c", "user.email=b@x"}, args...)...))
	}
	check(os.MkdirAll(repo, 0o755))
	git("init", "-q")
	check(os.WriteFile(filepath.Join(repo, "README"), []byte("fleet\n"), 0o644))
	git("add", "README")
	git("commit", "-qm", "init")
	dirs := []string{repo}
	for i := 2; i <= fleetWorktrees; i++ {
		wt := filepath.Join(root, fmt.Sprintf("wt%d", i))
		git("worktree", "add", "-q", "-b", fmt.Sprintf("wt%d", i), wt)
		dirs = append(dirs, wt)
	}
	return dirs
}

// settle waits until the three sessions are idle and the fleet's processes
// hold still (the supervisor pre-warms a spare after a session starts), then
// returns them and the config dirs whose supervisor runs.
func settle(mark string) ([]proc, []string, error) {
	deadline := time.Now().Add(3 * time.Minute)
	var last string
	steady := 0
	for {
		procs := fleetProcs(mark)
		configs, idle := fleetState(procs)
		// What must hold still: the processes, and their memory to 2%.
		key := signature(procs)
		if idle == fleetWorktrees && key == last {
			steady++
		} else {
			steady = 0
		}
		last = key
		if steady >= 3 {
			return procs, configs, nil
		}
		if time.Now().After(deadline) {
			return procs, configs, fmt.Errorf("the fleet did not settle in 3 minutes: %d of %d background sessions idle, %d processes (each session's jobs/ID/state.json in its config dir says why)", idle, fleetWorktrees, len(procs))
		}
		time.Sleep(time.Second)
	}
}

// fleetState reads the fleet of each config dir the processes run with:
// the dirs whose supervisor runs, and how many background sessions are idle
// (their task done: Claude's own state "done", or its session record "idle").
func fleetState(procs []proc) (configs []string, idle int) {
	seen := map[string]bool{}
	for _, p := range procs {
		if p.configDir == "" || seen[p.configDir] {
			continue
		}
		seen[p.configDir] = true
		f := fleet.Read(p.configDir, nil)
		if f.Supervisor != 0 {
			configs = append(configs, p.configDir)
		}
		for _, a := range f.Agents {
			status := ""
			if data, err := os.ReadFile(filepath.Join(p.configDir, "sessions", fmt.Sprintf("%d.json", a.PID))); err == nil {
				status = gjson.GetBytes(data, "status").String()
			}
			if a.State == fleet.Done || status == "idle" {
				idle++
			}
		}
	}
	sort.Strings(configs)
	return configs, idle
}

// signature is the fleet's processes and their memory in 2% steps.
func signature(procs []proc) string {
	var b strings.Builder
	for _, p := range procs {
		fmt.Fprintf(&b, "%d:%d ", p.pid, bucket(p.rss))
	}
	return b.String()
}

func bucket(kib int64) int64 {
	if kib <= 0 {
		return 0
	}
	n := int64(0)
	for f := float64(kib); f > 1024; f /= 1.02 {
		n++
	}
	return n
}

// stopFleet stops every supervisor of the run, with the sessions it hosts,
// by Claude's own command in its config dir, and waits until no process of
// the run is left. What still runs after that is ended: every one carries
// this run's mark, so it is the benchmark's own.
func stopFleet(claude string, env []string, mark string) {
	dirs := map[string]bool{}
	for _, p := range fleetProcs(mark) {
		if p.configDir != "" {
			dirs[p.configDir] = true
		}
	}
	for dir := range dirs {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		c := exec.CommandContext(ctx, claude, "daemon", "stop", "--any")
		c.Env = append(withoutConfigDir(env), "CLAUDE_CONFIG_DIR="+dir)
		if out, err := c.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "bench: claude daemon stop --any in %s: %v: %s\n", dir, err, out)
		}
		cancel()
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if len(fleetProcs(mark)) == 0 {
			return
		}
	}
	left := fleetProcs(mark)
	fmt.Fprintf(os.Stderr, "bench: %d process(es) of the fleet outlived claude daemon stop --any; ending them\n", len(left))
	for _, p := range left {
		if pr, err := os.FindProcess(p.pid); err == nil {
			_ = pr.Kill()
		}
	}
}

var configDirVar = regexp.MustCompile(`^CLAUDE_CONFIG_DIR=`)

func withoutConfigDir(env []string) []string {
	var out []string
	for _, kv := range env {
		if !configDirVar.MatchString(kv) {
			out = append(out, kv)
		}
	}
	return out
}
