package doctor

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/fsx"
)

func linkNames(in Input) []string {
	names := configdir.Linked
	if in.Layout.IsRuntime || in.Account.Config.SettingsMode == account.SettingsLink {
		names = append(names[:len(names):len(names)], "settings.json")
	}
	return names
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
			if err := fsx.Rename(path, aside); err != nil {
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

func kind(fi fs.FileInfo) string {
	if fi.IsDir() {
		return "directory"
	}
	return "file"
}
