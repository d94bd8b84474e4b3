package conversation

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/runtimes"
)

// benchAccount is an account whose 50 worktrees' runtimes (made by the
// launcher, bound by workspace.json) hold 20 conversations each, of 10 to
// 20 KB as Claude writes them (Sample): 1,000 in all.
func benchAccount(b *testing.B) Account {
	dir := b.TempDir()
	acct := Account{Name: "bench", Dir: filepath.Join(dir, "account")}
	common := filepath.Join(dir, "repo", ".git")
	if err := os.MkdirAll(acct.Dir, 0o700); err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	for w := 0; w < 50; w++ {
		top := filepath.Join(dir, "repo", ".claude", "worktrees", fmt.Sprintf("w%02d", w))
		gitDir := filepath.Join(common, "worktrees", fmt.Sprintf("w%02d", w))
		rt := filepath.Join(gitDir, "claude-runtime", "bench")
		key := filepath.Join(rt, "projects", KeyFor(top, claudever.Binary{}))
		for _, d := range []string{top, key} {
			if err := os.MkdirAll(d, 0o700); err != nil {
				b.Fatal(err)
			}
		}
		_ = os.WriteFile(filepath.Join(gitDir, "commondir"), []byte("../..\n"), 0o600)
		ws, _ := json.Marshal(map[string]string{"toplevel": top, "gitDir": gitDir})
		_ = os.WriteFile(filepath.Join(rt, "workspace.json"), ws, 0o600)
		if err := runtimes.Register(runtimes.Path(acct.Dir), rt, runtimes.Place{}); err != nil {
			b.Fatal(err)
		}
		for c := 0; c < 20; c++ {
			n := w*20 + c
			id := fmt.Sprintf("%08x-1111-4111-8111-%012x", n, n)
			path := filepath.Join(key, id+".jsonl")
			if err := Sample(path, id, top, fmt.Sprintf("feature-%d", w), fmt.Sprintf("make step %d of the parser work", n), 10<<10+n*10%(10<<10), n); err != nil {
				b.Fatal(err)
			}
			t := now.Add(-time.Duration(n) * time.Minute)
			_ = os.Chtimes(path, t, t)
		}
	}
	return acct
}

// BenchmarkFind lists 1,000 conversations across 50 worktrees: what
// 'claude-account sessions' and 'resume' pay, never a launch.
func BenchmarkFind(b *testing.B) {
	acct := benchAccount(b)
	if got := len(Find([]Account{acct})); got != 1000 {
		b.Fatalf("Find listed %d conversations, want 1000", got)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Find([]Account{acct})
	}
}
