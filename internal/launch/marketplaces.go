package launch

import (
	"path/filepath"

	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/doctor"
	"github.com/claude-account/claude-account/internal/marketplaces"
)

// knowMarketplaces adds the marketplaces the account declares to the
// account dir's plugins/known_marketplaces.json (marketplaces.Sync), so
// that 'claude plugin marketplace list' and 'plugin install x@m' know them
// before the first session. The account dir's, not a runtime's: from
// 2.1.42 every runtime's Claude keeps its plugins there
// (CLAUDE_CODE_PLUGIN_CACHE_DIR; measured on 2.1.90 and 2.1.332: 'plugin
// marketplace list' in a runtime lists an entry of the account's file),
// outside git the account dir is the config dir, and a runtime is the
// repository's, which nothing here writes from. Before 2.1.42 a runtime's
// Claude registers them at its first session, from settings.json. Only the
// account's own declared settings are read. Called under the account's
// lock; a file left alone is said once (until it changes), and no failure
// here stops the launch.
func (w *Workspace) knowMarketplaces(io IO) {
	a := w.Account
	switch {
	case a.Config.Declared == "":
		// No declared layer: the settings.json is the account's own,
		// which Claude reads itself at a session's start (and 2.1.90 and
		// later add each marketplace the user adds to it).
		return
	case w.Layout.IsRuntime && !w.Claude.MayHave(claudever.PluginCacheDir):
		// This Claude keeps its plugins in the runtime, not the account's
		// plugins/ (before 2.1.42); it registers the marketplaces from
		// settings.json at its first session.
		return
	}
	plugins := filepath.Join(a.Dir, "plugins")
	problem, err := marketplaces.Sync(filepath.Join(a.DeclaredDir(), "settings.json"), plugins, w.now())
	if err != nil {
		io.Note("the marketplaces the account declares are not added to " + filepath.Join(plugins, marketplaces.File) + " (" + err.Error() + "); Claude knows them once a session starts")
		return
	}
	var found []doctor.Finding
	if problem != "" {
		found = append(found, doctor.Finding{ID: "known-marketplaces", Path: filepath.Join(plugins, marketplaces.File), Message: problem})
	}
	for _, g := range doctor.Unwarned(w.warnedPath(), w.lockDir, doctor.Group{Key: "marketplaces " + a.Name, Found: found}) {
		for _, f := range g {
			io.Note(f.Message)
		}
	}
}
