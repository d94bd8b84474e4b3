package lock_test

// Hardening under load, with the real launcher binary and real git:
//   - 12 launches at once in one workspace: exactly one runs, 11 are refused
//     with exit status 3 naming the one that runs;
//   - 12 launches at once in 12 worktrees of one repository: all run at the
//     same time, each with its own valid runtime and nothing of another's;
//   - `worktree new` for 10 names at once: 10 worktrees, git's metadata and
//     info/exclude intact.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/testenv"
)

// stub is a claude that records what it was started with in $STUB_OUT/<pid>
// (config dir, task list, working directory, launcher pid), then waits
// until $STUB_RELEASE exists.
const stub = `#!/bin/sh
printf '%s\n%s\n%s\n%s\n' "$CLAUDE_CONFIG_DIR" "$CLAUDE_CODE_TASK_LIST_ID" "$(pwd -P)" "$PPID" > "$STUB_OUT/.$$" && mv "$STUB_OUT/.$$" "$STUB_OUT/$$"
while [ ! -e "$STUB_RELEASE" ]; do sleep 0.05; done
exit 0
`

// world is a testenv.World whose stub claude reports and waits.
type world struct {
	*testenv.World
	out     string // $STUB_OUT
	release string // $STUB_RELEASE
}

func newWorld(t *testing.T) *world {
	t.Helper()
	root := t.TempDir()
	w := &world{out: filepath.Join(root, "stub-out"), release: filepath.Join(root, "release")}
	must(t, os.MkdirAll(w.out, 0o755))
	w.World = testenv.NewWorld(t, stub, "STUB_OUT="+w.out, "STUB_RELEASE="+w.release)
	t.Cleanup(func() { _ = os.WriteFile(w.release, nil, 0o644) }) // never leave a stub waiting
	return w
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (w *world) account() {
	w.T.Helper()
	w.OK(w.Root, "init", "x")
	acct := filepath.Join(w.Root, "home", ".claude-x")
	must(w.T, os.WriteFile(filepath.Join(acct, "settings.json"), []byte(`{"model": "opus"}`+"\n"), 0o600))
	must(w.T, os.WriteFile(filepath.Join(acct, ".mcp.json"), []byte(`{"mcpServers": {"fresh": {"command": "/bin/true"}}}`+"\n"), 0o600))
}

// launch is one launcher started in the background.
type launch struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	done   chan struct{}
	err    error
}

func (w *world) start(dir string, args ...string) *launch {
	w.T.Helper()
	l := &launch{cmd: w.Cmd(dir, args...), done: make(chan struct{})}
	l.cmd.Stderr = &l.stderr
	must(w.T, l.cmd.Start())
	go func() { l.err = l.cmd.Wait(); close(l.done) }()
	w.T.Cleanup(func() {
		select {
		case <-l.done:
		default:
			_ = l.cmd.Process.Kill()
			<-l.done
		}
	})
	return l
}

func (l *launch) exited() bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}

func (l *launch) code() int {
	if l.err == nil {
		return 0
	}
	if ee, ok := l.err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}

// stubs reads what every started stub recorded.
type started struct{ config, task, dir, launcherPID string }

func (w *world) stubs() map[string]started {
	w.T.Helper()
	des, err := os.ReadDir(w.out)
	must(w.T, err)
	out := map[string]started{}
	for _, de := range des {
		if strings.HasPrefix(de.Name(), ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(w.out, de.Name()))
		must(w.T, err)
		f := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		if len(f) != 4 {
			w.T.Fatalf("stub %s wrote %q", de.Name(), data)
		}
		out[de.Name()] = started{f[0], f[1], f[2], f[3]}
	}
	return out
}

func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
	}
}

// alreadyRuns is the refusal: it names Claude's PID (2), or while Claude has
// not started yet its launcher's (3).
var alreadyRuns = regexp.MustCompile(`^claude-account: claude \(x\) already runs in (.+?)(?: as PID (\d+)|, still starting \(launcher PID (\d+)\)); 'claude-account close --account x \S+' stops it, or 'claude-account run --account x --worktree NEW' starts a second one in a worktree of its own\n$`)

func TestHardenTwelveLaunchesOneWorkspace(t *testing.T) {
	w := newWorld(t)
	w.account()
	repo := w.Repo("repo")
	// Three rounds: the first builds the runtime while 11 others plan from a
	// half-made one; the later ones race on an existing lock file.
	for round := 0; round < 3 && !t.Failed(); round++ {
		twelveAtOnce(t, w, repo, round)
	}
	checkRuntime(t, filepath.Join(repo, ".git", "claude-runtime", "x"), repo)
}

func twelveAtOnce(t *testing.T, w *world, repo string, round int) {
	t.Helper()
	must(t, os.RemoveAll(w.out))
	must(t, os.MkdirAll(w.out, 0o755))
	must(t, os.RemoveAll(w.release))
	const n = 12
	var ls []*launch
	for i := 0; i < n; i++ {
		ls = append(ls, w.start(repo, "run", "--account", "x"))
	}
	// The refused ones exit at once; the one that runs waits for release.
	waitFor(t, "11 launches to be refused and 1 to start Claude", testenv.Patience, func() bool {
		exited := 0
		for _, l := range ls {
			if l.exited() {
				exited++
			}
		}
		return exited >= n-1 && len(w.stubs()) >= 1 || exited == n
	})
	var running *launch
	for _, l := range ls {
		if !l.exited() {
			if running != nil {
				t.Fatalf("round %d: two launches still run: PIDs %d and %d", round, running.cmd.Process.Pid, l.cmd.Process.Pid)
			}
			running = l
		}
	}
	if running == nil {
		for _, l := range ls {
			t.Logf("PID %d exit %d: %s", l.cmd.Process.Pid, l.code(), l.stderr.String())
		}
		t.Fatalf("round %d: no launch is running: all 12 exited", round)
	}
	stubs := w.stubs()
	if len(stubs) != 1 {
		t.Fatalf("round %d: %d Claudes started, want exactly 1: %v", round, len(stubs), stubs)
	}
	for _, s := range stubs {
		if s.launcherPID != strconv.Itoa(running.cmd.Process.Pid) {
			t.Errorf("round %d: Claude was started by PID %s, but the launch still running is PID %d", round, s.launcherPID, running.cmd.Process.Pid)
		}
	}
	for _, l := range ls {
		if l == running {
			continue
		}
		if c := l.code(); c != 3 {
			t.Errorf("round %d: PID %d: exit status %d, want 3; stderr: %q", round, l.cmd.Process.Pid, c, l.stderr.String())
			continue
		}
		m := alreadyRuns.FindStringSubmatch(l.stderr.String())
		if m == nil {
			t.Errorf("round %d: PID %d: stderr %q is not the one-line 'already runs' message", round, l.cmd.Process.Pid, l.stderr.String())
			continue
		}
		if m[1] != repo {
			t.Errorf("round %d: PID %d: the message names workspace %q, want %s", round, l.cmd.Process.Pid, m[1], repo)
		}
		_, claude := stubs[m[2]] // a stub's record is named for its PID
		switch {
		case m[2] != "" && !claude:
			t.Errorf("round %d: PID %d: the message names PID %s as Claude's, but Claude runs as %v", round, l.cmd.Process.Pid, m[2], stubs)
		case m[3] != "" && m[3] != strconv.Itoa(running.cmd.Process.Pid):
			t.Errorf("round %d: PID %d: the message names launcher PID %s as the holder, but PID %d holds the lock (a refused launcher read the lock body before the holder wrote it)",
				round, l.cmd.Process.Pid, m[3], running.cmd.Process.Pid)
		}
	}
	must(t, os.WriteFile(w.release, nil, 0o644))
	waitFor(t, "the running launch to exit", testenv.Patience, running.exited)
	if c := running.code(); c != 0 {
		t.Errorf("round %d: the launch that ran exited %d, want 0; stderr: %s", round, c, running.stderr.String())
	}
}

// checkRuntime: the runtime of toplevel is complete and valid, and bound to
// toplevel alone.
func checkRuntime(t *testing.T, rt, toplevel string) {
	t.Helper()
	var ws struct {
		Toplevel, Fingerprint string
	}
	data, err := os.ReadFile(filepath.Join(rt, "workspace.json"))
	if err != nil {
		t.Errorf("%s: %v", rt, err)
		return
	}
	if err := json.Unmarshal(data, &ws); err != nil || ws.Toplevel != toplevel {
		t.Errorf("%s/workspace.json = %s (%v), want toplevel %s", rt, data, err, toplevel)
	}
	for _, name := range []string{".claude.json", "settings.json"} {
		data, err := os.ReadFile(filepath.Join(rt, name))
		if err != nil || !json.Valid(data) {
			t.Errorf("%s/%s is not valid JSON (%v): %q", rt, name, err, data)
		}
	}
	var st struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	data, _ = os.ReadFile(filepath.Join(rt, ".claude.json"))
	if json.Unmarshal(data, &st) != nil || len(st.MCPServers) != 1 || st.MCPServers["fresh"] == nil {
		t.Errorf("%s/.claude.json mcpServers = %v, want just fresh", rt, st.MCPServers)
	}
	var set struct{ Model string }
	data, _ = os.ReadFile(filepath.Join(rt, "settings.json"))
	if json.Unmarshal(data, &set) != nil || set.Model != "opus" {
		t.Errorf("%s/settings.json = %s, want model opus", rt, data)
	}
	if l, err := os.Readlink(filepath.Join(rt, "commands")); err != nil || !strings.HasSuffix(l, "/.claude-x/commands") {
		t.Errorf("%s/commands links to %q (%v), want the account's commands", rt, l, err)
	}
	des, _ := os.ReadDir(rt)
	for _, de := range des {
		if regexp.MustCompile(`^\..*\.json\d+$`).MatchString(de.Name()) {
			t.Errorf("temporary file %s left in %s", de.Name(), rt)
		}
	}
}

func TestHardenTwelveWorktreesAtOnce(t *testing.T) {
	w := newWorld(t)
	w.account()
	repo := w.Repo("repo")
	const n = 12
	var wts []string
	for i := 0; i < n; i++ {
		wt := filepath.Join(w.Root, fmt.Sprintf("wt%02d", i))
		w.Git(repo, "worktree", "add", "-q", "-b", fmt.Sprintf("b%02d", i), wt)
		wts = append(wts, wt)
	}
	var ls []*launch
	for _, wt := range wts {
		ls = append(ls, w.start(wt, "run", "--account", "x"))
	}
	waitFor(t, "all 12 Claudes to run at the same time", testenv.Patience, func() bool {
		for _, l := range ls {
			if l.exited() {
				t.Fatalf("launch in %s exited %d while the others start: %s", l.cmd.Dir, l.code(), l.stderr.String())
			}
		}
		return len(w.stubs()) == n
	})
	stubs := w.stubs()
	configs, tasks := map[string]string{}, map[string]string{}
	for _, s := range stubs {
		if other, dup := configs[s.config]; dup {
			t.Errorf("%s and %s share the config dir %s", s.dir, other, s.config)
		}
		configs[s.config] = s.dir
		if other, dup := tasks[s.task]; dup {
			t.Errorf("%s and %s share the task list %s", s.dir, other, s.task)
		}
		tasks[s.task] = s.dir
		want := filepath.Join(repo, ".git", "worktrees", filepath.Base(s.dir), "claude-runtime", "x")
		if s.config != want {
			t.Errorf("Claude in %s got CLAUDE_CONFIG_DIR=%s, want %s", s.dir, s.config, want)
		}
	}
	must(t, os.WriteFile(w.release, nil, 0o644))
	for _, l := range ls {
		waitFor(t, "launch in "+l.cmd.Dir+" to exit", testenv.Patience, l.exited)
		if c := l.code(); c != 0 {
			t.Errorf("launch in %s exited %d: %s", l.cmd.Dir, c, l.stderr.String())
		}
	}
	for _, wt := range wts {
		checkRuntime(t, filepath.Join(repo, ".git", "worktrees", filepath.Base(wt), "claude-runtime", "x"), wt)
	}
	// Nothing went to the main worktree's runtime.
	if _, err := os.Stat(filepath.Join(repo, ".git", "claude-runtime")); err == nil {
		t.Errorf("the main worktree got a runtime though nothing ran there")
	}
	locks, _ := filepath.Glob(filepath.Join(w.Root, "xdg", "run", "claude-account", "x-*.lock"))
	if len(locks) != n {
		t.Errorf("%d lock files, want one per worktree (%d): %v", len(locks), n, locks)
	}
}

func TestHardenWorktreeNewTenAtOnce(t *testing.T) {
	w := newWorld(t)
	// A race shows only sometimes: three repositories, one after the other.
	for round := 0; round < 3 && !t.Failed(); round++ {
		tenWorktreesAtOnce(t, w, w.Repo(fmt.Sprintf("repo%d", round)))
	}
}

func tenWorktreesAtOnce(t *testing.T, w *world, repo string) {
	t.Helper()
	const n = 10
	var ls []*launch
	for i := 0; i < n; i++ {
		ls = append(ls, w.start(repo, "worktree", "new", fmt.Sprintf("slug-%02d", i)))
	}
	for _, l := range ls {
		waitFor(t, "worktree new to finish", testenv.Patience, l.exited)
		if c := l.code(); c != 0 {
			t.Errorf("%s: exit %d: %s", strings.Join(l.cmd.Args[1:], " "), c, l.stderr.String())
		}
	}
	list := w.Git(repo, "worktree", "list", "--porcelain")
	var paths []string
	for _, line := range strings.Split(list, "\n") {
		if p, ok := strings.CutPrefix(line, "worktree "); ok && p != repo {
			paths = append(paths, p)
		}
		if strings.HasPrefix(line, "prunable") || strings.HasPrefix(line, "locked") {
			t.Errorf("git worktree list: %s", line)
		}
	}
	sort.Strings(paths)
	if len(paths) != n {
		t.Fatalf("git lists %d linked worktrees, want %d:\n%s", len(paths), n, list)
	}
	for i, p := range paths {
		want := filepath.Join(repo, ".claude", "worktrees", fmt.Sprintf("slug-%02d", i))
		if p != want {
			t.Errorf("worktree %d is %s, want %s", i, p, want)
		}
		if b := strings.TrimSpace(w.Git(p, "rev-parse", "--abbrev-ref", "HEAD")); b != fmt.Sprintf("worktree-slug-%02d", i) {
			t.Errorf("%s is on %s", p, b)
		}
		if s := w.Git(p, "status", "--porcelain"); s != "" {
			t.Errorf("%s is not clean:\n%s", p, s)
		}
	}
	des, err := os.ReadDir(filepath.Join(repo, ".git", "worktrees"))
	must(t, err)
	if len(des) != n {
		t.Errorf(".git/worktrees has %d entries, want %d", len(des), n)
	}
	for _, de := range des {
		for _, f := range []string{"gitdir", "HEAD", "commondir"} {
			data, err := os.ReadFile(filepath.Join(repo, ".git", "worktrees", de.Name(), f))
			if err != nil || len(bytes.TrimSpace(data)) == 0 {
				t.Errorf(".git/worktrees/%s/%s: %q %v", de.Name(), f, data, err)
			}
		}
	}
	if out := w.Git(repo, "worktree", "prune", "--dry-run", "-v"); out != "" {
		t.Errorf("git would prune:\n%s", out)
	}
	w.Git(repo, "fsck", "--no-progress")
	exclude, err := os.ReadFile(filepath.Join(repo, ".git", "info", "exclude"))
	must(t, err)
	if c := strings.Count(string(exclude), "\n/.claude/worktrees/\n"); c != 1 {
		t.Errorf("info/exclude lists /.claude/worktrees/ %d times, want once:\n%s", c, exclude)
	}
	if !bytes.HasSuffix(exclude, []byte("\n")) || bytes.Contains(exclude, []byte{0}) {
		t.Errorf("info/exclude is damaged: %q", exclude)
	}
	if s := w.Git(repo, "status", "--porcelain"); s != "" {
		t.Errorf("the main worktree shows the worktrees dir in git status:\n%s", s)
	}
	// The exclude lock file is ours and private.
	if fi, err := os.Lstat(filepath.Join(repo, ".git", "info", ".claude-account-exclude.lock")); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		t.Errorf("exclude lock is a symlink")
	}
}
