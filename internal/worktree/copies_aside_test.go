package worktree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/conversation"
)

// setAside moves a copy away only when the runtime's file lacks some of its
// bytes; one the runtime's file begins with, or an empty one, is replaced.
func TestSetAside(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	for _, c := range []struct {
		name, old, src string
		aside          bool
		file           string
	}{
		{"behind", "a\n", "a\nb\n", false, ""},
		{"same", "a\nb\n", "a\nb\n", false, ""},
		{"empty", "", "a\n", false, ""},
		{"diverged", "a\nb\n", "a\nc\n", true, ""},
		{"ahead", "a\nb\n", "a\n", true, ""},
		{"cut line", "a\nb", "a\nbc\n", true, ""},
		{"side file", "a\nb\n", "a\nc\n", false, "id/tool-results/x.txt"},
	} {
		t.Run(c.name, func(t *testing.T) {
			acct := t.TempDir()
			copies := filepath.Join(acct, "archive", "r", "w", KeptPrefix+"0123456789abcdef")
			if c.file == "" {
				c.file = "id.jsonl"
			}
			dst := filepath.Join(copies, "projects", "k", c.file)
			src := filepath.Join(t.TempDir(), "src")
			must(t, os.MkdirAll(filepath.Dir(dst), 0o700))
			must(t, os.WriteFile(dst, []byte(c.old), 0o600))
			must(t, os.WriteFile(filepath.Join(copies, conversation.RemovedFile), []byte("{}\n"), 0o600))
			must(t, os.WriteFile(src, []byte(c.src), 0o600))
			fi, err := os.Lstat(src)
			must(t, err)
			must(t, setAside(acct, copies, dst, src, fi, now))
			aside := copies + asideMark + "20260102T030405.000000006Z"
			moved := filepath.Join(aside, "projects", "k", c.file)
			got, err := os.ReadFile(moved)
			if c.aside != (err == nil) || c.aside && string(got) != c.old {
				t.Fatalf("set aside: %q, %v; want it: %v", got, err, c.aside)
			}
			if _, err := os.Lstat(dst); c.aside == (err == nil) {
				t.Fatalf("the copy is still there: %v; want it moved: %v", err == nil, c.aside)
			}
			if c.aside {
				if _, err := os.Lstat(filepath.Join(aside, conversation.RemovedFile)); err != nil {
					t.Fatalf("no record beside the copy set aside: %v", err)
				}
				if k := keptOf(aside); k != copies {
					t.Fatalf("keptOf = %s, want %s", k, copies)
				}
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// holds counts a copy as in its runtime only when the runtime's transcript
// of that name is the very file or begins with every byte of the copy.
func TestHolds(t *testing.T) {
	for _, c := range []struct {
		name, copy, rt string
		link           bool
		held, named    bool
	}{
		{"linked", "a\nb\n", "", true, true, true},
		{"behind", "a\n", "a\nb\n", false, true, true},
		{"same", "a\nb\n", "a\nb\n", false, true, true},
		{"restored older", "a\nb\n", "a\n", false, false, true},
		{"diverged", "a\nb\n", "a\nc\n", false, false, true},
		{"none", "a\n", "-", false, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt := t.TempDir()
			f := filepath.Join(t.TempDir(), "id.jsonl")
			must(t, os.WriteFile(f, []byte(c.copy), 0o600))
			must(t, os.MkdirAll(filepath.Join(rt, "projects", "k"), 0o700))
			r := filepath.Join(rt, "projects", "k", "id.jsonl")
			switch {
			case c.link:
				must(t, os.Link(f, r))
			case c.rt != "-":
				must(t, os.WriteFile(r, []byte(c.rt), 0o600))
			}
			fi, err := os.Lstat(f)
			must(t, err)
			if held, named := holds(rt, "id", f, fi); held != c.held || named != c.named {
				t.Fatalf("holds = %v, %v; want %v, %v", held, named, c.held, c.named)
			}
		})
	}
}

// keptOf names back the dir of copies any dir set aside from it, whatever
// the time part says, and leaves every other name as it is.
func FuzzKeptOf(f *testing.F) {
	f.Add("kept-0123456789abcdef", "20260102T030405.000000006Z")
	f.Add("kept-x", "-diverged-")
	f.Fuzz(func(t *testing.T, base, when string) {
		if base == "" || strings.ContainsAny(base, "/") || strings.Contains(base, asideMark) || base == "." || base == ".." {
			return
		}
		d := filepath.Join("/a/archive/r/w", base)
		if got := keptOf(d); got != d {
			t.Fatalf("keptOf(%q) = %q", d, got)
		}
		if strings.Contains(when, "/") {
			return
		}
		if got := keptOf(d + asideMark + when); got != d {
			t.Fatalf("keptOf(%q) = %q, want %q", d+asideMark+when, got, d)
		}
	})
}
