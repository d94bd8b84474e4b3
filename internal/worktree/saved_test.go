package worktree

import "testing"

func TestIsStamp(t *testing.T) {
	for s, want := range map[string]bool{
		"20260102T150405Z": true,
		"head":             false, // rm keeps detached commits as <name>-head
		"20260102T150405":  false,
		"2026010xT150405Z": false,
		"login":            false, // fix-login is another worktree than fix
		"":                 false,
	} {
		if got := isStamp(s); got != want {
			t.Errorf("isStamp(%q) = %v, want %v", s, got, want)
		}
	}
}
