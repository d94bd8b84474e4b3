// Package doctor finds what can stop Claude from working with an account in a
// workspace, and repairs what it safely can: every finding says what is wrong,
// where, and what fixes it.
package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/adopt"
	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/runtimes"
	"github.com/claude-account/claude-account/internal/trust"
)

// Finding is one problem.
type Finding struct {
	ID      string `json:"id"` // broken-link, replaced-link, read-only, workspace-moved, not-made, temp-file, login-not-shared, keychain-default-dir, plugins-not-loaded, no-claude, claude-cannot-start, claude-release-unknown, claude-release-differs, lock-dir, overlay-changed, invalid-state, earlier-runtime, earlier-plugins, init-leftover
	Path    string `json:"path"`
	Message string `json:"message"` // one sentence with the fix
	Fixable bool   `json:"fixable"`
	Fixed   string `json:"fixed,omitempty"` // what --fix did
	fix     func() (string, error)
	// rebuilds: fix is the launcher's whole plan, which repairs every such
	// finding at once, so it runs once however many findings name it.
	rebuilds bool
}

// Input is what doctor examines.
type Input struct {
	Account *account.Account
	Context gitctx.Context
	Layout  configdir.Layout
	LockDir string
	Trust   trust.Store
	Now     time.Time
	Claude  claudever.Binary // the Claude Code in use: what it shares depends on its release
	Env     env.Env          // the environment Claude gets (an API key there is a login)
	Unclean int64            // the last Claude here ended without its launcher, alive until then (lock.Unclean)
}

// plan is the launcher's own runtime plan for this workspace.
func (in Input) plan() (*configdir.Plan, error) {
	return configdir.MakePlan(configdir.Input{Account: in.Account, Context: in.Context, Layout: in.Layout,
		Trust: in.Trust, Now: in.Now, Claude: in.Claude, Unclean: in.Unclean})
}

// Quick runs the checks cheap enough for every launch: the config dir's links
// resolve, and no file Claude writes sits on a read-only file system.
func Quick(in Input) []Finding {
	var out []Finding
	for _, st := range configdir.Inspect(in.Layout.ConfigDir, linkNames(in)) {
		if st.Kind == "link" && !st.Resolves {
			out = append(out, brokenLink(in, st))
		}
	}
	return append(out, readOnly(in)...)
}

// Check runs every check.
func Check(in Input) []Finding {
	out := Quick(in)
	if in.Layout.IsRuntime {
		if f := notMade(in); f != nil {
			// Nothing in it is the account's: the rest does not apply.
			out = append(out, *f)
		} else {
			out = append(out, replaced(in)...)
			out = append(out, moved(in)...)
			out = append(out, earlier(in)...)
		}
	}
	if err := lock.CheckDir(in.LockDir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		out = append(out, lockDir(in, err))
	}
	out = append(out, overlay(in)...)
	out = append(out, temps(in)...)
	out = append(out, initLeftovers(in)...)
	if in.Claude.Path == "" && in.Claude.Problem != "" {
		out = append(out, Finding{ID: "no-claude", Message: in.Claude.Problem})
	}
	out = append(out, claudeFindings(in)...)
	if f := loginNotShared(in); f != nil {
		out = append(out, *f)
	}
	if err := configdir.KeychainDefaultDir(in.Account.Dir, in.Env.Home(), in.Claude); err != nil {
		out = append(out, Finding{ID: "keychain-default-dir", Path: in.Account.Dir, Message: err.Error()})
	}
	if f := pluginsNotLoaded(in); f != nil {
		out = append(out, *f)
	}
	p, err := in.plan()
	if err == nil {
		err = p.Verify()
		p.Close()
	}
	if err != nil {
		out = append(out, Finding{ID: "invalid-state", Path: in.Layout.ConfigDir, Message: err.Error()})
	}
	return out
}

// Fix applies every fixable finding and records what it did.
func Fix(found []Finding) []Finding {
	rebuild := "" // set by the first rebuild: what the findings it also fixed report
	for i := range found {
		f := &found[i]
		if !f.Fixable || f.fix == nil {
			continue
		}
		if f.rebuilds && rebuild != "" {
			f.Fixed = rebuild
			continue
		}
		did, err := f.fix()
		if err != nil {
			did = "fix failed: " + err.Error()
		}
		f.Fixed = did
		if f.rebuilds {
			rebuild = "by the same rebuild"
			if err != nil {
				rebuild = did
			}
		}
	}
	return found
}

func linkNames(in Input) []string {
	names := configdir.Linked
	if in.Layout.IsRuntime || in.Account.Config.SettingsMode == account.SettingsLink {
		names = append(names[:len(names):len(names)], "settings.json")
	}
	return names
}

// repairPlan is the fix for anything the launcher's own plan repairs.
func repairPlan(in Input) func() (string, error) {
	return func() (string, error) {
		// The account's shared state is written by one plan at a time.
		release, err := lock.Account(in.LockDir, in.Account.Name)
		if err != nil {
			return "", err
		}
		defer release()
		p, err := in.plan()
		if err != nil {
			return "", err
		}
		defer p.Close()
		if err := p.Apply(); err != nil {
			return "", err
		}
		return fmt.Sprintf("rebuilt the config dir (%d changes)", len(p.Steps)), nil
	}
}

func brokenLink(in Input, st configdir.LinkState) Finding {
	f := Finding{ID: "broken-link", Path: st.Path}
	accountEntry := filepath.Join(in.Account.Dir, st.Name)
	switch {
	case len(st.Chain) > 0 && st.Chain[0] != accountEntry && in.Layout.IsRuntime:
		f.Message = fmt.Sprintf("%s points to %s, not to the account's %s; '%s' relinks it", st.Path, st.Chain[0], accountEntry, Command(in, "--fix"))
		f.Fixable, f.fix, f.rebuilds = true, repairPlan(in), true
	case st.Broken == accountEntry && in.Layout.IsRuntime:
		f.Message = fmt.Sprintf("%s is broken: the account has no %s; '%s' removes the link", st.Path, st.Name, Command(in, "--fix"))
		f.Fixable, f.fix, f.rebuilds = true, repairPlan(in), true
	default:
		f.Message = fmt.Sprintf("%s is broken at %s (a store path removed by garbage collection?); run 'home-manager switch' or restore it", st.Path, st.Broken)
	}
	return f
}

// readOnly finds files Claude writes that resolve onto a read-only file
// system: Claude's /model, /config and logins would fail there.
func readOnly(in Input) []Finding {
	var out []Finding
	for _, name := range []string{"settings.json", ".claude.json", configdir.Credentials} {
		path := filepath.Join(in.Layout.ConfigDir, name)
		// statfs and access follow links themselves; the resolved path is
		// only needed to word a finding (this runs at every launch).
		if !isReadOnly(path) {
			continue
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			continue
		}
		f := Finding{ID: "read-only", Path: path}
		if name == "settings.json" {
			f.Message = fmt.Sprintf("%s resolves to %s on a read-only file system, so Claude cannot save /model or /config; set settingsMode = \"coalesce\" for this account in home-manager (settings_mode in %s)", path, real, account.FileName)
		} else {
			f.Message = fmt.Sprintf("%s resolves to %s on a read-only file system; Claude must be able to write it: replace it with a plain file", path, real)
		}
		out = append(out, f)
	}
	return out
}

// isReadOnly asks the file system (statfs: a read-only mount such as the Nix
// store on NixOS) and the permissions (access: a 0444 store file for a user).
func isReadOnly(path string) bool {
	if _, err := os.Stat(path); err != nil {
		return false // missing: nothing to write over
	}
	var st syscall.Statfs_t
	if syscall.Statfs(path, &st) == nil && uint64(st.Flags)&stRdonly != 0 {
		return true
	}
	return syscall.Access(path, 2 /* W_OK */) != nil
}

// stRdonly is ST_RDONLY (Linux) and MNT_RDONLY (BSD, macOS): both are 1.
const stRdonly = 1

func replaced(in Input) []Finding {
	var out []Finding
	for _, name := range configdir.Linked {
		path := filepath.Join(in.Layout.ConfigDir, name)
		target := filepath.Join(in.Account.Dir, name)
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 || !exists(target) {
			continue
		}
		aside := path + ".local-" + in.Now.UTC().Format("20060102T150405Z")
		f := Finding{ID: "replaced-link", Path: path, Fixable: true,
			Message: fmt.Sprintf("%s is a real %s where a link to %s belongs; '%s' moves it to %s and relinks", path, kind(fi), target, Command(in, "--fix"), filepath.Base(aside))}
		f.fix = func() (string, error) {
			if err := os.Rename(path, aside); err != nil {
				return "", err
			}
			if _, err := repairPlan(in)(); err != nil {
				return "", err
			}
			return "moved it to " + aside + " and linked " + target, nil
		}
		out = append(out, f)
	}
	return out
}

// earlier finds a runtime made by an earlier version, which kept for itself
// what the account shares now.
func earlier(in Input) []Finding {
	found, plugins, why := configdir.Earlier(in.Layout.ConfigDir, in.Account.Dir, in.Claude)
	var out []Finding
	for _, what := range found {
		out = append(out, Finding{ID: "earlier-runtime", Path: in.Layout.ConfigDir, Fixable: true, fix: repairPlan(in), rebuilds: true,
			Message: fmt.Sprintf("%s keeps %s for itself; '%s' (or the next launch) moves it to the account", in.Layout.ConfigDir, what, Command(in, "--fix"))})
	}
	if plugins != "" {
		out = append(out, Finding{ID: "earlier-plugins", Path: plugins,
			Message: fmt.Sprintf("%s holds plugins installed in this worktree before the account's were shared, and cannot move: %s; Claude now keeps the account's plugins in %s: install them again there ('claude plugin install'), then remove %s", plugins, why, filepath.Join(in.Account.Dir, "plugins"), plugins)})
	}
	return out
}

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
	if names := declaredPlugins(in.Account); len(names) > 0 && !in.Claude.Has(claudever.PluginsInSkills) {
		rows = append(rows, fmt.Sprintf("the account's plugins in skills/ (%s) are not loaded (needs ≥ %s)", strings.Join(names, ", "), claudever.PluginsInSkills))
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
// does not load (claudever.PluginsInSkills): nothing else would say so.
func pluginsNotLoaded(in Input) *Finding {
	if !in.Claude.Known || in.Claude.Has(claudever.PluginsInSkills) {
		return nil // unknown: claude-release-unknown says what that means
	}
	names := declaredPlugins(in.Account)
	if len(names) == 0 {
		return nil
	}
	return &Finding{ID: "plugins-not-loaded", Path: filepath.Join(in.Account.Dir, "skills"),
		Message: fmt.Sprintf("Claude Code %s does not load the plugins the account keeps in skills/ (%s): that needs Claude Code ≥ %s; upgrade Claude Code, or install them with 'claude plugin install'",
			in.Claude.Version, strings.Join(names, ", "), claudever.PluginsInSkills)}
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

// notMade finds a runtime dir the launcher did not make for this account (it
// came with the repository): the next launch sets it aside unread.
func notMade(in Input) *Finding {
	dir := in.Layout.ConfigDir
	made, err := runtimes.Read(runtimes.Path(in.Account.Dir))
	if err != nil || !exists(dir) {
		return nil // a damaged record is reported by the plan (invalid-state)
	}
	if made.Check(dir).Made {
		return nil
	}
	why := "was not made by claude-account for this account (it came with the repository, or an earlier version made it)"
	return &Finding{ID: "not-made", Path: dir, Fixable: true, fix: repairPlan(in), rebuilds: true,
		Message: fmt.Sprintf("%s %s; '%s' (or the next launch) keeps it aside unread and starts fresh", dir, why, Command(in, "--fix"))}
}

// temps finds the temporary copies an interrupted write left in the config
// dir and the account dir: the next launch, or --fix, removes them.
func temps(in Input) []Finding {
	dirs := []string{in.Account.Dir}
	if in.Layout.IsRuntime && notMade(in) == nil {
		dirs = append(dirs, in.Layout.ConfigDir)
	}
	var out []Finding
	for _, t := range binding.Temps(in.Env) {
		out = append(out, Finding{ID: "temp-file", Path: t, Fixable: true,
			Message: fmt.Sprintf("%s is a temporary copy of the bindings left by an interrupted bind; '%s' (or the next bind) removes it", t, Command(in, "--fix")),
			fix:     func() (string, error) { return "removed it", binding.SweepTemps(in.Env) }})
	}
	for _, dir := range dirs {
		for _, t := range configdir.Temps(dir) {
			out = append(out, Finding{ID: "temp-file", Path: t, Fixable: true, fix: repairPlan(in), rebuilds: true,
				Message: fmt.Sprintf("%s is a temporary copy left by an interrupted write (it may hold secrets); '%s' (or the next launch) removes it", t, Command(in, "--fix"))})
		}
	}
	return out
}

// initLeftovers finds the staging dirs an init --from killed midway left
// beside the account dir (adopt.Leftovers): the next init, or --fix,
// removes them.
func initLeftovers(in Input) []Finding {
	var out []Finding
	for _, p := range adopt.Leftovers(in.Account.Dir) {
		out = append(out, Finding{ID: "init-leftover", Path: p, Fixable: true,
			Message: fmt.Sprintf("%s is what an interrupted 'claude-account init --from' left (it may hold a copy of a login); '%s' (or the next 'claude-account init %s') removes it", p, Command(in, "--fix"), in.Account.Name),
			fix: func() (string, error) {
				release, err := lock.Account(in.LockDir, in.Account.Name)
				if err != nil {
					return "", err
				}
				defer release()
				if err := os.RemoveAll(p); err != nil {
					return "", err
				}
				return "removed it", nil
			}})
	}
	return out
}

// moved finds a runtime whose worktree moved: where it was is what the
// account's record says (runtimes.Check), else, for a record of an earlier
// version, its workspace.json, which only names it here.
func moved(in Input) []Finding {
	was := ""
	if rt := runtimes.Check(in.Account.Dir, in.Layout.ConfigDir); rt.Made && rt.Known {
		was = rt.Place.Worktree
	} else if ws, err := configdir.ReadWorkspace(filepath.Join(in.Layout.ConfigDir, configdir.WorkspaceFile)); err == nil && ws != nil {
		was = ws.Toplevel
	}
	if was == "" || was == in.Context.Toplevel {
		return nil
	}
	return []Finding{{ID: "workspace-moved", Path: in.Layout.ConfigDir, Fixable: true, fix: repairPlan(in), rebuilds: true,
		Message: fmt.Sprintf("%s was made for %s, which moved to %s; '%s' (or the next launch) binds it here, and its conversations follow", in.Layout.ConfigDir, was, in.Context.Toplevel, Command(in, "--fix"))}}
}

func lockDir(in Input, problem error) Finding {
	f := Finding{ID: "lock-dir", Path: in.LockDir, Message: problem.Error()}
	fi, err := os.Lstat(in.LockDir)
	if err != nil {
		return f
	}
	st, _ := fi.Sys().(*syscall.Stat_t)
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		f.Fixable, f.fix = true, func() (string, error) {
			if err := os.Remove(in.LockDir); err != nil {
				return "", err
			}
			return "removed the link and made a private dir", lock.EnsureDir(in.LockDir)
		}
	case fi.IsDir() && st != nil && int(st.Uid) == os.Getuid():
		f.Fixable, f.fix = true, func() (string, error) {
			return "set mode 0700", os.Chmod(in.LockDir, 0o700)
		}
	}
	return f
}

func overlay(in Input) []Finding {
	if in.Context.Toplevel == "" || in.Account.Config.ProjectMCP != account.ProjectMCPTrusted {
		return nil
	}
	path := filepath.Join(in.Context.Toplevel, configdir.OverlayRel)
	data, err := trust.ReadOverlay(path)
	if err != nil {
		return []Finding{{ID: "overlay-unsafe", Path: path, Message: err.Error()}}
	}
	if data == nil {
		return nil
	}
	if st, err := in.Trust.Check(path, data); err == nil && st == trust.Changed {
		return []Finding{{ID: "overlay-changed", Path: path,
			Message: fmt.Sprintf("%s changed since you trusted it, so its servers are not loaded; review it, then run '%s'", path, trustCommand(path))}}
	}
	return nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func kind(fi fs.FileInfo) string {
	if fi.IsDir() {
		return "directory"
	}
	return "file"
}
