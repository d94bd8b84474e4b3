package configdir

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/mcp"
	"github.com/claude-account/claude-account/internal/shared"
	"github.com/claude-account/claude-account/internal/trust"
	"github.com/tidwall/gjson"
)

// OverlayRel is where a workspace keeps its project MCP servers.
const OverlayRel = ".claude/.mcp.json"

// ManagedFile is the launcher's record in a config dir: the settings keys the
// account declared last time (so a key dropped from the declaration is
// dropped from settings.json too, instead of lingering as if Claude had
// written it), and the MCP servers as the launcher last saw them (so a
// difference now is known to be Claude's).
const ManagedFile = ".claude-account.json"

type record struct {
	SettingsKeys []string `json:"settingsKeys,omitempty"`
	// Servers is null in a record made by an earlier version, or by a
	// launch that did not read this config dir's servers.
	Servers shared.Seen `json:"mcpServers"`
	// TrustSeeded: the repository's trust was put into this config dir's
	// .claude.json, so it need not be looked for again.
	TrustSeeded bool `json:"trustSeeded,omitempty"`
	// AccountKeys are the account's keys (AccountKeys) as the launcher last
	// wrote or read them here: a difference now is Claude's. nil: not seen
	// by this version yet.
	AccountKeys map[string]json.RawMessage `json:"accountKeys"`
	// Stamp is .claude.json as last harvested, in the account dir's record:
	// a launch in a runtime reads the account dir's file only when it
	// changed since.
	Stamp StateStamp `json:"stateStamp,omitzero"`
}

// recordFile is a record as read, and as it is to be written.
type recordFile struct {
	path string
	read record // as read; zero when missing or damaged
	r    record // as it is to be written
	ok   bool   // the file was read whole, as this version writes it
}

// loadRecord reads a record; a damaged one only forgets what it knew. It is
// read with gjson, not encoding/json: no reflection on the launch path.
func loadRecord(path string, fresh bool) *recordFile {
	rf := &recordFile{path: path}
	if fresh {
		return rf
	}
	data, err := fsx.ReadFile(path)
	if err != nil || !gjson.ValidBytes(data) {
		return rf
	}
	doc := gjson.ParseBytes(data)
	for _, k := range doc.Get("settingsKeys").Array() {
		rf.read.SettingsKeys = append(rf.read.SettingsKeys, k.String())
	}
	if servers := doc.Get("mcpServers"); servers.IsObject() {
		rf.read.Servers = shared.Seen{}
		servers.ForEach(func(k, v gjson.Result) bool {
			rf.read.Servers[k.String()] = json.RawMessage(v.Raw)
			return true
		})
	}
	rf.read.TrustSeeded = doc.Get("trustSeeded").Bool()
	if keys := doc.Get("accountKeys"); keys.IsObject() {
		rf.read.AccountKeys = map[string]json.RawMessage{}
		keys.ForEach(func(k, v gjson.Result) bool {
			rf.read.AccountKeys[k.String()] = json.RawMessage(v.Raw)
			return true
		})
	}
	if st := doc.Get("stateStamp"); st.IsObject() {
		rf.read.Stamp = StateStamp{Ino: st.Get("ino").Int(), Size: st.Get("size").Int(), MtimeNanos: st.Get("mtimeNs").Int()}
	}
	rf.r = rf.read
	rf.r.Servers = maps.Clone(rf.read.Servers)
	rf.r.AccountKeys = maps.Clone(rf.read.AccountKeys)
	rf.ok = doc.Get("mcpServers").Exists()
	return rf
}

// changed reports whether the record must be written.
func (rf *recordFile) changed() bool {
	a, b := rf.read, rf.r
	if !rf.ok || !slices.Equal(a.SettingsKeys, b.SettingsKeys) || a.TrustSeeded != b.TrustSeeded || a.Stamp != b.Stamp ||
		(a.Servers == nil) != (b.Servers == nil) || len(a.Servers) != len(b.Servers) ||
		(a.AccountKeys == nil) != (b.AccountKeys == nil) || len(a.AccountKeys) != len(b.AccountKeys) {
		return true
	}
	for name, v := range b.AccountKeys {
		if w, ok := a.AccountKeys[name]; !ok || !coalesce.Equal(v, w) {
			return true
		}
	}
	for name, v := range b.Servers {
		if w, ok := a.Servers[name]; !ok || !coalesce.Equal(v, w) {
			return true
		}
	}
	return false
}

func (rf *recordFile) encode() []byte {
	data, _ := json.Marshal(rf.r) // small, and only when it changed
	return append(data, '\n')
}

// fileError names the file and says what to do, for invalid JSON in a file
// the user or Claude owns: nothing is written when this happens.
func fileError(path string, err error, fix string) error {
	var se *coalesce.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s:%d:%d: %s; %s (nothing was changed)", path, se.Line, se.Column, se.Msg, fix)
	}
	return fmt.Errorf("%s: %v; %s (nothing was changed)", path, err, fix)
}

// mapOptional maps (or reads, when small) a file that may be missing.
func mapOptional(path string) ([]byte, func(), error) {
	data, release, err := fsx.Map(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, release, nil
	}
	return data, release, err
}

// readOptional reads a file that may be missing (nil, nil).
func readOptional(path string) ([]byte, error) {
	data, err := fsx.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if errors.Is(err, syscall.EISDIR) {
		return nil, fmt.Errorf("%s is a directory; remove it (a file belongs there)", path)
	}
	return data, err
}

// stateInput is what planning the state of one config dir reads. Every input
// is read and checked before any step is planned: a bad file stops the
// launch with nothing written.
type stateInput struct {
	in      Input
	fresh   bool
	records map[string]*recordFile
}

func (s *stateInput) record(path string) *recordFile {
	if rf, ok := s.records[path]; ok {
		return rf
	}
	// The account dir's record is never fresh: only a runtime starts anew.
	rf := loadRecord(path, s.fresh && filepath.Dir(path) != s.in.Account.Dir)
	s.records[path] = rf
	return rf
}

// planState adds the writes that make the account's settings.json and this
// config dir's .claude.json hold what the account declares and shares,
// keeping everything Claude wrote.
func (p *Plan) planState(in Input, fresh bool) error {
	s := &stateInput{in: in, fresh: fresh, records: map[string]*recordFile{}}
	if err := p.planSettings(s); err != nil {
		return err
	}
	if err := p.planClaudeState(s); err != nil {
		return err
	}
	for _, path := range slices.Sorted(maps.Keys(s.records)) {
		if rf := s.records[path]; rf.changed() {
			p.Steps = append(p.Steps, Step{Op: Write, Path: rf.path, Data: rf.encode(), Secret: true, Why: "launcher's record"})
		}
	}
	return nil
}

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
	// What an earlier version wrote here for itself (statusline = true,
	// use_hooks = true: a status line and worktree hooks naming the
	// launcher's path) now reaches each session as flag settings (package
	// session), naming the launcher that runs then: take out just those.
	cur, removed, err := withoutLauncherEntries(cur)
	if err != nil {
		return fileError(target, err, "fix the account's settings")
	}
	if removed != "" {
		p.Notes = append(p.Notes, fmt.Sprintf("removed the %s an earlier claude-account wrote into %s for itself; each session gets them from the launcher that starts it now", removed, target))
	}
	if handMade && want == nil && migrated == nil {
		if removed != "" {
			// The user's file, spliced where ours was and nowhere else.
			p.Steps = append(p.Steps, Step{Op: Write, Path: target, Data: cur, Mode: 0o600, Why: "account's settings"})
		}
		return nil
	}
	if migrated != nil {
		if cur, err = withMissingKeys(cur, migrated); err != nil {
			return fileError(target, err, "fix the JSON or remove the file to start from the account's settings")
		}
	}
	rf := s.record(filepath.Join(a.Dir, ManagedFile))
	prev := rf.r.SettingsKeys
	if handMade {
		prev = nil // nothing is declared: no key can have been dropped
	}
	out, changed, err := coalesce.Settings(cur, want, prev)
	if err != nil {
		return fileError(target, err, "fix the JSON or remove the file to start from the account's settings")
	}
	if len(out) == 0 {
		out = []byte("{}\n") // every file written is valid JSON
	}
	if changed || migrated != nil || removed != "" || isSymlink(target) || cur == nil {
		p.Steps = append(p.Steps, Step{Op: Write, Path: target, Data: out, Mode: 0o600, Why: "account's settings"})
	}
	if !handMade {
		keys, _ := coalesce.TopLevelKeys(want)
		rf.r.SettingsKeys = keys
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
		return nil, fmt.Errorf("%s is a %s, not a file or link; remove it (the launcher links the account's settings there)", path, kindOf(fi))
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
		aside := path + ".moved-" + s.in.Now.UTC().Format("20060102T150405Z")
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

// planClaudeState makes the config dir's .claude.json hold the account's MCP
// servers (declared, and those Claude added in any of its config dirs), the
// trusted overlay's, the managed keys and the account's own keys
// (AccountKeys); every other byte is Claude's. What Claude changed since the
// launcher last saw them — in this config dir, and in the account dir by any
// means (plain Claude, an editor) — is harvested into the account's ledger
// first.
func (p *Plan) planClaudeState(s *stateInput) error {
	in := s.in
	a := in.Account
	state := filepath.Join(p.ConfigDir, ".claude.json")
	accountState := filepath.Join(a.Dir, ".claude.json")
	inAccount := fsx.SamePath(state, accountState)
	if fi, err := os.Lstat(state); err == nil && !fi.Mode().IsRegular() {
		// Following it would copy whatever it points to (another account's
		// login) into this config dir.
		return fmt.Errorf("%s is %s, not a plain file; remove it (Claude and claude-account recreate it)", state, describe(state, fi))
	}
	declared, err := declaredServers(a)
	if err != nil {
		return err
	}
	ledgerPath := shared.Path(a.Dir)
	ledger, err := shared.Read(ledgerPath)
	if err != nil {
		return err
	}
	onDisk := ledger // nil: the account's first ledger is written now
	var cur []byte
	if !s.fresh {
		// Claude's state can be 100 MB: mapped, not read, and never decoded.
		var release func()
		cur, release, err = mapOptional(state)
		p.releases = append(p.releases, release)
		if err != nil {
			return err
		}
	}
	extra := a.ManagedKeys()[1:]
	var acct []byte
	if !inAccount {
		if acct, ledger, err = p.harvestAccountDir(s, declared, ledger, len(extra) > 0); err != nil {
			return err
		}
	}
	rf := s.record(filepath.Join(p.ConfigDir, ManagedFile))
	fix := "fix the JSON by hand or restore it from " + filepath.Join(p.ConfigDir, "backups")
	acctFix := "fix the JSON by hand or restore it from " + filepath.Join(a.Dir, "backups")
	names := accountKeyNames(a)

	var keys []coalesce.Key
	var next *shared.Ledger
	var doc *coalesce.Doc // cur, scanned once: a large file is scanned once
	// Everything read from mapped memory is read inside Guard: a file cut
	// short under the mapping is an error, not a crash.
	err = fsx.Guard(state, func() error {
		var err error
		if doc, err = coalesce.Scan(cur); err != nil {
			return fileError(state, err, fix)
		}
		raw, _, err := doc.Lookup("mcpServers")
		if err != nil {
			return fileError(state, err, fix)
		}
		current, err := mcp.ParseClaudes(raw, state)
		if err != nil {
			return fmt.Errorf("%w; %s (nothing was changed)", err, fix)
		}
		seen := rf.r.Servers // nil: an earlier version made this config dir
		// What changed here while no Claude the launcher started ran (an
		// archive extracted over the checkout) is not Claude's: taken as seen,
		// nothing of it reaches the account.
		untrusted := !p.untouched(state) || !p.untouched(rf.path)
		switch {
		case cur == nil:
			seen = shared.Seen{}
		case untrusted:
			seen = shared.SeenOf(current)
		}
		res := shared.Reconcile(shared.Input{Ledger: ledger, Rebuilt: onDisk == nil, Declared: declared, Overlay: p.overlay(in),
			Current: current, Seen: seen, File: state})
		p.Notes = append(p.Notes, res.Notes...)
		next = res.Ledger
		rf.r.Servers = shared.SeenOf(res.Servers)
		keys = append(keys, coalesce.Key{Name: "mcpServers", Raw: res.Servers.JSON()})

		have, err := lookupKeys(doc.Lookup, names)
		if err != nil {
			return fileError(state, err, fix)
		}
		seenKeys := rf.r.AccountKeys // nil: not seen by this version yet
		switch {
		case cur == nil:
			seenKeys = map[string]json.RawMessage{}
		case untrusted:
			seenKeys = have
		}
		next.HarvestKeys(names, have, seenKeys)
		rf.r.AccountKeys = map[string]json.RawMessage{}
		for _, k := range names {
			v, ok := next.AccountKeys[k]
			if ok {
				rf.r.AccountKeys[k] = v
			}
			if h, had := have[k]; ok != had || ok && !coalesce.Equal(h, v) {
				keys = append(keys, coalesce.Key{Name: k, Raw: v}) // nil: removed
			}
		}

		trustKey, err := p.trustKey(in, cur, next, rf)
		if err != nil {
			return fileError(state, err, fix)
		}
		if trustKey != nil {
			keys = append(keys, *trustKey)
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = fsx.Guard(accountState, func() error {
		for _, k := range extra {
			raw, ok, err := coalesce.Lookup(acct, k)
			if err != nil {
				return fileError(accountState, err, acctFix)
			}
			if ok {
				keys = append(keys, coalesce.Key{Name: k, Raw: raw})
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if !shared.Same(onDisk, next) {
		p.Steps = append(p.Steps, Step{Op: Write, Path: ledgerPath, Data: next.Encode(), Secret: true, Why: "account's shared MCP servers, keys and trust"})
	}

	var pieces [][]byte
	var check func() error
	err = fsx.Guard(state, func() (err error) {
		pieces, check, err = doc.SplicePieces(dedupe(keys))
		return err
	})
	if err != nil {
		return fileError(state, err, fix)
	}
	if pieces != nil {
		p.Steps = append(p.Steps, Step{Op: Write, Path: state, Pieces: pieces, Secret: true, Why: "account's MCP servers and keys",
			Check: func() error {
				if err := fsx.Guard(state, check); err != nil {
					return fileError(state, err, fix)
				}
				return nil
			}})
	}
	return nil
}

// harvestAccountDir takes into the ledger what changed in the account dir's
// own .claude.json since the launcher last saw it — servers and account keys
// that plain Claude or an editor put there — when a launch in a runtime does
// not otherwise read it: its stamp (inode, size, mtime) in the account's
// record says whether it changed. A file that does not parse stops the launch
// with nothing written. It returns the account dir's state when it was read
// (the managed keys need it: need), and the ledger to plan with.
func (p *Plan) harvestAccountDir(s *stateInput, declared mcp.Servers, ledger *shared.Ledger, need bool) ([]byte, *shared.Ledger, error) {
	a := s.in.Account
	path := filepath.Join(a.Dir, ".claude.json")
	rf := s.record(filepath.Join(a.Dir, ManagedFile))
	stamp := stampOf(path)
	if ledger != nil && !need && rf.r.Stamp == stamp {
		return nil, ledger, nil
	}
	acct, release, err := mapOptional(path)
	p.releases = append(p.releases, release)
	if err != nil {
		return nil, nil, err
	}
	fix := "fix the JSON by hand or restore it from " + filepath.Join(a.Dir, "backups")
	err = fsx.Guard(path, func() error {
		doc, err := coalesce.Scan(acct)
		if err != nil {
			return fileError(path, err, fix)
		}
		raw, _, err := doc.Lookup("mcpServers")
		if err != nil {
			return fileError(path, err, fix)
		}
		inAcct, err := mcp.ParseClaudes(raw, path)
		if err != nil {
			return fmt.Errorf("%w; %s (nothing was changed)", err, fix)
		}
		names := accountKeyNames(a)
		have, err := lookupKeys(doc.Lookup, names)
		if err != nil {
			return fileError(path, err, fix)
		}
		if ledger == nil {
			// The account's first ledger: the servers its own .claude.json
			// holds beyond the declared ones are Claude's.
			ledger = shared.Bootstrap(declared, inAcct)
		} else {
			res := shared.Reconcile(shared.Input{Ledger: ledger, Declared: declared, Current: inAcct, Seen: rf.r.Servers, File: path})
			ledger = res.Ledger
		}
		ledger.HarvestKeys(names, have, rf.r.AccountKeys)
		// What the account dir holds now is seen; the declared servers are
		// put back there by the next launch outside git, not by this one.
		seen := shared.SeenOf(inAcct)
		for _, d := range declared {
			if before, ok := rf.r.Servers[d.Name]; ok {
				seen[d.Name] = before
			} else {
				delete(seen, d.Name)
			}
		}
		rf.r.Servers, rf.r.AccountKeys, rf.r.Stamp = seen, have, stamp
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return acct, ledger, nil
}

// lookupKeys reads the top-level keys names of a document.
func lookupKeys(lookup func(string) ([]byte, bool, error), names []string) (map[string]json.RawMessage, error) {
	have := map[string]json.RawMessage{}
	for _, k := range names {
		raw, ok, err := lookup(k)
		if err != nil {
			return nil, err
		}
		if ok {
			have[k] = json.RawMessage(raw)
		}
	}
	return have, nil
}

// declaredServers are the servers the account declares in its .mcp.json;
// none when it has no such file.
func declaredServers(a *account.Account) (mcp.Servers, error) {
	path := filepath.Join(a.DeclaredDir(), ".mcp.json")
	data, err := readOptional(path)
	if err != nil {
		return nil, err
	}
	servers, err := mcp.Parse(data, path)
	if err != nil {
		return nil, fmt.Errorf("%w; fix the account's MCP servers (nothing was changed)", err)
	}
	return servers, nil
}

// RepositoryRoot is the path Claude keys a repository's trust and memory by:
// the main worktree's root, for the main worktree and every linked one.
func RepositoryRoot(ctx gitctx.Context) string {
	if ctx.Kind == gitctx.Linked && filepath.Base(ctx.CommonDir) == ".git" {
		return filepath.Dir(ctx.CommonDir)
	}
	return ctx.Toplevel
}

// trustPaths are the project paths under which the Claude in use looks up
// the trust dialog's answer: the repository's root from 2.1.63
// (claudever.TrustPerRepository), each worktree's own before; both for a
// release nothing could tell (an entry the other releases do not read is
// harmless). The ledger records it per repository (RepositoryRoot) either way.
func trustPaths(in Input) []string {
	root := RepositoryRoot(in.Context)
	switch {
	case !in.Claude.Known && root != in.Context.Toplevel:
		return []string{root, in.Context.Toplevel}
	case in.Claude.Has(claudever.TrustPerRepository):
		return []string{root}
	}
	return []string{in.Context.Toplevel}
}

// trustKey puts the repository's trust into a runtime that lacks it, once:
// the repository owns its trust, as Claude keeps it for every worktree of
// one config dir. It returns the "projects" key to splice, or nil. Only the
// entries of trustPaths change; "projects" (often most of a large file) is
// scanned and copied once per runtime, never decoded.
func (p *Plan) trustKey(in Input, cur []byte, l *shared.Ledger, rf *recordFile) (*coalesce.Key, error) {
	if !p.IsRuntime || rf.r.TrustSeeded || !l.IsTrusted(RepositoryRoot(in.Context)) {
		return nil, nil
	}
	rf.r.TrustSeeded = true
	projects, _, err := coalesce.Lookup(cur, "projects")
	if err != nil {
		return nil, err
	}
	changed := false
	for _, root := range trustPaths(in) {
		if v, ok, err := coalesce.Path(cur, "projects", root, "hasTrustDialogAccepted"); err != nil {
			return nil, err
		} else if ok && string(v) == "true" {
			continue
		}
		entry, _, err := coalesce.Lookup(projects, root)
		if err != nil {
			entry = nil // not an object: Claude's entry is replaced by a sound one
		}
		if len(bytes.TrimSpace(entry)) == 0 || entry[0] != '{' {
			entry = []byte("{}")
		}
		if entry, _, err = coalesce.Splice(entry, []coalesce.Key{{Name: "hasTrustDialogAccepted", Raw: []byte("true")}}); err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(projects)) == 0 || projects[0] != '{' {
			projects = []byte("{}")
		}
		if projects, _, err = coalesce.Splice(projects, []coalesce.Key{{Name: root, Raw: entry}}); err != nil {
			return nil, err
		}
		changed = true
	}
	if !changed {
		return nil, nil
	}
	return &coalesce.Key{Name: "projects", Raw: projects}, nil
}

// overlay is the trusted project overlay's servers; an overlay that is not
// trusted is reported and skipped.
func (p *Plan) overlay(in Input) mcp.Servers {
	if in.Context.Toplevel == "" || in.Account.Config.ProjectMCP != account.ProjectMCPTrusted {
		return nil
	}
	overlayPath := filepath.Join(in.Context.Toplevel, OverlayRel)
	overlay, err := trust.ReadOverlay(overlayPath)
	if err != nil {
		p.Notes = append(p.Notes, fmt.Sprintf("%v; its servers are not loaded", err))
		return nil
	}
	if overlay == nil {
		return nil
	}
	st, err := in.Trust.Check(overlayPath, overlay)
	if err != nil {
		// A damaged or planted trust store approves nothing; the launch goes on.
		p.Notes = append(p.Notes, fmt.Sprintf("%v; the servers of %s are not loaded", err, overlayPath))
		return nil
	}
	switch st {
	case trust.Untrusted:
		p.Notes = append(p.Notes, fmt.Sprintf("%s is not trusted, so its servers are not loaded; review it, then run 'claude-account trust %s'", overlayPath, env.ShellQuote(overlayPath)))
		return nil
	case trust.Changed:
		p.Notes = append(p.Notes, fmt.Sprintf("%s changed since you trusted it, so its servers are not loaded; review it, then run 'claude-account trust %s'", overlayPath, env.ShellQuote(overlayPath)))
		return nil
	}
	servers, err := mcp.Parse(overlay, overlayPath)
	if err != nil {
		p.Notes = append(p.Notes, fmt.Sprintf("%v; its servers are not loaded", err))
		return nil
	}
	return servers
}

// dedupe keeps the first key of each name: managed values win over seeds.
func dedupe(keys []coalesce.Key) []coalesce.Key {
	seen := make(map[string]bool, len(keys))
	out := keys[:0:0]
	for _, k := range keys {
		if !seen[k.Name] {
			seen[k.Name] = true
			out = append(out, k)
		}
	}
	return out
}

func isSymlink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// withoutLauncherEntries removes from settings what an earlier version of
// the launcher wrote there for itself, and nothing else: a statusLine whose
// command is '<path>/claude…' statusline, and the WorktreeCreate and
// WorktreeRemove hooks whose command is '<path>/claude…' hook
// worktree-create|worktree-remove …. removed names what went ("" for none).
// Every other key and hook is kept as it is, byte for byte.
func withoutLauncherEntries(settings []byte) (out []byte, removed string, err error) {
	if len(bytes.TrimSpace(settings)) == 0 {
		return settings, "", nil
	}
	var keys []coalesce.Key
	var what []string
	if raw, ok, err := coalesce.Lookup(settings, "statusLine"); err != nil {
		return nil, "", err
	} else if ok {
		var line struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(raw, &line) == nil && launcherCommand(line.Command, "statusline") {
			keys = append(keys, coalesce.Key{Name: "statusLine"})
			what = append(what, "status line")
		}
	}
	if raw, ok, err := coalesce.Lookup(settings, "hooks"); err != nil {
		return nil, "", err
	} else if ok && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		hooks, changed, err := withoutLauncherHooks(raw)
		if err != nil {
			return nil, "", err
		}
		if changed {
			if isEmptyObject(hooks) {
				hooks = nil // there were only ours
			}
			keys = append(keys, coalesce.Key{Name: "hooks", Raw: hooks})
			what = append(what, "worktree hooks")
		}
	}
	if len(keys) == 0 {
		return settings, "", nil
	}
	out, _, err = coalesce.Splice(settings, keys)
	return out, strings.Join(what, " and "), err
}

// withoutLauncherHooks removes the launcher's own WorktreeCreate and
// WorktreeRemove hooks from a hooks object, keeping every other byte.
func withoutLauncherHooks(hooks []byte) ([]byte, bool, error) {
	var keys []coalesce.Key
	for event, verb := range map[string]string{"WorktreeCreate": "hook worktree-create", "WorktreeRemove": "hook worktree-remove"} {
		raw, ok, err := coalesce.Lookup(hooks, event)
		if err != nil || !ok {
			continue
		}
		var groups []map[string]json.RawMessage
		if json.Unmarshal(raw, &groups) != nil {
			continue // not the shape we wrote: not ours
		}
		var kept []map[string]json.RawMessage
		dropped := false
		for _, g := range groups {
			var entries []json.RawMessage
			if json.Unmarshal(g["hooks"], &entries) != nil {
				kept = append(kept, g)
				continue
			}
			var left []json.RawMessage
			for _, e := range entries {
				var h struct {
					Command string `json:"command"`
				}
				if json.Unmarshal(e, &h) == nil && launcherCommand(h.Command, verb) {
					dropped = true
					continue
				}
				left = append(left, e)
			}
			if len(left) == 0 && len(entries) > 0 {
				continue
			}
			if len(left) != len(entries) {
				g["hooks"], _ = json.Marshal(left)
			}
			kept = append(kept, g)
		}
		if !dropped {
			continue
		}
		var v []byte
		if len(kept) > 0 {
			v, _ = json.Marshal(kept)
		}
		keys = append(keys, coalesce.Key{Name: event, Raw: v})
	}
	if len(keys) == 0 {
		return hooks, false, nil
	}
	out, _, err := coalesce.Splice(hooks, keys)
	return out, true, err
}

// isEmptyObject reports whether raw is {} (spaces aside).
func isEmptyObject(raw []byte) bool {
	t := bytes.TrimSpace(raw)
	return len(t) >= 2 && t[0] == '{' && len(bytes.TrimSpace(t[1:len(t)-1])) == 0
}

// launcherCommand reports whether command is '<absolute path>' verb… as an
// earlier launcher wrote it: its own path, single-quoted for sh, to a binary
// named claude-account or claude<name>, then verb, then nothing or arguments.
func launcherCommand(command, verb string) bool {
	path, rest, ok := unquote(command)
	if !ok || !filepath.IsAbs(path) || !strings.HasPrefix(filepath.Base(path), "claude") {
		return false
	}
	rest, ok = strings.CutPrefix(rest, " "+verb)
	return ok && (rest == "" || strings.HasPrefix(rest, " "))
}

// unquote reads one sh word quoted as the launcher quoted its path (in
// single quotes, each quote inside written as quote, backslash-quote, quote)
// from the start of s.
func unquote(s string) (word, rest string, ok bool) {
	if !strings.HasPrefix(s, "'") {
		return "", "", false
	}
	var b strings.Builder
	s = s[1:]
	for {
		i := strings.IndexByte(s, '\'')
		if i < 0 {
			return "", "", false
		}
		b.WriteString(s[:i])
		s = s[i+1:]
		if !strings.HasPrefix(s, `\''`) {
			return b.String(), s, true
		}
		b.WriteByte('\'')
		s = s[3:]
	}
}
