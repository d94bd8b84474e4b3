package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
)

// Degraded is the launch-time warning for a Claude that shares less between
// the account's worktrees than newer releases: one finding naming each row
// and the release that brings it, or none. Outside a runtime Claude shares
// everything itself.
func Degraded(in Input) []Finding {
	if f := unknownRelease(in); f != nil {
		return []Finding{*f}
	}
	if !in.Layout.IsRuntime || !in.Claude.Known {
		return nil
	}
	var rows []string
	for _, s := range configdir.SharedVia(in.Account, in.Layout, in.Claude) {
		switch {
		case s.Via == "none":
			rows = append(rows, fmt.Sprintf("%s is not shared (%s; needs ≥ %s)", s.Name, s.Note, s.Needs))
		case s.Needs != "":
			rows = append(rows, fmt.Sprintf("%s: %s needs ≥ %s", s.Name, s.Note, s.Needs))
		}
	}
	if names := configdir.Plugins(in.Account, in.Claude).NotLoaded; len(names) > 0 {
		rows = append(rows, fmt.Sprintf("the account's plugins in skills/%s (%s) are not loaded (needs ≥ %s)", outsideDeclared(in), strings.Join(names, ", "), neededForPlugins(in)))
	}
	if len(rows) == 0 {
		return nil
	}
	return []Finding{{ID: "claude-shares-less", Path: in.Claude.Path,
		Message: fmt.Sprintf("Claude Code %s shares less between worktrees than newer releases: %s", in.Claude.Version, strings.Join(rows, "; "))}}
}

// pluginsNotLoaded finds plugins in the account's skills/ that the Claude in
// use never loads (configdir.Plugins, which the launcher reads too): before
// claudever.PluginDirFlag any; from it, those outside the declared layer,
// which the launcher does not pass with --plugin-dir. Nothing else would
// say so.
func pluginsNotLoaded(in Input) *Finding {
	names := configdir.Plugins(in.Account, in.Claude).NotLoaded
	if len(names) == 0 {
		return nil
	}
	var msg string
	if in.Claude.Has(claudever.PluginDirFlag) {
		msg = fmt.Sprintf("Claude Code %s does not load the plugins in the account's skills/ outside its declared layer (%s): before %s the launcher passes only the declared layer's plugins with --plugin-dir; declare them in the module's plugins, upgrade Claude Code, or install them with 'claude plugin install'",
			in.Claude.Version, strings.Join(names, ", "), claudever.PluginsInSkills)
	} else {
		msg = fmt.Sprintf("Claude Code %s does not load the plugins the account keeps in skills/ (%s): that needs Claude Code ≥ %s; upgrade Claude Code, or install them with 'claude plugin install'",
			in.Claude.Version, strings.Join(names, ", "), claudever.PluginDirFlag)
	}
	return &Finding{ID: "plugins-not-loaded", Path: filepath.Join(in.Account.Dir, "skills"), Message: msg}
}

// outsideDeclared qualifies the plugins Degraded names: from
// claudever.PluginDirFlag only those outside the declared layer are not
// loaded.
func outsideDeclared(in Input) string {
	if in.Claude.Has(claudever.PluginDirFlag) {
		return " outside its declared layer"
	}
	return ""
}

// neededForPlugins is the release that loads the plugins Degraded names.
func neededForPlugins(in Input) claudever.Version {
	if in.Claude.Has(claudever.PluginDirFlag) {
		return claudever.PluginsInSkills
	}
	return claudever.PluginDirFlag
}

// HasLogin reports whether Claude will find a login here: an API key in its
// environment, or the account's login where this Claude reads it.
func HasLogin(in Input) bool {
	if in.Env.Get("ANTHROPIC_API_KEY") != "" || in.Env.Get("ANTHROPIC_AUTH_TOKEN") != "" || in.Env.Get("CLAUDE_CODE_OAUTH_TOKEN") != "" {
		return true
	}
	for _, s := range configdir.SharedState(in.Account, in.Layout, in.Env, in.Claude) {
		if s.Name != "login" {
			continue
		}
		switch s.Via {
		case "none":
			return true // a keychain entry of this config dir's own: not ours to see
		case "link":
			// The account's, which the launch links (loginNotShared says
			// when a runtime's link is wrong).
			_, err := os.Stat(s.Path)
			return err == nil
		default:
			// On macOS the login is a keychain item, not ours to see.
			_, err := os.Stat(filepath.Join(s.Path, configdir.Credentials))
			return err == nil || in.Claude.Keychain()
		}
	}
	return false
}

// loginNotShared finds a runtime whose Claude will not find the account's
// login: a Claude before 2.1.144 reads it only from the config dir, where the
// launcher links it.
func loginNotShared(in Input) *Finding {
	if !in.Layout.IsRuntime || notMade(in) != nil || !exists(in.Layout.ConfigDir) {
		return nil
	}
	acct := filepath.Join(in.Account.Dir, configdir.Credentials)
	for _, s := range configdir.SharedVia(in.Account, in.Layout, in.Claude) {
		if s.Name != "login" || s.Via != "link" {
			continue
		}
		path := filepath.Join(in.Layout.ConfigDir, configdir.Credentials)
		if t, err := os.Readlink(path); err == nil && t == acct {
			return nil
		}
		return &Finding{ID: "login-not-shared", Path: path, Fixable: true, fix: repairPlan(in), rebuilds: true,
			Message: fmt.Sprintf("%s reads its login only from %s, which is not a link to the account's login %s; '%s' (or the next launch) links it", in.Claude.Label(), path, acct, Command(in, "--fix"))}
	}
	return nil
}
