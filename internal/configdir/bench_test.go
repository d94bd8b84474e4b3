package configdir

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/runtimes"
	"github.com/claude-account/claude-account/internal/trust"
)

// BenchmarkMakePlan is the launch-time check of a runtime that is already
// right (the common case): every input read and compared, nothing to do.
func BenchmarkMakePlan(b *testing.B) {
	in := benchRuntime(b, func(acctDir string) {
		os.WriteFile(filepath.Join(acctDir, ".mcp.json"), []byte(`{"mcpServers":{"a":{"command":"/bin/true","args":["x"]},"b":{"command":"/bin/true"}}}`), 0o600)
		os.WriteFile(filepath.Join(acctDir, "settings.json"), []byte(`{"model":"opus","permissions":{"allow":["Edit"]}}`), 0o600)
	})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := MakePlan(in)
		if err != nil || len(p.Steps) != 0 {
			b.Fatalf("plan: %v, %d steps; want none", err, len(p.Steps))
		}
	}
}

// benchRuntime is the input of a launch in a new repository with account
// bench (setup writes its files first), after one launch applied its plan.
func benchRuntime(b *testing.B, setup func(acctDir string)) Input {
	dir := b.TempDir()
	repo := filepath.Join(dir, "repo")
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v\n%s", err, out)
	}
	acctDir := filepath.Join(dir, "home", ".claude-bench")
	if err := account.Init("bench", acctDir); err != nil {
		b.Fatal(err)
	}
	if setup != nil {
		setup(acctDir)
	}
	a, err := account.Load("bench", acctDir)
	if err != nil {
		b.Fatal(err)
	}
	e := env.Env{"HOME": filepath.Join(dir, "home")}
	ctx, err := gitctx.Detect(repo, e.Get)
	if err != nil {
		b.Fatal(err)
	}
	in := Input{Account: a, Context: ctx, Layout: Locate(a, ctx, e), Trust: trust.Store{Dir: filepath.Join(dir, "trust")}, Now: time.Now()}
	p, err := MakePlan(in)
	if err != nil {
		b.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		b.Fatal(err)
	}
	return in
}

// BenchmarkMakePlanStamped is the launch-time check of a large .claude.json
// that a launch already found in sync (SyncStamp): stat, hash the inputs,
// read nothing of the file.
func BenchmarkMakePlanStamped(b *testing.B) {
	w := newSyncWorld(b)
	w.launch()
	w.settle()
	w.launch()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in := w.in
		in.Now = time.Now()
		p, err := MakePlan(in)
		if err != nil || len(p.Steps) != 0 || p.scanned != 0 {
			b.Fatalf("plan: %v, %d steps, %d scans; want none", err, len(p.Steps), p.scanned)
		}
		p.Close()
	}
}

// BenchmarkMakePlanTranscripts is the launch-time check of a runtime whose
// worktree has conversations: the key dirs of projects/ that changed since
// the launcher last left the runtime alone are read for links planted there
// (setAsideStrayLinks), those that did not are only stat-ed. "new" is the
// common case after a session that started a conversation (the quiet time
// does not move for a transcript); "old" is every later launch.
func BenchmarkMakePlanTranscripts(b *testing.B) {
	for _, c := range []struct {
		name  string
		files int
		fresh bool // transcripts written after the quiet time
	}{{"none", 0, false}, {"old-50", 50, false}, {"new-50", 50, true}, {"new-500", 500, true}} {
		b.Run(c.name, func(b *testing.B) {
			in := benchRuntime(b, nil)
			acctDir, dir := in.Account.Dir, b.TempDir()
			write := func() {
				kd := filepath.Join(in.Layout.ConfigDir, "projects", "-src-app")
				if err := os.MkdirAll(kd, 0o700); err != nil {
					b.Fatal(err)
				}
				for f := 0; f < c.files; f++ {
					if err := os.WriteFile(filepath.Join(kd, fmt.Sprintf("%08d-0000-4000-8000-000000000000.jsonl", f)), []byte("{}\n"), 0o600); err != nil {
						b.Fatal(err)
					}
				}
			}
			if !c.fresh {
				write()
			}
			// The kernel stamps change times from a clock that lags: the
			// quiet time is taken once it has passed what was written.
			tick := granularity(dir)
			mark := time.Now().Add(tick)
			for time.Now().Before(mark) {
				time.Sleep(time.Millisecond)
			}
			if err := runtimes.MarkQuiet(runtimes.Path(acctDir), in.Layout.ConfigDir, time.Now(), nil); err != nil {
				b.Fatal(err)
			}
			if c.fresh {
				for time.Now().Before(mark.Add(tick)) {
					time.Sleep(time.Millisecond)
				}
				write()
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p, err := MakePlan(in)
				if err != nil || len(p.Steps) != 0 {
					b.Fatalf("plan: %v, %d steps; want none", err, len(p.Steps))
				}
			}
		})
	}
}
