package worktree

import (
	"path/filepath"
	"strings"
	"testing"
)

// Where Claude makes a background session's worktree, read from the
// directory its conversation ran in.
func TestClaudeWorktreeOf(t *testing.T) {
	for _, c := range []struct{ cwd, root, name string }{
		{"/src/app/.claude/worktrees/bgwt", "/src/app", "bgwt"},
		{"/src/app/.claude/worktrees/bgwt/pkg/x", "/src/app", "bgwt"},
		{"/src/app/.claude/worktrees/a/.claude/worktrees/b", "/src/app/.claude/worktrees/a", "b"},
		{"/src/app/.claude/worktrees/me+feature/", "/src/app", "me+feature"},
		{"/src/app/.claude/worktrees", "", ""},
		{"/src/app/.claude/worktrees/..", "", ""},
		{"/.claude/worktrees/x", "", ""},
		{"src/app/.claude/worktrees/x", "", ""},
		{"/src/app", "", ""},
	} {
		root, name, ok := claudeWorktreeOf(c.cwd)
		if root != c.root || name != c.name || ok != (c.name != "") {
			t.Errorf("claudeWorktreeOf(%q) = %q, %q, %v; want %q, %q", c.cwd, root, name, ok, c.root, c.name)
		}
	}
}

// A transcript's cwd is any text: what it names is always an absolute root
// with a single-component name, and the worktree lies under the root.
func FuzzClaudeWorktreeOf(f *testing.F) {
	f.Add("/src/app/.claude/worktrees/bgwt/pkg")
	f.Add("/a/.claude/worktrees/../.claude/worktrees/x")
	f.Add("/a/.claude/worktrees/\x00")
	f.Fuzz(func(t *testing.T, cwd string) {
		root, name, ok := claudeWorktreeOf(cwd)
		if !ok {
			return
		}
		if !filepath.IsAbs(root) || name == "" || name == "." || name == ".." || strings.ContainsRune(name, filepath.Separator) {
			t.Fatalf("claudeWorktreeOf(%q) = %q, %q", cwd, root, name)
		}
		if p := filepath.Join(root, ".claude", "worktrees", name); filepath.Dir(filepath.Dir(filepath.Dir(p))) != root {
			t.Fatalf("claudeWorktreeOf(%q): %s is not under %s", cwd, p, root)
		}
	})
}
