package worktree

import (
	"strings"
	"testing"
)

func TestDisjoint(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"", "", true},
		{"f.txt\x00", "", true},
		{"f.txt\x00", "g.txt\x00", true},
		{"f.txt\x00g.txt\x00", "g.txt\x00", false},
		{"a b\x00", "a\x00b\x00", true},
		{"dir/x\x00", "dir/x\x00", false},
	} {
		if got := disjoint(c.a, c.b); got != c.want {
			t.Errorf("disjoint(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func FuzzDisjoint(f *testing.F) {
	f.Add("f.txt\x00g\x00", "g\x00")
	f.Add("", "\x00\x00")
	f.Fuzz(func(t *testing.T, a, b string) {
		got := disjoint(a, b)
		want := true
		for _, p := range strings.Split(a, "\x00") {
			for _, q := range strings.Split(b, "\x00") {
				if p != "" && p == q {
					want = false
				}
			}
		}
		if got != want {
			t.Fatalf("disjoint(%q, %q) = %v, want %v", a, b, got, want)
		}
	})
}
