package configdir

import (
	"path/filepath"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
)

// PluginLoad is what a session of one Claude does with the plugins the
// account keeps in its skills/ (dirs with a .claude-plugin/plugin.json: the
// Nix module's plugins and LSP plugin, and any the user put there). The
// launcher passes Dirs and doctor reports NotLoaded, both from Plugins, so
// that doctor says exactly what the launcher does.
type PluginLoad struct {
	// Dirs are the plugin directories the launcher passes to each session
	// with --plugin-dir: from claudever.PluginDirFlag to
	// claudever.PluginsInSkills, the account's declared plugins
	// (account.DeclaredPlugins) found in its skills/.
	Dirs []string
	// NotLoaded names the plugins in skills/ this Claude never loads: all
	// of them before PluginDirFlag; from it, those outside the declared
	// layer, which the launcher does not pass.
	NotLoaded []string
}

// Plugins is what a session of c does with the account's plugins. Nothing
// for a release nothing could tell (the launcher passes nothing, and doctor
// says what an unknown release means) nor from PluginsInSkills, where
// Claude loads every plugin in skills/ itself.
func Plugins(a *account.Account, c claudever.Binary) PluginLoad {
	if !c.Known || c.Has(claudever.PluginsInSkills) {
		return PluginLoad{}
	}
	inSkills := account.PluginsIn(a.Dir) // through links, as home-manager makes them
	if !c.Has(claudever.PluginDirFlag) {
		return PluginLoad{NotLoaded: inSkills}
	}
	declared := map[string]bool{}
	for _, name := range a.DeclaredPlugins() {
		declared[name] = true
	}
	var load PluginLoad
	for _, name := range inSkills {
		if declared[name] {
			load.Dirs = append(load.Dirs, filepath.Join(a.Dir, "skills", name))
		} else {
			load.NotLoaded = append(load.NotLoaded, name)
		}
	}
	return load
}
