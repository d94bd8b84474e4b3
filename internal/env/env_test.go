package env

import "testing"

func TestExpandHome(t *testing.T) {
	e := Env{"HOME": "/home/u"}
	for in, want := range map[string]string{
		"~":                  "/home/u",
		"~/":                 "/home/u",
		"~/worktrees/{repo}": "/home/u/worktrees/{repo}",
		"~user/x":            "~user/x", // another user's home: not ours to guess
		".claude/worktrees":  ".claude/worktrees",
		"/abs/~/x":           "/abs/~/x",
		"":                   "",
	} {
		if got := e.ExpandHome(in); got != want {
			t.Errorf("ExpandHome(%q) = %q, want %q", in, got, want)
		}
	}
}
