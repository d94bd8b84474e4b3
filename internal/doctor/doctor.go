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
	"syscall"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/trust"
)

// Finding is one problem.
type Finding struct {
	ID      string `json:"id"` // broken-link, replaced-link, read-only, workspace-moved, lock-dir, overlay-changed, invalid-state, earlier-runtime, earlier-plugins
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
	Exe     string // the launcher, for the hooks a repaired settings.json registers
	Now     time.Time
}

// plan is the launcher's own runtime plan for this workspace.
func (in Input) plan() (*configdir.Plan, error) {
	return configdir.MakePlan(configdir.Input{Account: in.Account, Context: in.Context, Layout: in.Layout,
		Trust: in.Trust, Exe: in.Exe, Now: in.Now})
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
		out = append(out, replaced(in)...)
		out = append(out, moved(in)...)
		out = append(out, earlier(in)...)
	}
	if err := lock.CheckDir(in.LockDir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		out = append(out, lockDir(in, err))
	}
	out = append(out, overlay(in)...)
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
	found, plugins, why := configdir.Earlier(in.Layout.ConfigDir, in.Account.Dir)
	var out []Finding
	for _, what := range found {
		out = append(out, Finding{ID: "earlier-runtime", Path: in.Layout.ConfigDir, Fixable: true, fix: repairPlan(in), rebuilds: true,
			Message: fmt.Sprintf("%s was made by an earlier version and keeps %s; '%s' (or the next launch) moves it to the account", in.Layout.ConfigDir, what, Command(in, "--fix"))})
	}
	if plugins != "" {
		out = append(out, Finding{ID: "earlier-plugins", Path: plugins,
			Message: fmt.Sprintf("%s holds plugins installed in this worktree by an earlier version, and cannot move: %s; Claude now keeps the account's plugins in %s: install them again there ('claude plugin install'), then remove %s", plugins, why, filepath.Join(in.Account.Dir, "plugins"), plugins)})
	}
	return out
}

func moved(in Input) []Finding {
	ws, err := configdir.ReadWorkspace(filepath.Join(in.Layout.ConfigDir, configdir.WorkspaceFile))
	if err != nil || ws == nil || ws.Toplevel == in.Context.Toplevel {
		return nil
	}
	return []Finding{{ID: "workspace-moved", Path: in.Layout.ConfigDir, Fixable: true, fix: repairPlan(in), rebuilds: true,
		Message: fmt.Sprintf("%s was made for %s, not %s (a copied or moved repository); '%s' (or the next launch) keeps it aside and starts fresh", in.Layout.ConfigDir, ws.Toplevel, in.Context.Toplevel, Command(in, "--fix"))}}
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
