package worktree_test

import (
	"flag"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/worktree"
)

// refOK is git's check_refname_format for a branch name (refs/heads/NAME),
// the rules a slug's branch must pass.
func refOK(name string) bool {
	full := "refs/heads/" + name
	if name == "" || name == "@" || strings.HasSuffix(full, "/") || strings.HasSuffix(full, ".") ||
		strings.Contains(full, "..") || strings.Contains(full, "@{") || strings.Contains(full, "//") {
		return false
	}
	for _, c := range strings.Split(full, "/") {
		if c == "" || c[0] == '.' || strings.HasSuffix(c, ".lock") {
			return false
		}
	}
	for _, r := range full {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) {
			return false
		}
	}
	return true
}

func fuzzing() bool {
	fl := flag.Lookup("test.fuzz")
	return fl != nil && fl.Value.String() != ""
}

// FuzzValidateSlug: a slug that ValidateSlug accepts must make a worktree
// dir that is one entry directly inside the worktrees dir, a branch git
// accepts, and a flat name that maps back to the slug; a refused one gets
// a one-line error that quotes it.
func FuzzValidateSlug(f *testing.F) {
	for _, s := range []string{
		"fix-login", "me/feature", "agent-a1b2c3d", "a", "A.B_c-d", ".hidden", "a/.b",
		"", ".", "..", "../escape", "a/../b", "a//b", "/abs", "trailing/", "-rf", "a/-b",
		"a.lock", "a/b.lock", "a.", "a..b", "x;rm", "a b", "a\nb", "a\x00b", "@", "@{u}",
		"a~1", "a^", "a:b", "a?", "a*", "a[", "a\\b", "é", "a+b", strings.Repeat("a", 200),
		strings.Repeat("a", 201), "a/" + strings.Repeat("b/", 60), ".lock", "a/.", "-",
		".git", ".GIT", "a/.git", ".git/a", ".claude", "HEAD", "ORIG_HEAD", "head", "a/HEAD",
	} {
		f.Add(s)
	}
	useGit := !fuzzing()
	if _, err := exec.LookPath("git"); err != nil {
		useGit = false
	}
	f.Fuzz(func(t *testing.T, slug string) {
		err := worktree.ValidateSlug(slug)
		if err != nil {
			msg := err.Error()
			if strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error for %q is not one line: %q", slug, msg)
			}
			if !strings.Contains(msg, fmt.Sprintf("%q", slug)) {
				t.Fatalf("error for %q does not quote it: %s", slug, msg)
			}
			return
		}
		if slug == "" || len(slug) > 200 {
			t.Fatalf("accepted %q of length %d", slug, len(slug))
		}
		flat := worktree.Flatten(slug)
		if strings.ContainsAny(flat, "/\x00") || flat == "." || flat == ".." || flat[0] == '-' {
			t.Fatalf("slug %q flattens to %q, not one safe path entry", slug, flat)
		}
		// Git's own names: its directory in any part (git refuses .git in
		// a path, in any case), its HEAD as the worktree's id.
		for _, part := range strings.Split(slug, "/") {
			if strings.EqualFold(part, ".git") {
				t.Fatalf("slug %q has a .git part", slug)
			}
		}
		if flat == "HEAD" || strings.HasSuffix(flat, "_HEAD") && strings.Trim(flat, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_-") == "" {
			t.Fatalf("slug %q is one of git's own names", slug)
		}
		base := "/repo/.claude/worktrees"
		dir := filepath.Join(base, flat)
		if filepath.Dir(dir) != base || filepath.Base(dir) != flat {
			t.Fatalf("slug %q makes %q, not an entry of %s", slug, dir, base)
		}
		if back := strings.ReplaceAll(flat, "+", "/"); back != slug {
			t.Fatalf("flat name %q of %q maps back to %q: two slugs would share a worktree", flat, slug, back)
		}
		branch := worktree.Branch(slug)
		if !refOK(branch) {
			t.Fatalf("slug %q gives branch %q, which git refuses", slug, branch)
		}
		if useGit {
			if out, err := exec.Command("git", "check-ref-format", "--branch", branch).CombinedOutput(); err != nil {
				t.Fatalf("git check-ref-format --branch %q: %v: %s", branch, err, out)
			}
		}
	})
}
