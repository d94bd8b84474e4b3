package claudeproc

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fakeProc writes what /proc/<pid> says of one process.
func fakeProc(t *testing.T, root string, pid, ppid int, comm, cwd string, cmdline ...string) {
	t.Helper()
	dir := filepath.Join(root, fmt.Sprint(pid))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	stat := fmt.Sprintf("%d (%s) S %d 1 1 0 -1 4194560 0 0\n", pid, comm, ppid)
	if err := os.WriteFile(filepath.Join(dir, "stat"), []byte(stat), 0o644); err != nil {
		t.Fatal(err)
	}
	if cwd != "" {
		if err := os.Symlink(cwd, filepath.Join(dir, "cwd")); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "cmdline"), []byte(strings.Join(cmdline, "\x00")+"\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestIn(t *testing.T) {
	proc := t.TempDir()
	wt := "/src/app/.claude/worktrees/fix"
	fakeProc(t, proc, 100, 1, "claude", wt+"/sub")                                                          // claude -w, in a subdir
	fakeProc(t, proc, 200, 1, "claude", "/src/app")                                                         // Claude in the main worktree…
	fakeProc(t, proc, 201, 200, "bash", "/src/app/.claude/worktrees/agent")                                 // …whose agent's tool works in another
	fakeProc(t, proc, 300, 1, "node", wt, "node", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js") // an old Claude that kept node's name
	fakeProc(t, proc, 400, 1, "node", wt, "node", "server.js")                                              // not Claude
	fakeProc(t, proc, 500, 1, "bash", wt)                                                                   // a shell of the user's
	fakeProc(t, proc, 600, 1, "claude", "/src/app/.claude/worktrees/fixed")                                 // a sibling whose name starts the same
	fakeProc(t, proc, 800, 1, "node", wt, "node", "/home/u/.npm/bin/claude", "-w")                          // before it names itself
	fakeProc(t, proc, 700, 1, "claude (x)", wt)                                                             // a name with parentheses is not claude
	s, err := Scan(proc)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir  string
		want []int
	}{
		{wt, []int{100, 300, 800}},
		{"/src/app/.claude/worktrees/agent", []int{200}},
		{"/src/app/.claude/worktrees/fixed", []int{600}},
		{"/src/app/.claude/worktrees/none", []int{}},
	} {
		if got := s.In(c.dir); !reflect.DeepEqual(got, c.want) {
			t.Errorf("In(%s) = %v, want %v", c.dir, got, c.want)
		}
	}
}

func TestInLeavesOutTheAsker(t *testing.T) {
	proc := t.TempDir()
	wt := "/src/app/.claude/worktrees/fix"
	me := os.Getpid()
	// The Claude that runs the WorktreeRemove hook sits in the worktree and
	// is this process's parent: it asked, so it is not in the way.
	fakeProc(t, proc, 900, 1, "claude", wt)
	fakeProc(t, proc, me, 900, "claude-account", wt)
	fakeProc(t, proc, 901, 1, "claude", wt) // another Claude there is
	s, err := Scan(proc)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.In(wt); !reflect.DeepEqual(got, []int{901}) {
		t.Errorf("In = %v, want [901]", got)
	}
}

func TestInOnNil(t *testing.T) {
	var s *Snapshot
	if got := s.In("/x"); got != nil {
		t.Errorf("nil snapshot gives %v", got)
	}
}

// FuzzParseStat: any /proc/<pid>/stat body parses or is refused without a
// panic, and a parsed name is exactly what lies between the first '(' and
// the last ')'.
func FuzzParseStat(f *testing.F) {
	for _, s := range []string{
		"1 (systemd) S 0 1 1 0 -1", "42 (claude) S 7 42", "5 (a) b) c) R 3 5", "x (y) S 1", "7 () S 2",
		"", "(", ")", "1 (x", "1 x) S 2", "1 (x) S", "1 (x) S -3", "-1 (x) S 2",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, ok := parseStat(b)
		if !ok {
			return
		}
		s := string(b)
		if want := s[strings.IndexByte(s, '(')+1 : strings.LastIndexByte(s, ')')]; p.Comm != want {
			t.Fatalf("comm %q, want %q", p.Comm, want)
		}
	})
}
