package claudeproc

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestRecordedLinux reads a /proc recorded with real Claude Code processes
// (testdata/record-linux.sh: 2.1.330 native, laid out as its installer
// does, also started by its own path; 2.0.77 node) through Scan.
func TestRecordedLinux(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "linux-proc.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	proc := t.TempDir()
	for _, f := range ar.Files {
		path := filepath.Join(proc, f.Name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		data := string(f.Data)
		switch filepath.Base(f.Name) {
		case "cwd", "exe":
			err = os.Symlink(strings.TrimSuffix(data, "\n"), path)
		case "cmdline":
			err = os.WriteFile(path, []byte(strings.ReplaceAll(data, "\n", "\x00")), 0o644)
		default:
			err = os.WriteFile(path, f.Data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	s, err := Scan(proc)
	if err != nil {
		t.Fatal(err)
	}
	pid := func(cwd string) int {
		for _, p := range s.procs {
			if p.Cwd == cwd {
				return p.PID
			}
		}
		t.Fatalf("no process recorded in %s", cwd)
		return 0
	}
	const repo = "/tmp/claudeproc-rec/repo"
	wt := repo + "/.claude/worktrees/"
	main, fix, versioned, node := pid(repo), pid(wt+"fix"), pid(wt+"versioned"), pid(wt+"node")
	for _, c := range []struct {
		dir  string
		want []int
	}{
		{wt + "agent", []int{main}},          // the main worktree's Claude, through its tool
		{wt + "fix", []int{fix}},             // claude -w (native)
		{wt + "versioned", []int{versioned}}, // native, started by its versions/2.1.330 file and named so
		{wt + "node", []int{node}},           // a node release, renamed claude
		{wt + "shell", []int{}},              // a sleep of the user's
		{wt + "none", []int{}},
	} {
		got, err := s.In(c.dir)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("In(%s) = %v, %v; want %v", c.dir, got, err, c.want)
		}
	}
	for _, p := range []int{main, fix, versioned, node} {
		if !s.procs[p].Claude() {
			t.Errorf("PID %d (%s) is not taken for Claude", p, s.procs[p].Comm)
		}
	}
}

// darwinTable is a macOS process table in testdata/darwin-*.txtar: kern.proc
// ("pid ppid uid comm" a line, as kern.proc.all gives them), argv/<pid>
// (one argument a line; the test lays them out as kern.procargs2 does,
// after the executable's path exe/<pid>, else node's),
// lsof (what lsof -F n prints for the pids asked) and asked (those pids).
type darwinTable struct {
	table []kinfo
	args  map[int][]string
	exe   map[int]string
	lsof  []byte
	asked string
	dead  map[int]bool
}

func readDarwin(t *testing.T, name string) darwinTable {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	d := darwinTable{args: map[int][]string{}, exe: map[int]string{}, dead: map[int]bool{}}
	for _, f := range ar.Files {
		switch {
		case f.Name == "kern.proc":
			for _, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
				fs := strings.SplitN(line, " ", 4)
				var n [3]int
				for i := range n {
					if n[i], err = strconv.Atoi(fs[i]); err != nil {
						t.Fatalf("kern.proc: %q: %v", line, err)
					}
				}
				d.table = append(d.table, kinfo{PID: n[0], PPID: n[1], UID: n[2], Comm: fs[3]})
			}
		case strings.HasPrefix(f.Name, "argv/"):
			pid, _ := strconv.Atoi(strings.TrimPrefix(f.Name, "argv/"))
			d.args[pid] = strings.Split(strings.TrimSuffix(string(f.Data), "\n"), "\n")
		case strings.HasPrefix(f.Name, "exe/"):
			pid, _ := strconv.Atoi(strings.TrimPrefix(f.Name, "exe/"))
			d.exe[pid] = strings.TrimSpace(string(f.Data))
		case f.Name == "lsof":
			d.lsof = f.Data
		case f.Name == "asked":
			d.asked = strings.TrimSpace(string(f.Data))
		case f.Name == "dead":
			for _, w := range strings.Fields(string(f.Data)) {
				pid, _ := strconv.Atoi(w)
				d.dead[pid] = true
			}
		}
	}
	return d
}

// procargs2 lays argv out as macOS's kern.procargs2 does: argc, the
// executable's path, NUL padding to a word, the arguments, the environment.
func procargs2(exe string, argv []string) []byte {
	b := []byte{byte(len(argv)), 0, 0, 0}
	b = append(b, exe+"\x00"...)
	for len(b)%8 != 0 {
		b = append(b, 0)
	}
	for _, a := range argv {
		b = append(b, a+"\x00"...)
	}
	return append(b, "HOME=/Users/u\x00PATH=/usr/bin\x00"...)
}

func (d darwinTable) sources(t *testing.T, lsofErr error) (darwinSources, *[]string) {
	var asked []string
	return darwinSources{
		procargs: func(pid int) ([]byte, error) {
			exe, ok := d.exe[pid]
			if !ok {
				exe = "/usr/local/bin/node"
			}
			return procargs2(exe, d.args[pid]), nil
		},
		cwds: func(pids []int) (map[int]string, error) {
			asked = append(asked, strings.Join(lsofArgs(pids), " "))
			if lsofErr != nil {
				return nil, lsofErr
			}
			return parseLsof(d.lsof), nil
		},
		alive: func(pid int) bool { return !d.dead[pid] },
	}, &asked
}

// TestDarwinTable decides from a macOS process table, on any system. The
// table is written after macOS's formats (no macOS machine runs the tests):
// a native Claude in the main worktree whose tool works in an agent's
// worktree, claude -w in another, node releases before and after they set
// their title (macOS keeps "node" in the table), a node server and a shell
// that are not Claude, another user's Claude, a Claude that ended before
// lsof looked, names lsof escapes, and native Claudes the kernel names for
// their file (2.1.233, .claude-wrapped) beside a program that is not.
func TestDarwinTable(t *testing.T) {
	d := readDarwin(t, "darwin-table.txtar")
	src, asked := d.sources(t, nil)
	s := fromTable(d.table, 900, 501, src)
	if want := []string{d.asked}; !reflect.DeepEqual(*asked, want) {
		t.Errorf("lsof was asked %q, want %q", *asked, want)
	}
	const wt = "/Users/u/src/app/.claude/worktrees/"
	for _, c := range []struct {
		dir  string
		want []int
	}{
		{wt + "agent", []int{500}},
		{wt + "fix", []int{510}},
		{wt + "node", []int{520}},
		{wt + "node-early", []int{530}},
		{wt + "server", []int{}},
		{wt + "shell", []int{}},
		{wt + "other-user", []int{}},
		{wt + "gone", []int{}},
		{wt + `café\x`, []int{590}},
		{wt + "a^Bc", []int{595}},
		{wt + "asker", []int{}}, // the Claude that runs this command
		{wt + "native", []int{600}},
		{wt + "native-path", []int{610}},
		{wt + "nix", []int{620}},
		{"/Users/u/src/app", []int{500, 510, 520, 530, 590, 595, 600, 610, 620}},
	} {
		got, err := s.In(c.dir)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("In(%s) = %v, %v; want %v", c.dir, got, err, c.want)
		}
	}

	// A Claude lsof did not answer for that still runs may work anywhere:
	// In cannot tell, except where another Claude surely works.
	d.dead = nil
	src, _ = d.sources(t, nil)
	s = fromTable(d.table, 900, 501, src)
	var ue *UnknownError
	if got, err := s.In(wt + "shell"); got != nil || !asUnknown(err, &ue) || ue.PID != 570 || ue.Why != "lsof did not say" {
		t.Errorf("In(shell) = %v, %v; want an UnknownError for PID 570", got, err)
	}
	if got, err := s.In(wt + "fix"); err != nil || !reflect.DeepEqual(got, []int{510}) {
		t.Errorf("In(fix) = %v, %v; want [510]", got, err)
	}
}

// Without lsof nothing can tell where a Claude works: In says so, naming
// one, and a table without a Claude of ours needs no lsof at all.
func TestDarwinWithoutLsof(t *testing.T) {
	d := readDarwin(t, "darwin-table.txtar")
	src, _ := d.sources(t, os.ErrNotExist)
	s := fromTable(d.table, 900, 501, src)
	got, err := s.In("/Users/u/src/app/.claude/worktrees/shell")
	var ue *UnknownError
	if got != nil || !asUnknown(err, &ue) || ue.PID != 500 || !strings.Contains(err.Error(), "claude (PID 500) runs, and where it works cannot be read (file does not exist)") {
		t.Errorf("In = %v, %v; want an UnknownError for PID 500", got, err)
	}

	var none []kinfo
	for _, k := range d.table {
		if k.UID != 501 || k.Comm != "claude" && k.Comm != "node" && !strings.Contains(d.exe[k.PID], "claude") {
			none = append(none, k)
		}
	}
	src, asked := d.sources(t, os.ErrNotExist)
	s = fromTable(none, 900, 501, src)
	if got, err := s.In("/Users/u/src/app/.claude/worktrees/shell"); err != nil || len(got) != 0 || len(*asked) != 0 {
		t.Errorf("no Claude of ours: In = %v, %v; lsof asked %q", got, err, *asked)
	}
}

func asUnknown(err error, target **UnknownError) bool {
	u, ok := err.(*UnknownError)
	if ok {
		*target = u
	}
	return ok
}

// TestLsofReal runs the lsof of this machine as the macOS reader does, on
// processes working in a dir whose name lsof escapes, and decides from its
// answer. lsof's escapes and -F output are the same code on Linux and
// macOS (safestrprt, print.c); this is the one part of the macOS reader a
// Linux machine can run for real.
func TestLsofReal(t *testing.T) {
	bin, err := exec.LookPath("lsof")
	if err != nil {
		t.Skip("lsof is not installed (.ci/run installs it)")
	}
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(tmp, "app", ".claude", "worktrees")
	tricky := filepath.Join(wt, "caf\u00e9\\x^Bc\ttab")
	plain := filepath.Join(wt, "plain")
	var pids []int
	for _, dir := range []string{tricky, plain} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("sleep", "60")
		cmd.Dir = dir
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		pids = append(pids, cmd.Process.Pid)
	}
	gone := 1 << 30 // no such process: lsof exits 1 and still answers for the others
	cwds, err := lsofCwds(filepath.Join(tmp, "no-lsof-here"), append(pids, gone))
	if err != nil {
		t.Fatal(err)
	}
	if cwds[pids[0]] != lsofQuote(tricky) || cwds[pids[1]] != plain || len(cwds) != 2 {
		t.Fatalf("lsof (%s) says %q, want %q and %q", bin, cwds, lsofQuote(tricky), plain)
	}
	table := []kinfo{{PID: pids[0], PPID: 1, UID: 501, Comm: "claude"}, {PID: pids[1], PPID: 1, UID: 501, Comm: "claude"}}
	s := fromTable(table, os.Getpid(), 501, darwinSources{cwds: func(p []int) (map[int]string, error) { return lsofCwds(bin, p) }})
	for dir, want := range map[string][]int{tricky: {pids[0]}, plain: {pids[1]}, wt: {pids[0], pids[1]}, filepath.Join(wt, "caf"): {}} {
		if got, err := s.In(dir); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("In(%q) = %v, %v; want %v", dir, got, err, want)
		}
	}
}
