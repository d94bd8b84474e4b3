package worktree

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestNoLinkOut(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(tmp, "repo")
	outside := filepath.Join(tmp, "other")
	for _, d := range []string{filepath.Join(root, "real", "deep"), filepath.Join(root, "inner"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"out":        outside,
		"rel-out":    "../other",
		"in":         "inner",
		"dangling":   "nowhere",
		"real/up":    "../../other",
		"in-then-up": "real/up",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		rel  string
		link string // "" = allowed
	}{
		{"real/deep/file", ""},
		{"missing/a/b", ""},
		{"in/x/y", ""},
		{".", ""},
		{"../escape", ""}, // not below root: the caller's business
		{"out", "out"},
		{"out/worktrees/x", "out"},
		{"rel-out/x", "rel-out"},
		{"dangling/x", "dangling"},
		{"real/up/x", "real/up"},
		{"in-then-up/x", "in-then-up"},
	} {
		err := noLinkOut(root, c.rel)
		var lo *LinkOutError
		switch {
		case c.link == "" && err != nil:
			t.Errorf("noLinkOut(%q) = %v, want nil", c.rel, err)
		case c.link != "" && !errors.As(err, &lo):
			t.Errorf("noLinkOut(%q) = %v, want a LinkOutError", c.rel, err)
		case c.link != "" && lo.Link != filepath.Join(root, c.link):
			t.Errorf("noLinkOut(%q) names %s, want %s", c.rel, lo.Link, filepath.Join(root, c.link))
		}
	}
	if err := noLinkOutParents(root, "out"); err != nil {
		t.Errorf("noLinkOutParents(out) = %v: the last component is not a parent", err)
	}
	if err := noLinkOutParents(root, "out/file"); err == nil {
		t.Errorf("noLinkOutParents(out/file) = nil, want the link out")
	}
}
