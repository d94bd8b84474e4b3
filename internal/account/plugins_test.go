package account

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// DeclaredPlugins reads the declared layer's skills/: plugins (a regular
// .claude-plugin/plugin.json) by name, sorted; not a skill, not a manifest
// that is a directory, not the account dir's own skills/ when a declared
// layer is named.
func TestDeclaredPlugins(t *testing.T) {
	dir := t.TempDir()
	layer := filepath.Join(dir, "layer1")
	for _, f := range []string{"skills/zed/.claude-plugin/plugin.json", "skills/alpha/.claude-plugin/plugin.json", "skills/notes/SKILL.md"} {
		write(t, filepath.Join(layer, f))
	}
	if err := os.MkdirAll(filepath.Join(layer, "skills/odd/.claude-plugin/plugin.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "acct/skills/own/.claude-plugin/plugin.json"))
	a := &Account{Dir: filepath.Join(dir, "acct"), Config: Config{Declared: layer}}
	if got := strings.Join(a.DeclaredPlugins(), " "); got != "alpha zed" {
		t.Errorf("declared layer: %q", got)
	}
	a.Config.Declared = ""
	if got := strings.Join(a.DeclaredPlugins(), " "); got != "own" {
		t.Errorf("no declared layer: %q", got)
	}
}

func write(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
}
