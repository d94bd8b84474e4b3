package cli

import (
	"io"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/env"
)

// BenchmarkStartup is what a command pays before its own work: its command
// line parsed (kong models the one command named: commandTree), for
// 'version' and for a command with flags and subcommands.
func BenchmarkStartup(b *testing.B) {
	for _, args := range [][]string{{"version"}, {"worktree", "list", "--help"}} {
		b.Run(args[0], func(b *testing.B) {
			d := &Deps{Env: env.Env{}, Dir: "/", Prog: "claude-account", Stdout: io.Discard, Stderr: io.Discard, Now: time.Now}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if code := run(d, args); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
