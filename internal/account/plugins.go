package account

import (
	"os"
	"path/filepath"
	"sort"
)

// DeclaredPlugins names the plugins the account declares (the Nix module's
// plugins and its LSP plugin): the directories of skills/ in its declared
// layer (DeclaredDir) that hold .claude-plugin/plugin.json, sorted. Only the
// account's own record is read, never a runtime's, which a repository
// carries.
func (a *Account) DeclaredPlugins() []string { return PluginsIn(a.DeclaredDir()) }

// PluginsIn names the plugins in dir's skills/: the directories holding a
// regular .claude-plugin/plugin.json (through links, as home-manager links
// them), sorted.
func PluginsIn(dir string) []string {
	found, _ := filepath.Glob(filepath.Join(dir, "skills", "*", ".claude-plugin", "plugin.json"))
	var names []string
	for _, f := range found {
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
			names = append(names, filepath.Base(filepath.Dir(filepath.Dir(f))))
		}
	}
	sort.Strings(names)
	return names
}
