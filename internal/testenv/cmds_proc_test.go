package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestQuotedCommand(t *testing.T) {
	for msg, want := range map[string]string{
		"claude (max) already runs in ~/src/app as PID 4; 'claude-account close --account max ~/src/app' stops it": "claude-account close --account max ~/src/app",
		"stop it first ('claude-account close --account max '/tmp/my dir'')":                                       "claude-account close --account max '/tmp/my dir'",
		"; did you mean \"max\"? run 'claude-account bind max ~/'a b'' (or 'claude-account init mx')":              "claude-account bind max ~/'a b'",
		`run 'claude-account trust '/x/it'\''s/.mcp.json''`:                                                        `claude-account trust '/x/it'\''s/.mcp.json'`,
		"run 'claude-account init mx'": "claude-account init mx",
		"no suggestion here":           "",
	} {
		got, ok := quotedCommand(msg)
		if got != want || ok != (want != "") {
			t.Errorf("quotedCommand(%q) = %q, %v; want %q", msg, got, ok, want)
		}
	}
}

func TestBusyIn(t *testing.T) {
	if _, err := os.Stat("/proc/self/cwd"); err != nil {
		t.Skip("no /proc")
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if pid := busyIn(dir); pid != 0 {
		t.Fatalf("busyIn(%s) = %d before anything ran there", dir, pid)
	}
	c := exec.Command("sleep", "60")
	c.Dir = sub
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if pid := busyIn(dir); pid != c.Process.Pid {
		t.Errorf("busyIn(%s) = %d, want the sleep in its sub directory, %d", dir, pid, c.Process.Pid)
	}
	if pid := busyIn(dir + "-other"); pid != 0 {
		t.Errorf("busyIn(%s-other) = %d: a sibling with the same prefix is not under it", dir, pid)
	}
	_ = c.Process.Kill()
	_ = c.Wait()
	if pid := busyIn(dir); pid != 0 {
		t.Errorf("busyIn(%s) = %d after the sleep ended", dir, pid)
	}
}
