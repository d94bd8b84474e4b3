package main

import (
	"bytes"
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
	// timed: the command starts the stub Claude, whose clock readings give
	// the time to its exec and the time after its exit.
	timed bool
}

type result struct {
	variant
	wall, toExec, afterExit []time.Duration
	maxRSS                  []int64 // KiB
}

// compare runs the variants interleaved, n+2 times each, and drops the first
// two rounds.
func compare(n int, vs []variant) []result {
	res := make([]result, len(vs))
	times := filepath.Join(os.TempDir(), fmt.Sprintf("claude-account-bench-times-%d", os.Getpid()))
	defer os.Remove(times)
	for j, v := range vs {
		res[j].variant = v
	}
	for i := 0; i < n+2; i++ {
		for j, v := range vs {
			if v.prepare != nil {
				v.prepare()
			}
			c := v.cmd()
			if v.timed {
				check(os.WriteFile(times, nil, 0o600))
				c.Env = append(c.Env, "BENCH_TIMES="+times)
			}
			start, end := runTimed(c)
			if i < 2 {
				continue
			}
			r := &res[j]
			r.wall = append(r.wall, end.Sub(start))
			if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
				r.maxRSS = append(r.maxRSS, ru.Maxrss)
			}
			if v.timed {
				execAt, exitAt := stubTimes(times)
				r.toExec = append(r.toExec, time.Duration(execAt-start.UnixNano()))
				r.afterExit = append(r.afterExit, time.Duration(end.UnixNano()-exitAt))
			}
		}
	}
	return res
}

// runTimed runs c and returns the wall clock just before it starts and just
// after it is reaped.
func runTimed(c *exec.Cmd) (start, end time.Time) {
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	start = time.Now()
	err := c.Start()
	if err == nil {
		err = c.Wait()
	}
	end = time.Now()
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: %s: %v\n%s", strings.Join(c.Args, " "), err, out.Bytes())
		os.Exit(1)
	}
	return start, end
}

// stubTimes reads the one line the stub Claude wrote: when its main began
// and when it was about to exit (Unix nanoseconds).
func stubTimes(path string) (execAt, exitAt int64) {
	data, err := os.ReadFile(path)
	check(err)
	f := strings.Fields(string(data))
	if len(f) != 2 {
		check(fmt.Errorf("%s: the stub Claude wrote %q, not one line of two times (did the launcher start it?)", path, data))
	}
	execAt, err = strconv.ParseInt(f[0], 10, 64)
	check(err)
	exitAt, err = strconv.ParseInt(f[1], 10, 64)
	check(err)
	return execAt, exitAt
}

// report prints one table row per variant: median, min–max, peak memory and
// the ratio of medians to the first variant (the floor), and to ref for the
// one after the floor.
func report(res []result, label, ref string) {
	fmt.Printf("| %s | median | min–max | peak RSS | ratio |\n|---|---|---|---|---|\n", label)
	floor := median(res[0].wall)
	var refMed time.Duration
	for _, r := range res {
		if r.name == ref {
			refMed = median(r.wall)
		}
	}
	for j, r := range res {
		w := sorted(r.wall)
		ratio := fmt.Sprintf("%.2f× floor", ratioOf(median(r.wall), floor))
		switch {
		case j == 0:
			ratio = "1 (floor)"
		case j == 1 && refMed > 0:
			ratio += fmt.Sprintf("; reference ÷ this = %.1f", ratioOf(refMed, median(r.wall)))
		}
		fmt.Printf("| %s | %s | %s–%s | %s | %s |\n", r.name, ms(median(r.wall)), ms(w[0]), ms(w[len(w)-1]), kib(maxOf(r.maxRSS)), ratio)
	}
	fmt.Println()
}

// phases prints, for the timed variants, the time to Claude's exec and the
// time after it exits, each as a ratio of medians to the floor's (measured
// in the same run, interleaved) and as the difference from it.
func phases(res []result) {
	fmt.Println("| phase | variant | median | min–max | × floor (medians) | − floor |\n|---|---|---|---|---|---|")
	for _, phase := range []string{"to Claude's exec", "after Claude exits"} {
		var floor time.Duration
		for j, r := range res {
			ds := r.toExec
			if phase == "after Claude exits" {
				ds = r.afterExit
			}
			if !r.timed || len(ds) == 0 {
				continue
			}
			m := median(ds)
			ratio, diff := "1 (floor)", ""
			if j == 0 {
				floor = m
			} else {
				ratio = fmt.Sprintf("%.2f×", ratioOf(m, floor))
				diff = fmt.Sprintf("%+.2f ms", float64((m-floor).Microseconds())/1000)
			}
			s := sorted(ds)
			fmt.Printf("| %s | %s | %s | %s–%s | %s | %s |\n", phase, r.name, ms(m), ms(s[0]), ms(s[len(s)-1]), ratio, diff)
		}
	}
	fmt.Println()
}

func ratioOf(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
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
		for _, p := range []string{"CLAUDE", "ANTHROPIC_", "GIT_", "XDG_", "DISABLE_", "BENCH_"} {
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
