package fleet

import (
	"os"
	"path/filepath"
	"testing"
)

type procs map[int]bool

func (p procs) IsClaude(pid int) bool { return p[pid] }

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "daemon.lock"), `{"pid": 10, "version": "2.1.332"}`)
	// 2.1.332's record of a background session, and its job's state
	write(t, filepath.Join(dir, "sessions", "20.json"), `{"pid":20,"sessionId":"6ea8982a-0325-4751-b13f-ac0e7703641e","cwd":"/r/wt1","kind":"bg","jobId":"6ea8982a","startedAt":2000}`)
	write(t, filepath.Join(dir, "jobs", "6ea8982a", "state.json"), `{"state":"blocked","detail":"asks","needs":"which   option?\nA or B"}`)
	// a foreground session: not the fleet's
	write(t, filepath.Join(dir, "sessions", "21.json"), `{"pid":21,"sessionId":"x","cwd":"/r"}`)
	// a dead one: its PID is no Claude now
	write(t, filepath.Join(dir, "sessions", "22.json"), `{"pid":22,"sessionId":"y","cwd":"/r","kind":"bg","jobId":"0000aaaa"}`)
	// a job id that would name another dir
	write(t, filepath.Join(dir, "sessions", "23.json"), `{"pid":23,"sessionId":"z","cwd":"/r","kind":"bg","jobId":"../../x"}`)
	// a worker still starting, known only to the roster
	write(t, filepath.Join(dir, "daemon", "roster.json"), `{"workers":{"6ea8982a":{"pid":30},"bc2b3c2d":{"pid":31,"sessionId":"s2","cwd":"/r/wt2","startedAt":1000},"deadbeef":{"pid":32}}}`)
	f := Read(dir, procs{10: true, 20: true, 21: true, 23: true, 31: true})
	if f.Supervisor != 10 || f.Version != "2.1.332" {
		t.Fatalf("supervisor = %d %q", f.Supervisor, f.Version)
	}
	if len(f.Agents) != 2 {
		t.Fatalf("agents = %+v", f.Agents)
	}
	a, b := f.Agents[0], f.Agents[1]
	if a.ID != "bc2b3c2d" || a.State != Starting || a.Cwd != "/r/wt2" {
		t.Errorf("first = %+v", a)
	}
	if b.ID != "6ea8982a" || b.State != NeedsInput || b.Detail != "which option? A or B" || b.PID != 20 || !b.Needs() {
		t.Errorf("second = %+v", b)
	}
	if got := f.In("/r/wt1"); len(got) != 1 || got[0].ID != "6ea8982a" {
		t.Errorf("In(/r/wt1) = %+v", got)
	}
	if got := f.In("/r/wt"); len(got) != 0 {
		t.Errorf("In(/r/wt) = %+v", got)
	}
}

func TestReadLinksNotFollowed(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	write(t, filepath.Join(other, "lock"), `{"pid": 10}`)
	if err := os.Symlink(filepath.Join(other, "lock"), filepath.Join(dir, "daemon.lock")); err != nil {
		t.Fatal(err)
	}
	if f := Read(dir, procs{10: true}); f.Live() {
		t.Errorf("a linked daemon.lock was believed: %+v", f)
	}
}

func TestReadEmpty(t *testing.T) {
	if f := Read(filepath.Join(t.TempDir(), "none"), procs{}); f.Live() || len(f.Agents) != 0 {
		t.Errorf("%+v", f)
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"pid":20,"sessionId":"s","cwd":"/r","kind":"bg","jobId":"6ea8982a"}`), []byte(`{"state":"done","detail":"ok"}`), []byte(`{"workers":{"abcdef12":{"pid":20}}}`))
	f.Fuzz(func(t *testing.T, session, state, roster []byte) {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "sessions"), 0o700)
		os.MkdirAll(filepath.Join(dir, "jobs", "6ea8982a"), 0o700)
		os.MkdirAll(filepath.Join(dir, "daemon"), 0o700)
		os.WriteFile(filepath.Join(dir, "sessions", "20.json"), session, 0o600)
		os.WriteFile(filepath.Join(dir, "jobs", "6ea8982a", "state.json"), state, 0o600)
		os.WriteFile(filepath.Join(dir, "daemon", "roster.json"), roster, 0o600)
		fl := Read(dir, procs{20: true})
		for _, a := range fl.Agents {
			if !validShort(a.ID) || a.PID != 20 || len([]rune(a.Detail)) > 120 {
				t.Fatalf("%+v", a)
			}
		}
	})
}
