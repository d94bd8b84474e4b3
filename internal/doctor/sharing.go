package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/account"
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
	// From PluginDirFlag the launcher passes them with --plugin-dir.
	if names := declaredPlugins(in.Account); len(names) > 0 && !in.Claude.Has(claudever.PluginDirFlag) {
		rows = append(rows, fmt.Sprintf("the account's plugins in skills/ (%s) are not loaded (needs ≥ %s)", strings.Join(names, ", "), claudever.PluginDirFlag))
	}
	if len(rows) == 0 {
		return nil
	}
	return []Finding{{ID: "claude-shares-less", Path: in.Claude.Path,
		Message: fmt.Sprintf("Claude Code %s shares less between worktrees than newer releases: %s", in.Claude.Version, strings.Join(rows, "; "))}}
}

// declaredPlugins are the plugins the account keeps in skills/ (the Nix
// module's plugins and LSP servers): dirs with a .claude-plugin/plugin.json.
func declaredPlugins(a *account.Account) []string {
	found, _ := filepath.Glob(filepath.Join(a.Dir, "skills", "*", ".claude-plugin", "plugin.json"))
	var names []string
	for _, f := range found {
		names = append(names, filepath.Base(filepath.Dir(filepath.Dir(f))))
	}
	return names
}

// pluginsNotLoaded finds plugins the account declares that the Claude in use
// does not load: from claudever.PluginsInSkills Claude loads them from
// skills/, and from claudever.PluginDirFlag the launcher passes each to a
// session with --plugin-dir. Nothing else would say so.
func pluginsNotLoaded(in Input) *Finding {
	if !in.Claude.Known || in.Claude.Has(claudever.PluginDirFlag) {
		return nil // unknown: claude-release-unknown says what that means
	}
	names := declaredPlugins(in.Account)
	if len(names) == 0 {
		return nil
	}
	return &Finding{ID: "plugins-not-loaded", Path: filepath.Join(in.Account.Dir, "skills"),
		Message: fmt.Sprintf("Claude Code %s does not load the plugins the account keeps in skills/ (%s): that needs Claude Code ≥ %s; upgrade Claude Code, or install them with 'claude plugin install'",
			in.Claude.Version, strings.Join(names, ", "), claudever.PluginDirFlag)}
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
