package worktree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What holds work, decided on facts alone: changes first, then commits made
// since the worktree was made (for a caller that read them), then commits
// neither merged nor found elsewhere.
func TestHoldsWork(t *testing.T) {
	for _, c := range []struct {
		name string
		w    work
		want held
	}{
		{"nothing", work{}, heldNone},
		{"changes", work{Changes: 2}, heldChanges},
		{"changes before commits", work{Changes: 1, Commits: 3}, heldChanges},
		{"changes before new commits", work{Changes: 1, New: 3}, heldChanges},
		{"commits on no other branch or remote", work{Commits: 2}, heldCommits},
		{"commits not known: kept", work{Commits: -1}, heldCommits},
		{"commits merged (a squash merge)", work{Commits: 2, Merged: true}, heldNone},
		{"merged, and none unique", work{Merged: true}, heldNone},
		{"new commits, pushed or merged", work{New: 1, Merged: true}, heldNew},
		{"new commits before unmerged ones", work{New: 1, Commits: 1}, heldNew},
		{"ignored files", work{Ignored: 2}, heldIgnored},
		{"changes before ignored files", work{Changes: 1, Ignored: 2}, heldChanges},
		{"ignored files before new commits", work{Ignored: 1, New: 1}, heldIgnored},
	} {
		if got := holdsWork(c.w); got != c.want {
			t.Errorf("%s: holdsWork(%+v) = %d, want %d", c.name, c.w, got, c.want)
		}
	}
}

// What worktree new or Claude Code put in a worktree is no work: Claude's
// settings of the checkout, a link to the main worktree's same path, a file
// the same as the main worktree's; anything else git ignores is.
func TestMachinery(t *testing.T) {
	main, wt := t.TempDir(), t.TempDir()
	write := func(dir, rel, body string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(wt, ".claude/settings.local.json", "{}")
	write(main, ".env", "TOKEN=a\n")
	write(wt, ".env", "TOKEN=a\n")
	write(main, "conf/app.env", "X=1\n")
	write(wt, "conf/app.env", "X=2\n")
	write(wt, "secrets.local", "k\n")
	if err := os.MkdirAll(filepath.Join(main, "node_modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"node_modules": filepath.Join(main, "node_modules"), "vendor": filepath.Join(main, "elsewhere")} {
		if err := os.Symlink(target, filepath.Join(wt, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		rel  string
		want bool
	}{
		{".claude/settings.local.json", true},
		{".env", true},
		{"node_modules", true},
		{"conf/app.env", false},  // changed in the session
		{"secrets.local", false}, // the session's own
		{"vendor", false},        // a link New did not make
		{"node_modules/", false}, // a directory: anything may be in it
		{"gone.local", false},    // not there at all
	} {
		if got := machinery(wt, main, c.rel); got != c.want {
			t.Errorf("machinery(%q) = %v, want %v", c.rel, got, c.want)
		}
	}
	if machinery(wt, "", ".env") {
		t.Error("with no main worktree, a file counted as a copy of its")
	}
}

// The line names the first three, quotes what would break it, and says the
// removal that deletes them.
func TestIgnoredWhy(t *testing.T) {
	got := ignoredWhy([]string{"a.local", "b\nc", "d/", "e"}, "/r/w")
	for _, want := range []string{"4 file(s)", "(a.local, \"b\\nc\", d/, …)", "'claude-account worktree rm /r/w'"} {
		if !strings.Contains(got, want) {
			t.Errorf("ignoredWhy = %q, want it to hold %q", got, want)
		}
	}
	if strings.ContainsAny(got, "\n\r") {
		t.Errorf("ignoredWhy = %q spans lines", got)
	}
}
