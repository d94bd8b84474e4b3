// Command bench times claude-account side by side with its floors — a
// static Go program that only forks the stub Claude and waits (bench/floor),
// a Go hello-world, a copy and a durable copy of Claude's state — with the
// project's own shell+jq reference wrapper (bench/reference-wrapper.sh, the
// seed design's launcher), and with the launcher built from an earlier
// commit (-base). Fixtures are made here (fixture.go). Variants run
// interleaved (A B C A B C …), warm-up runs are dropped, and medians,
// min–max and ratios are reported, so a noisy shared machine shows as spread
// rather than as a wrong ratio.
//
// A launch is reported three ways, each as a ratio of medians to the floor's
// measured in the same run: the whole run, the time to Claude's exec (from
// the harness starting the launcher to the stub Claude's main), and the time
// after Claude exits (from the stub's exit to the launcher's). The stub
// (bench/stub) writes its clock readings when BENCH_TIMES names a file; its
// own start-up cost is the same under every launcher and drops out of the
// differences.
//
// Then 'claude-account sessions' lists 1,000 conversations across 50
// worktrees (conversations.go), and a launch among them is timed again.
//
// Last, with a real Claude Code (-claude, $BENCH_CLAUDE), the memory of
// background sessions from three worktrees, plain Claude with one config dir
// against the launcher (fleet.go); -fleet runs only that.
//
// usage: go run ./bench [-quick] [-n N] [-bin PATH] [-base REV | -bin-base PATH]
//
//	[-sizes 1,20,100] [-no-worktrees] [-claude PATH] [-fleet]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	quick := flag.Bool("quick", false, "tiny fixture, few runs: checks the harness works (CI)")
	n := flag.Int("n", 30, "timed runs per variant")
	bin := flag.String("bin", "", "claude-account binary (default: build one from this tree)")
	base := flag.String("base", "", "also time the launcher built from this git revision, side by side")
	binBase := flag.String("bin-base", "", "also time this claude-account binary, side by side (instead of -base)")
	sizeList := flag.String("sizes", "1,20,100", "state sizes in MB, comma-separated")
	skipWT := flag.Bool("no-worktrees", false, "skip the worktree benchmarks")
	fixtureOnly := flag.String("make-fixture", "", "internal: make one fixture in DIR (size from -sizes) and exit")
	claude := flag.String("claude", firstEnv("BENCH_CLAUDE", "CLAUDE_REAL_BIN"), "a real Claude Code (≥ 2.1.141) for the fleet memory benchmark (default $BENCH_CLAUDE, $CLAUDE_REAL_BIN)")
	fleetOnly := flag.Bool("fleet", false, "run only the fleet memory benchmark (needs -claude)")
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
	tools := buildTools(work, *bin)
	if *base != "" {
		tools.base = buildAt(work, *base)
	}
	if *binBase != "" {
		tools.base = *binBase
	}
	ref, err := filepath.Abs(filepath.Join("bench", "reference-wrapper.sh"))
	check(err)
	tools.ref = ref
	if *fleetOnly {
		fleetMemory(work, tools, *claude)
		return
	}

	var first *fixture
	sizes := strings.Split(*sizeList, ",")
	if *quick {
		sizes = []string{"0.1"}
	}
	fmt.Printf("claude-account benchmark: %d timed runs per variant (after 2 warm-up), interleaved", *n)
	if tools.base != "" {
		fmt.Printf("; base: %s", tools.baseName(*base))
	}
	fmt.Print("\n\n")
	startup(tools, work, *n)
	for i, size := range sizes {
		fx := newFixture(work, fmt.Sprintf("fx%d", i), size, tools.bin, tools)
		var fxb *fixture // the base launcher's own account and repository
		if tools.base != "" {
			fxb = newFixture(work, fmt.Sprintf("fx%d-base", i), size, tools.base, tools)
		}
		if i == 0 {
			first = fx
			smallState(fx, fxb, tools, *n)
		}
		states(fx, fxb, size, *n)
	}
	if !*skipWT {
		worktrees(work, tools.bin, *n, *quick)
	}
	if first != nil {
		conversations(first, tools, *n, *quick)
	}
	if !*quick {
		fleetMemory(work, tools, *claude)
	}
}

// firstEnv is the first of the variables that is set: read before hermetic
// drops them.
func firstEnv(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}

// tools are the programs the benchmark builds and times.
type tools struct {
	bin   string // claude-account under test
	base  string // claude-account from an earlier commit, or ""
	floor string // bench/floor
	stub  string // bench/stub
	ref   string // the reference wrapper script
}

func (t tools) baseName(rev string) string {
	if rev != "" {
		return rev
	}
	return t.base
}

// buildTools builds the launcher (unless given), the floor and the stub, all
// static, as the Nix package builds the launcher: kong imports os/user,
// which with cgo links libc and costs milliseconds at every start.
func buildTools(work, bin string) tools {
	t := tools{bin: bin, floor: filepath.Join(work, "floor"), stub: filepath.Join(work, "stub")}
	if t.bin == "" {
		t.bin = filepath.Join(work, "claude-account")
		goBuild(".", t.bin, "./cmd/claude-account")
	}
	goBuild(".", t.floor, "./bench/floor")
	goBuild(".", t.stub, "./bench/stub")
	return t
}

// buildAt builds the launcher of git revision rev, in a worktree of its own
// that is removed again.
func buildAt(work, rev string) string {
	dir := filepath.Join(work, "base-src")
	run("git", "worktree", "add", "-q", "--detach", dir, rev)
	defer run("git", "worktree", "remove", "--force", dir)
	// Named claude-account, in a dir of its own: any other name that
	// starts with claude would be read as an account's launcher.
	out := filepath.Join(work, "base", "claude-account")
	goBuild(dir, out, "./cmd/claude-account")
	return out
}

func goBuild(dir, out, pkg string) {
	c := exec.Command("go", "build", "-o", out, pkg)
	c.Dir = dir
	c.Env = append(os.Environ(), "CGO_ENABLED=0")
	runCmd(c)
}

// startup times what every command pays before it does anything: version
// against a static Go hello-world.
func startup(t tools, work string, n int) {
	vs := []variant{
		{name: "Go hello-world (floor)", cmd: func() *exec.Cmd { return exec.Command(t.floor, "hello") }},
		{name: "claude-account version", cmd: func() *exec.Cmd { return exec.Command(t.bin, "version") }},
	}
	if t.base != "" {
		vs = append(vs, variant{name: "base: claude-account version", cmd: func() *exec.Cmd { return exec.Command(t.base, "version") }})
	}
	report(compare(n, vs), "start-up", "")
}

// smallState times a launch whose state is small and already in sync: the
// whole run, the time to Claude's exec and the time after it exits.
func smallState(fx, fxb *fixture, t tools, n int) {
	vs := []variant{
		{name: "floor: fork the stub Claude, wait", timed: true, cmd: func() *exec.Cmd { return fx.cmd(t.floor, "exec", fx.fake) }},
		{name: "claude-account (claudebench)", timed: true, cmd: fx.ours},
	}
	if fxb != nil {
		vs = append(vs, variant{name: "base: claude-account (claudebench)", timed: true, cmd: fxb.ours})
	}
	vs = append(vs, variant{name: "reference wrapper", prepare: fx.refReset, cmd: fx.reference})
	res := compare(n, vs)
	report(res, "launch, small state in sync", "reference wrapper")
	phases(res)
}

// states times a launch with a state of size MB: rewritten (a stale managed
// key) against a durable copy, and in sync against a plain copy.
func states(fx, fxb *fixture, size string, n int) {
	label := size + " MB state"
	vs := []variant{
		{name: "durable copy of the state (floor)", cmd: fx.durableCopy},
		{name: "claude-account (claudebench)", prepare: fx.stale, cmd: fx.ours},
	}
	if fxb != nil {
		vs = append(vs, variant{name: "base: claude-account (claudebench)", prepare: fxb.stale, cmd: fxb.ours})
	}
	vs = append(vs, variant{name: "reference wrapper", prepare: fx.refStale, cmd: fx.reference})
	report(compare(n, vs), label+", rewrite", "reference wrapper")
	fx.stale()
	runCmd(fx.ours())
	vs = []variant{
		{name: "cp of the state (floor)", cmd: fx.cp},
		{name: "claude-account (claudebench)", cmd: fx.ours},
	}
	if fxb != nil {
		fxb.stale()
		runCmd(fxb.ours())
		vs = append(vs, variant{name: "base: claude-account (claudebench)", cmd: fxb.ours})
	}
	report(compare(n, vs), label+", in sync", "")
}
