package configdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/fsx"
)

// planSettings coalesces the account's own settings.json: one file for every
// config dir of the account, as Claude has one per config dir. Runtimes link
// to it (see planSettingsLink), so what Claude writes in one worktree (/model,
// plugin installs) holds in all of them.
func (p *Plan) planSettings(s *stateInput) error {
	a := s.in.Account
	target := filepath.Join(a.Dir, "settings.json")
	migrated, err := p.planSettingsLink(s, target)
	if err != nil {
		return err
	}
	if a.Config.SettingsMode != account.SettingsCoalesce {
		return nil
	}
	source := filepath.Join(a.DeclaredDir(), "settings.json")
	handMade := fsx.SamePath(target, source)
	cur, err := readOptional(target)
	if err != nil {
		return err
	}
	if handMade {
		// The account's own file, which Claude reads in every worktree.
		if err := coalesce.Validate(cur); err != nil {
			return fileError(target, err, "fix the account's settings")
		}
	}
	var want []byte
	if !handMade {
		if want, err = readOptional(source); err != nil {
			return err
		}
		if err := coalesce.Validate(want); err != nil {
			return fileError(source, err, "fix the account's settings")
		}
	}
	rf := s.record(filepath.Join(a.Dir, ManagedFile))
	d, err := decideSettings(settingsFacts{Path: target, Source: source, Cur: cur, Want: want, HandMade: handMade,
		Migrated: migrated, Prev: rf.r.SettingsKeys, IsLink: isSymlink(target)})
	if err != nil {
		return err
	}
	p.Notes = append(p.Notes, d.Notes...)
	if d.Write != nil {
		p.Steps = append(p.Steps, Step{Op: Write, Path: target, Data: d.Write, Mode: 0o600, Why: "account's settings"})
	}
	if d.Keys != nil {
		rf.r.SettingsKeys = d.Keys
	}
	return nil
}

// planSettingsLink makes a runtime's settings.json one link to the account's
// (Claude writes through a one-hop link and keeps it). A runtime made by an
// earlier version has a file of its own there: the keys Claude wrote in it
// that the account's file lacks are returned, to be carried over.
func (p *Plan) planSettingsLink(s *stateInput, accountSettings string) (migrated []byte, err error) {
	if !p.IsRuntime {
		return nil, nil
	}
	path := filepath.Join(p.ConfigDir, "settings.json")
	fi, err := os.Lstat(path)
	if s.fresh || errors.Is(err, fs.ErrNotExist) {
		p.Steps = append(p.Steps, Step{Op: Link, Path: path, Target: accountSettings, Why: "account's settings"})
		return nil, nil
	}
	switch {
	case err != nil:
		return nil, err
	case fi.Mode()&fs.ModeSymlink != 0:
		if cur, _ := os.Readlink(path); cur != accountSettings {
			p.Steps = append(p.Steps, Step{Op: Link, Path: path, Target: accountSettings, Why: "was " + cur})
		}
		return nil, nil
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is %s, not a file or link; remove it (the launcher links the account's settings there)", path, fsx.Kind(fi.Mode()))
	}
	data, err := readOptional(path)
	if err != nil {
		return nil, err
	}
	if err := coalesce.Validate(data); err != nil {
		return nil, fileError(path, err, "fix the JSON or remove the file")
	}
	if !p.untouched(path) {
		// Not written by a Claude the launcher started: none of its keys
		// (hooks, apiKeyHelper) may reach the account's settings.
		aside := freeAside(path, s.in.Now)
		p.Steps = append(p.Steps, Step{Op: Move, Path: path, Target: aside, Why: "changed while no Claude ran here"},
			Step{Op: Link, Path: path, Target: accountSettings, Why: "account's settings"})
		p.Notes = append(p.Notes, fmt.Sprintf("%s changed while no Claude ran in this worktree (it came with the repository?); kept it as %s, took nothing from it, and linked the account's settings", path, aside))
		return nil, nil
	}
	// One step: the link replaces the file atomically.
	p.Steps = append(p.Steps, Step{Op: Link, Path: path, Target: accountSettings, Replace: true, Why: "settings are the account's now"})
	p.Notes = append(p.Notes, fmt.Sprintf("%s is the account's settings now (a link to %s); the settings Claude wrote in this worktree were carried over where the account had none", path, accountSettings))
	if len(data) == 0 {
		return []byte("{}"), nil
	}
	return data, nil
}

// withMissingKeys adds to doc the top-level keys of from that doc lacks.
func withMissingKeys(doc, from []byte) ([]byte, error) {
	names, err := coalesce.TopLevelKeys(from)
	if err != nil {
		return nil, err
	}
	var keys []coalesce.Key
	for _, n := range names {
		if _, ok, err := coalesce.Lookup(doc, n); err != nil {
			return nil, err
		} else if !ok {
			raw, _, _ := coalesce.Lookup(from, n)
			keys = append(keys, coalesce.Key{Name: n, Raw: raw})
		}
	}
	if len(keys) == 0 {
		return doc, nil
	}
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = []byte("{}")
	}
	out, _, err := coalesce.Splice(doc, keys)
	return out, err
}

// settingsFacts is what the account's settings.json is decided from, read
// beforehand: decideSettings reads no file.
type settingsFacts struct {
	Path     string // the account's settings.json
	Source   string // the declared settings.json (the same file when HandMade)
	Cur      []byte // the account's settings.json, nil when missing
	Want     []byte // the declared settings; nil when HandMade
	HandMade bool   // the account dir's own file is the declaration (no Nix)
	// Migrated is a settings.json an earlier version kept in a runtime: the
	// keys Claude wrote there that the account's file lacks are carried over.
	Migrated []byte
	Prev     []string // the keys declared last time (the record's)
	IsLink   bool     // the account's settings.json is a link (into the store)
}

// settingsDecision is the account's settings.json to write (nil: it is
// right), the declared keys to record (nil: leave the record), and notes.
type settingsDecision struct {
	Write []byte
	Keys  []string
	Notes []string
}

// decideSettings coalesces the account's settings.json: every key the
// account declares is enforced, a key no longer declared is dropped, keys
// Claude wrote are kept, and what an earlier launcher wrote there for itself
// is taken out. Pinned by TestDecideSettings and the testscripts
// coalesce-settings (declared keys enforced, dropped ones removed, Claude's
// kept), settings-launcher-entries-removed (the launcher's own entries) and
// coalesce-invalid-json (an invalid settings.json stops the launch).
func decideSettings(f settingsFacts) (settingsDecision, error) {
	var d settingsDecision
	// What an earlier version wrote here for itself (statusline = true,
	// use_hooks = true: a status line and worktree hooks naming the
	// launcher's path) now reaches each session as flag settings (package
	// session), naming the launcher that runs then: take out just those.
	cur, removed, err := withoutLauncherEntries(f.Cur)
	if err != nil {
		return d, fileError(f.Path, err, "fix the account's settings")
	}
	if removed != "" {
		d.Notes = append(d.Notes, fmt.Sprintf("removed the %s an earlier claude-account wrote into %s for itself; each session gets them from the launcher that starts it now", removed, f.Path))
	}
	if f.HandMade && f.Want == nil && f.Migrated == nil {
		if removed != "" {
			// The user's file, spliced where ours was and nowhere else.
			d.Write = cur
		}
		return d, nil
	}
	if f.Migrated != nil {
		if cur, err = withMissingKeys(cur, f.Migrated); err != nil {
			return d, fileError(f.Path, err, "fix the JSON or remove the file to start from the account's settings")
		}
	}
	prev := f.Prev
	if f.HandMade {
		prev = nil // nothing is declared: no key can have been dropped
	}
	out, changed, err := coalesce.Settings(cur, f.Want, prev)
	if err != nil {
		return d, fileError(f.Path, err, "fix the JSON or remove the file to start from the account's settings")
	}
	if len(out) == 0 {
		out = []byte("{}\n") // every file written is valid JSON
	}
	if changed || f.Migrated != nil || removed != "" || f.IsLink || cur == nil {
		d.Write = out
	}
	if !f.HandMade {
		d.Keys, _ = coalesce.TopLevelKeys(f.Want)
		if d.Keys == nil {
			d.Keys = []string{}
		}
	}
	return d, nil
}
