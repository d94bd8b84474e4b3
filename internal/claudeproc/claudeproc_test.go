package claudeproc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
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
		if got, err := s.In(c.dir); err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("In(%s) = %v, %v; want %v", c.dir, got, err, c.want)
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
	if got, err := s.In(wt); err != nil || !reflect.DeepEqual(got, []int{901}) {
		t.Errorf("In = %v, %v; want [901]", got, err)
	}
}

func TestInOnNil(t *testing.T) {
	var s *Snapshot
	if got, err := s.In("/x"); got != nil || err != nil {
		t.Errorf("nil snapshot gives %v, %v", got, err)
	}
}

// A process table that cannot be read tells nothing: In says so.
func TestInUnreadable(t *testing.T) {
	s := Unreadable(errors.New("open /proc: no such file or directory"))
	got, err := s.In("/x")
	if got != nil || err == nil || !strings.Contains(err.Error(), "cannot be read (open /proc") {
		t.Errorf("In = %v, %v; want the table's error", got, err)
	}
	if _, err := Scan(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("Scan of a missing dir gave no error")
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

// FuzzParseLsof: any lsof output parses without a panic, and every name
// taken belongs to a pid lsof named.
func FuzzParseLsof(f *testing.F) {
	for _, s := range []string{
		"p1\nfcwd\nn/x\n", "p1\nn/x\np2\nfcwd\nn/y z\n", "p1\nftxt\nn/bin/sh\n", "n/x\n", "px\nn/y\n", "p-1\nn/y\n", "\n\np\nf\nn\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		named := map[int]bool{}
		for _, line := range strings.Split(string(b), "\n") {
			if n, err := strconv.Atoi(strings.TrimPrefix(line, "p")); err == nil && strings.HasPrefix(line, "p") {
				named[n] = true
			}
		}
		for pid := range parseLsof(b) {
			if pid <= 0 || !named[pid] {
				t.Fatalf("pid %d taken from %q", pid, b)
			}
		}
	})
}

// FuzzParseProcArgs: any kern.procargs2 body parses without a panic into
// at most argc arguments.
func FuzzParseProcArgs(f *testing.F) {
	f.Add([]byte("\x02\x00\x00\x00/usr/bin/node\x00\x00\x00node\x00cli.js\x00HOME=/\x00"))
	f.Add([]byte("\x01\x00\x00\x00claude"))
	f.Add([]byte("\xff\xff\xff\xff/x\x00a\x00"))
	f.Add([]byte("\x05\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		exe, args := parseProcArgs(b)
		if len(args) > 0 && len(args) > int(int32(binary.LittleEndian.Uint32(b))) {
			t.Fatalf("%d args from %q", len(args), b)
		}
		if strings.IndexByte(exe, 0) >= 0 || exe != "" && !bytes.Contains(b, []byte(exe+"\x00")) {
			t.Fatalf("exe %q from %q", exe, b)
		}
	})
}

// TestNativeClaude: a process the kernel does not name claude is a native
// Claude when its command line says so, and only then.
func TestNativeClaude(t *testing.T) {
	for _, c := range []struct {
		exe  string
		argv []string
		want bool
	}{
		{"/Users/u/.local/share/claude/versions/2.1.233", []string{"claude", "-w"}, true}, // typed claude, the link's target runs
		{"/Users/u/.local/share/claude/versions/2.1.233", []string{"/Users/u/.local/share/claude/versions/2.1.233"}, true},
		{"", []string{"/home/u/.local/share/claude/versions/2.1.330", "-p", "hi"}, true}, // Linux: argv, exe unreadable
		{"/nix/store/abc-claude-code-bin-2.1.233/bin/.claude-wrapped", []string{"/Users/u/.nix-profile/bin/claude"}, true},
		{"/opt/bin/x", []string{`C:\Users\u\claude.exe`}, false},                               // not a path separator here
		{"/opt/tool/versions/1.2.3", []string{"/opt/tool/versions/1.2.3"}, false},              // another program's versions dir
		{"/usr/local/bin/claude-account", []string{"claude-account", "worktree", "rm"}, false}, // the launcher
		{"/bin/sh", []string{"/bin/sh", "/Users/u/bin/claude"}, false},                         // a wrapper script: its child is Claude
		{"/usr/bin/vim", []string{"vim", "/Users/u/.local/share/claude/versions/notes"}, false},
		{"", nil, false},
	} {
		if got := nativeClaude(c.exe, c.argv); got != c.want {
			t.Errorf("nativeClaude(%q, %q) = %v, want %v", c.exe, c.argv, got, c.want)
		}
	}
}

// FuzzLsofQuote: a quoted path holds printable ASCII only (what lsof
// prints under LC_ALL=C), and "/" stays "/", so prefixes still compare.
func FuzzLsofQuote(f *testing.F) {
	for _, s := range []string{"/Users/u/café", "a\\b", "\x00\x1b[2J\x7f\xff", "^A"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := lsofQuote(s)
		for i := 0; i < len(q); i++ {
			if q[i] < 0x20 || q[i] >= 0x7f {
				t.Fatalf("lsofQuote(%q) = %q holds byte %#x", s, q, q[i])
			}
		}
		if strings.Count(q, "/") < strings.Count(s, "/") {
			t.Fatalf("lsofQuote(%q) = %q lost a /", s, q)
		}
	})
}
