package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// TestSuggestionQuotes checks that the command a warning suggests gives a
// POSIX shell back every word the user typed, as typed.
func TestSuggestionQuotes(t *testing.T) {
	args := []string{"--model", "opus", "it's $HOME `x` \"q\"", "-p", ""}
	c := &RunCmd{Worktree: "docs 2", Ephemeral: true}
	got := c.suggestion(args)("work")
	want := "claude-account run --account work --worktree 'docs 2' --ephemeral -- "
	if !strings.HasPrefix(got, want) {
		t.Fatalf("suggestion = %q, want it to start %q", got, want)
	}
	words, err := exec.Command("sh", "-c", "set -- "+strings.TrimPrefix(got, "claude-account ")+`; for a in "$@"; do printf '[%s]' "$a"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	if w := "[run][--account][work][--worktree][docs 2][--ephemeral][--][--model][opus][it's $HOME `x` \"q\"][-p][]"; string(words) != w {
		t.Fatalf("a shell reads %s, want %s", words, w)
	}
}
