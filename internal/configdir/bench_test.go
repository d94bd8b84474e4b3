package configdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/trust"
)

// BenchmarkMakePlan is the launch-time check of a runtime that is already
// right (the common case): every input read and compared, nothing to do.
func BenchmarkMakePlan(b *testing.B) {
	dir := b.TempDir()
	repo := filepath.Join(dir, "repo")
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v\n%s", err, out)
	}
	acctDir := filepath.Join(dir, "home", ".claude-bench")
	if err := account.Init("bench", acctDir); err != nil {
		b.Fatal(err)
	}
	os.WriteFile(filepath.Join(acctDir, ".mcp.json"), []byte(`{"mcpServers":{"a":{"command":"/bin/true","args":["x"]},"b":{"command":"/bin/true"}}}`), 0o600)
	os.WriteFile(filepath.Join(acctDir, "settings.json"), []byte(`{"model":"opus","permissions":{"allow":["Edit"]}}`), 0o600)
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
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := MakePlan(in)
		if err != nil || len(p.Steps) != 0 {
			b.Fatalf("plan: %v, %d steps; want none", err, len(p.Steps))
		}
	}
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
