package launch

import "github.com/claude-account/claude-account/internal/configdir"

// withPluginDirs puts before a session's arguments (after the launcher's
// --settings, which sessionArgs adds first) one --plugin-dir for each
// plugin the account declares (configdir.Plugins), when its Claude
// loads plugins given so but not from skills/ (claudever.PluginDirFlag to
// claudever.PluginsInSkills): without it, a Claude before 2.1.157 would not
// load them at all. The directory is the account dir's skills/<name>, which
// home-manager links to the declared layer. The form with '=' is used
// because the option takes several paths: "--plugin-dir DIR hi" would take
// the prompt for a second plugin. Never for a release nothing could tell (a
// newer one loads them from skills/ already) nor for Claude's commands (mcp
// list, plugin list), whose parsers may refuse the option.
func (w *Workspace) withPluginDirs(args []string) []string {
	dirs := w.pluginDirs()
	if len(dirs) == 0 {
		return args
	}
	out := make([]string, 0, len(dirs)+len(args))
	for _, d := range dirs {
		out = append(out, "--plugin-dir="+d)
	}
	return append(out, args...)
}

// pluginDirs are the plugin directories withPluginDirs passes: what
// configdir.Plugins says, which doctor reads too.
func (w *Workspace) pluginDirs() []string {
	return configdir.Plugins(w.Account, w.Claude).Dirs
}
