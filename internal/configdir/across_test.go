package configdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/gitctx"
)

// TestKeptTwins: of the account's copies of a gone runtime's
// conversations, only those the arriving runtime holds the bytes of (the
// same, or one beginning with the other's) are twins, each side file
// proven on its own; never through a link, never an empty or cut copy.
func TestKeptTwins(t *testing.T) {
	root := t.TempDir()
	acct, dir := filepath.Join(root, "acct"), filepath.Join(root, "app2", ".git", "claude-runtime", "max")
	gone := filepath.Join(root, "app", ".git", "claude-runtime", "max")
	kept := filepath.Join(acct, "archive", "app-0123", "app", conversation.KeptPrefix+gitctx.Fingerprint(gone), "projects", "-app")
	here := filepath.Join(dir, "projects", "-app")
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	id := func(c string) string {
		return strings.Repeat(c, 8) + "-" + strings.Repeat(c, 4) + "-4" + strings.Repeat(c, 3) + "-8" + strings.Repeat(c, 3) + "-" + strings.Repeat(c, 12)
	}
	l1, l2 := `{"uuid":"1"}`+"\n", `{"uuid":"2"}`+"\n"
	for c, pair := range map[string][2]string{
		"1": {l1, l1},                     // the same
		"2": {l1 + l2, l1},                // the account's newer
		"3": {l1, l1 + l2},                // the repository's newer
		"4": {l1, `{"uuid": "1"}` + "\n"}, // other bytes, the same messages
		"5": {l1, ""},                     // nothing
		"6": {l1 + l2, l1[:5]},            // a cut line
		"7": {l1, "link"},                 // a link to the account's own
	} {
		write(filepath.Join(kept, id(c)+".jsonl"), pair[0])
		if pair[1] == "link" {
			if err := os.MkdirAll(here, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(kept, id(c)+".jsonl"), filepath.Join(here, id(c)+".jsonl")); err != nil {
				t.Fatal(err)
			}
			continue
		}
		write(filepath.Join(here, id(c)+".jsonl"), pair[1])
	}
	// Side files of a proven conversation: one the same, one other, one
	// the repository lacks.
	write(filepath.Join(kept, id("1"), "tool-results", "a.txt"), "out")
	write(filepath.Join(here, id("1"), "tool-results", "a.txt"), "out")
	write(filepath.Join(kept, id("1"), "tool-results", "b.txt"), "secret")
	write(filepath.Join(here, id("1"), "tool-results", "b.txt"), "other")
	write(filepath.Join(kept, id("1"), "tool-results", "c.txt"), "secret")
	// Another runtime's copies are not looked at.
	write(filepath.Join(acct, "archive", "app-0123", "app", conversation.KeptPrefix+"ffff", "projects", "-app", id("8")+".jsonl"), l1)
	write(filepath.Join(here, id("8")+".jsonl"), l1)

	got := map[string]twin{}
	for _, tw := range keptTwins(acct, gone, dir) {
		got[tw.Rel] = tw
	}
	want := map[string]twin{
		filepath.Join("-app", id("1")+".jsonl"):                 {ID: id("1")},
		filepath.Join("-app", id("1"), "tool-results", "a.txt"): {},
		// Not 2 (the repository holds a prefix: it would learn the later
		// turns) nor 3 (it holds more: its turns would become the
		// account's).
	}
	if len(got) != len(want) {
		t.Errorf("twins %v; want %v", got, want)
	}
	for rel, w := range want {
		g, ok := got[rel]
		if !ok || g.ID != w.ID || g.Kept != filepath.Join(kept, strings.TrimPrefix(rel, "-app/")) {
			t.Errorf("twin %s = %+v, %v; want %+v", rel, g, ok, w)
		}
	}
}

// FuzzNewKey: a key moves to the new work tree's only when it is the old
// one's or below it, keeps what follows, and never grows past Claude's 200.
func FuzzNewKey(f *testing.F) {
	f.Add("-src-app-sub", "-src-app", "-mnt-app2")
	f.Add("-src-appx", "-src-app", "-mnt-app2")
	f.Add("-src-app", "-src-app", strings.Repeat("-x", 120))
	f.Fuzz(func(t *testing.T, k, from, to string) {
		nk := newKey(k, from, to)
		if nk == k {
			return
		}
		if len(nk) > 200 || len(k) > 200 || !strings.HasPrefix(nk, to) || nk[len(to):] != k[len(from):] || k != from && !strings.HasPrefix(k, from+"-") {
			t.Fatalf("newKey(%q, %q, %q) = %q", k, from, to, nk)
		}
	})
}
