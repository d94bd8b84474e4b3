package worktree

import "testing"

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
	} {
		if got := holdsWork(c.w); got != c.want {
			t.Errorf("%s: holdsWork(%+v) = %d, want %d", c.name, c.w, got, c.want)
		}
	}
}
