package mcp

import (
	"fmt"
	"strings"
	"testing"
)

// benchFile declares servers s<from> to s<to-1>.
func benchFile(from, to int) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"mcpServers\": {")
	for i := from; i < to; i++ {
		if i > from {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `
    "s%d": {
      "command": "/nix/store/0123456789abcdfghijklmnpqrsvwxyz-server-%d/bin/server",
      "args": ["--stdio", "--root", "/home/u/src", "--log-level", "info"],
      "env": {"TOKEN": "secret-%d", "HOME": "/home/u"}
    }`, i, i, i)
	}
	b.WriteString("\n  }\n}\n")
	return []byte(b.String())
}

// BenchmarkMerge is the launch-time work on MCP files: parse and validate the
// account's and the overlay's, merge, render.
func BenchmarkMerge(b *testing.B) {
	account := benchFile(0, 30)
	overlay := benchFile(26, 34) // replaces four, adds four
	b.SetBytes(int64(len(account) + len(overlay)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		a, err := Parse(account, "account")
		if err != nil {
			b.Fatal(err)
		}
		o, err := Parse(overlay, "overlay")
		if err != nil {
			b.Fatal(err)
		}
		if out := Merge(a, o).JSON(); len(out) == 0 {
			b.Fatal("empty")
		}
	}
}
