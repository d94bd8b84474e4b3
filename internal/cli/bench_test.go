package cli

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/env"
)

// BenchmarkLaunchPlan is everything a launch does before starting Claude,
// in a repository whose runtime is already in sync: resolve the account,
// detect the context, plan (reading every input), and nothing to apply.
func BenchmarkLaunchPlan(b *testing.B) {
	for _, via := range []string{"claudebench", "claude-account"} {
		b.Run(via, func(b *testing.B) {
			d := benchDeps(b, via)
			args := []string{"--dry-run"}
			if via == "claude-account" {
				args = []string{"run", "--account", "bench", "--dry-run"}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if code := run(d, args); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}

func benchDeps(b *testing.B, prog string) *Deps {
	dir := b.TempDir()
	home := filepath.Join(dir, "home")
	repo := filepath.Join(dir, "repo")
	for _, c := range [][]string{{"init", "-q", repo}} {
		if out, err := exec.Command("git", c...).CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", c, err, out)
		}
	}
	e := env.Env{"HOME": home, "PATH": os.Getenv("PATH"), "XDG_RUNTIME_DIR": filepath.Join(dir, "run"),
		"CLAUDE_ACCOUNT_CLAUDE": "/bin/true"}
	d := &Deps{Env: e, Dir: repo, Prog: prog, Stdin: os.Stdin, Stdout: io.Discard, Stderr: io.Discard, Now: time.Now}
	if code := run(&Deps{Env: e, Dir: repo, Prog: "claude-account", Stdout: io.Discard, Stderr: io.Discard, Now: time.Now},
		[]string{"init", "bench"}); code != 0 {
		b.Fatal("init failed")
	}
	acct := filepath.Join(home, ".claude-bench")
	os.WriteFile(filepath.Join(acct, ".mcp.json"), []byte(`{"mcpServers":{"a":{"command":"/bin/true","args":["x"]},"b":{"command":"/bin/true"}}}`), 0o600)
	os.WriteFile(filepath.Join(acct, "settings.json"), []byte(`{"model":"opus","permissions":{"allow":["Edit"]}}`), 0o600)
	if code := run(&Deps{Env: e, Dir: repo, Prog: "claude-account", Stdin: os.Stdin, Stdout: io.Discard, Stderr: io.Discard, Now: time.Now},
		[]string{"run", "--account", "bench"}); code != 0 {
		b.Fatal("first launch failed")
	}
	return d
}
