package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNotSelf: the launcher given as the Claude to wrap is refused by its
// name, or the name of what it links to; any Claude's name passes.
func TestNotSelf(t *testing.T) {
	for path, refused := range map[string]bool{
		"/usr/bin/claude-account":           true,
		"/nix/store/x/bin/claude-account":   true,
		"/x/claude-account.exe":             true,
		"/x/node_modules/.bin/claude":       false,
		"/x/resources/native-binary/claude": false,
		"/x/claude-accounts":                false,
		"/x/claudemax":                      false,
	} {
		if got := notSelf(path) != nil; got != refused {
			t.Errorf("notSelf(%q) refused = %v, want %v", path, got, refused)
		}
	}
}

// FuzzNotSelf: any path is answered without a panic, and refused exactly
// when its (unlinked) name is claude-account's.
func FuzzNotSelf(f *testing.F) {
	for _, s := range []string{"/usr/bin/claude-account", "/x/claude", "", "/", "claude-account.", "/a/../claude-account"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		err := notSelf("/nonexistent-fuzz" + path)
		base := filepath.Base("/nonexistent-fuzz" + path)
		want := base == "claude-account" || strings.HasPrefix(base, "claude-account.")
		if (err != nil) != want {
			t.Fatalf("notSelf(%q) = %v, want refused %v", path, err, want)
		}
	})
}
