package convdirs

import (
	"strings"
	"testing"
)

// FuzzValue: a list of paths that unlistable lets through reads back, as
// ccusage reads CLAUDE_CONFIG_DIR (split at commas, each entry trimmed of
// blanks), as exactly those paths.
func FuzzValue(f *testing.F) {
	f.Add("/home/u/.claude-max", "/src/a b/.git/claude-runtime/max")
	f.Add("/src/a,b", " /x")
	f.Add("/\u00e9\t", "/y\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		var l List
		for _, p := range []string{a, b} {
			if p != "" && unlistable(p) == "" {
				l.Dirs = append(l.Dirs, Dir{Path: p})
			}
		}
		if len(l.Dirs) == 0 {
			return
		}
		got := strings.Split(l.Value(), ",")
		if len(got) != len(l.Dirs) {
			t.Fatalf("%q reads back as %d entries, want %d", l.Value(), len(got), len(l.Dirs))
		}
		for i, g := range got {
			if strings.TrimSpace(g) != l.Dirs[i].Path {
				t.Fatalf("entry %d reads back as %q, want %q", i, strings.TrimSpace(g), l.Dirs[i].Path)
			}
		}
	})
}
