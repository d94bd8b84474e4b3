package conversation

import (
	"testing"
	"time"
)

func TestByIDOriginalWinsTies(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	id, other := "33333333-3333-4333-8333-333333333333", "44444444-4444-4444-8444-444444444444"
	orig := Conversation{ID: id, Account: "max", Verified: true, Updated: t0, Cwd: "/src/app", Worktree: "/src/app", Transcript: "orig"}
	// cp -a keeps times: the copy's runtime holds the same transcript, as
	// new, ran in the original (its cwd), listed first (its path sorts so).
	copied := Conversation{ID: id, Account: "max", Verified: true, Updated: t0, Cwd: "/src/app", Worktree: "/src/a-copy", Transcript: "copy"}
	planted := Conversation{ID: id, Account: "pro", Where: SetAside, Updated: t0.Add(time.Hour), Cwd: "/x", Worktree: "/src/app", Transcript: "planted"}
	later := Conversation{ID: other, Account: "max", Verified: true, Updated: t0.Add(time.Minute), Cwd: "/src/app", Worktree: "/src/app", Transcript: "other"}
	for _, in := range [][]Conversation{
		{copied, orig, planted, later},
		{planted, orig, copied, later},
		{later, planted, copied, orig},
	} {
		got := byID(append([]Conversation(nil), in...))
		var names []string
		for _, c := range got {
			names = append(names, c.Transcript)
		}
		// The other id is newer than the verified copy of the first; the
		// original wins the tie with its copy; the planted copy, newer but
		// unverified, never stands for its id.
		want := []string{"other", "orig"}
		if len(names) != len(want) {
			t.Fatalf("byID(%v) = %v; want %v", in, names, want)
		}
		for i := range want {
			if names[i] != want[i] {
				t.Errorf("byID = %v; want %v", names, want)
				break
			}
		}
	}
}

// TestByIDMovedWinsTies: of copies equally new, once the worktree a
// conversation ran in is gone, the copy in a runtime (a repository moved
// across file systems, its conversations brought along) stands for it, not
// the account's copy of the gone worktree's: a copy is one whose original
// still exists.
func TestByIDMovedWinsTies(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	id := "33333333-3333-4333-8333-333333333333"
	kept := Conversation{ID: id, Account: "max", Verified: true, Where: InArchive, Updated: t0, Cwd: "/src/app", Worktree: "/src/app", Removed: true, Transcript: "kept"}
	moved := Conversation{ID: id, Account: "max", Verified: true, Where: InRuntime, Updated: t0, Cwd: "/src/app", Worktree: "/mnt/app2", Transcript: "moved"}
	for _, in := range [][]Conversation{{kept, moved}, {moved, kept}} {
		got := byID(append([]Conversation(nil), in...))
		if len(got) != 1 || got[0].Transcript != "moved" {
			t.Errorf("byID(%v) = %v; want the moved copy", in, got)
		}
	}
}
