package configdir

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/ledger"
	"github.com/claude-account/claude-account/internal/mcp"
)

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
	fi, err := os.Lstat(state)
	if err == nil && !fi.Mode().IsRegular() {
		// Following it would copy whatever it points to (another account's
		// login) into this config dir.
		return fmt.Errorf("%s is %s, not a plain file; remove it (Claude and claude-account recreate it)", state, describe(state, fi))
	}
	if err != nil {
		fi = nil
	}
	declared, err := declaredServers(a)
	if err != nil {
		return err
	}
	ledgerPath := ledger.Path(a.Dir)
	book, err := ledger.Read(ledgerPath)
	if err != nil {
		return err
	}
	onDisk := book // nil: the account's first ledger is written now
	extra := a.ManagedKeys()[1:]
	var acct []byte
	if !inAccount {
		if acct, book, err = p.harvestAccountDir(s, declared, book, len(extra) > 0); err != nil {
			return err
		}
	}
	managed, err := managedKeys(acct, extra, filepath.Join(a.Dir, ".claude.json"), filepath.Join(a.Dir, "backups"))
	if err != nil {
		return err
	}
	rf := s.record(filepath.Join(p.ConfigDir, ManagedFile))
	facts := stateFacts{Path: state, Ledger: book, Rebuilt: onDisk == nil, Declared: declared,
		Overlay: p.overlay(in), Seen: rf.r, Names: accountKeyNames(a),
		// What changed here while no Claude the launcher started ran (an
		// archive extracted over the checkout) is not Claude's.
		Untrusted: !p.untouched(state) || !p.untouched(rf.path),
		Fix:       "fix the JSON by hand or restore it from " + filepath.Join(p.ConfigDir, "backups")}
	switch {
	case p.IsRuntime:
		facts.TrustRoot, facts.TrustPaths = RepositoryRoot(in.Context), trustPaths(in)
	case in.Trusting.Toplevel != "":
		// The account dir holds the trust of every repository its fleet
		// was started from, as plain Claude's one config dir does: each
		// is put in whenever the ledger has it, not once per config dir.
		facts.TrustRoot, facts.TrustPaths = RepositoryRoot(in.Trusting), trustPathsOf(in.Trusting, in.Claude)
		facts.EachTrust = true
	}
	inputs := func() string { return syncDigest(&facts, managed, p.ConfigDir) }
	if s.fresh {
		fi = nil // nothing of it is read: no stamp
	}
	if fi != nil {
		if rf.r.InSync.matches(fi, inputs) {
			// The file and everything the decision depends on are as a
			// launch found them in sync: it would decide the same.
			if !ledger.Same(onDisk, book) {
				p.Steps = append(p.Steps, Step{Op: Write, Path: ledgerPath, Data: book.Encode(), Secret: true, Why: "account's shared MCP servers, keys and trust"})
			}
			return nil
		}
		// Claude's state can be 100 MB: mapped, not read, and never decoded.
		cur, release, err := mapOptional(state)
		p.releases = append(p.releases, release)
		if err != nil {
			return err
		}
		facts.Cur = cur
		p.scanned++
	}
	var d stateDecision
	// Everything read from mapped memory is read inside Guard: a file cut
	// short under the mapping is an error, not a crash.
	err = fsx.Guard(state, func() (err error) {
		d, err = decideState(facts)
		return err
	})
	if err != nil {
		return err
	}
	p.Notes = append(p.Notes, d.Notes...)
	rf.r = d.Seen
	keys, next, doc := append(d.Keys, managed...), d.Ledger, d.Doc
	if !ledger.Same(onDisk, next) {
		p.Steps = append(p.Steps, Step{Op: Write, Path: ledgerPath, Data: next.Encode(), Secret: true, Why: "account's shared MCP servers, keys and trust"})
	}

	var pieces [][]byte
	var check func() error
	err = fsx.Guard(state, func() (err error) {
		pieces, check, err = doc.SplicePieces(dedupe(keys))
		return err
	})
	if err != nil {
		return fileError(state, err, facts.Fix)
	}
	p.stampInSync(rf, fi, inputs, inSync(&facts, d, pieces), in.Now)
	if pieces != nil {
		p.Steps = append(p.Steps, Step{Op: Write, Path: state, Pieces: pieces, Secret: true, Why: "account's MCP servers and keys",
			Check: func() error {
				if err := fsx.Guard(state, check); err != nil {
					return fileError(state, err, facts.Fix)
				}
				return nil
			}})
	}
	return nil
}

// managedKeys are the account dir's values of the managed keys names (a
// runtime's .claude.json holds them as the account's does); none when acct,
// the account dir's .claude.json, was not read.
func managedKeys(acct []byte, names []string, path, backups string) ([]coalesce.Key, error) {
	var keys []coalesce.Key
	err := fsx.Guard(path, func() error {
		for _, k := range names {
			raw, ok, err := coalesce.Lookup(acct, k)
			if err != nil {
				return fileError(path, err, "fix the JSON by hand or restore it from "+backups)
			}
			if ok {
				keys = append(keys, coalesce.Key{Name: k, Raw: raw})
			}
		}
		return nil
	})
	return keys, err
}

// stampInSync records in the config dir's record (rf) that its .claude.json
// (fi, as it was before it was read, after the clock read now) is in sync,
// when the decision left it and everything else as it was (same: inSync). Recording it costs a durable write
// of the record when nothing else changed there, so the stamp is written on
// its own only for a state whose scan costs more (stampAlone); a stamp that
// no longer holds is dropped when the record is written anyway.
func (p *Plan) stampInSync(rf *recordFile, fi fs.FileInfo, inputs func() string, same bool, now time.Time) {
	keep := rf.r.InSync
	rf.r.InSync = rf.read.InSync
	written := rf.changed() // for another reason
	rf.r.InSync = keep
	switch {
	case same && fi != nil && (fi.Size() >= stampAlone || written):
		rf.r.InSync = syncStampOf(fi, now, granularity(p.ConfigDir), inputs())
	case written:
		// It no longer matches the file, so it is harmless; dropped when
		// the record is written anyway.
		rf.r.InSync = SyncStamp{}
	}
}

// stampAlone is the size of a .claude.json from which scanning it costs
// more than writing the record durably (some 2 ms at the scan's 2 GB/s).
const stampAlone = 4 << 20

// stateFacts is everything the account's part of one config dir's
// .claude.json is decided from, read beforehand: decideState reads no file,
// so every case of it is a table test (state_test.go).
type stateFacts struct {
	Path string // the .claude.json, for messages
	Cur  []byte // its bytes (mapped); nil when it is missing or the config dir new
	Fix  string // what to do about a file that does not parse
	// Ledger is the account's ledger as the plan starts from it (the
	// account dir's changes taken in); Rebuilt: none was on disk.
	Ledger   *ledger.Ledger
	Rebuilt  bool
	Declared mcp.Servers // the account's .mcp.json
	Overlay  mcp.Servers // the workspace's trusted overlay
	// Seen is this config dir's record as read: the servers and account keys
	// the launcher last saw here, and whether the trust was put in.
	Seen record
	// Untrusted: the file or the record changed while no Claude the launcher
	// started ran here; what it holds is taken as seen, never as Claude's.
	Untrusted bool
	Names     []string // the account's keys (accountKeyNames)
	// TrustRoot is the repository whose trust this config dir shares (its
	// main worktree's root; "" outside a runtime), TrustPaths the project
	// paths the Claude in use looks the answer up under.
	TrustRoot  string
	TrustPaths []string
	// EachTrust: the config dir holds many repositories' trust (the
	// account dir's, for the fleet): TrustRoot's is put in whenever it is
	// missing, not once.
	EachTrust bool
}

// stateDecision is what decideState decided: the keys to splice into the
// config dir's .claude.json (a nil Raw removes one), the ledger after it,
// the record to keep, and notes for the user.
type stateDecision struct {
	Doc    *coalesce.Doc // Cur, scanned once: a large file is scanned once
	Keys   []coalesce.Key
	Ledger *ledger.Ledger
	Seen   record
	Notes  []string
}

// decideState reconciles the config dir's MCP servers and the account's keys
// with the ledger, both ways (ledger.Reconcile, HarvestKeys), and puts the
// repository's trust in once. Pinned by the TestDecideState tests and the
// testscripts sharing-mcp-servers, sharing-ledger-removed (servers, the
// ledger rebuilt), sharing-account-keys, coalesce-identity-seed (account
// keys), sharing-trust (trust), harden-launcher-killed-planted (what changed
// while no Claude ran is taken as seen) and coalesce-invalid-json (an invalid
// .claude.json stops the launch).
func decideState(f stateFacts) (stateDecision, error) {
	d := stateDecision{Seen: f.Seen}
	d.Seen.Servers = maps.Clone(f.Seen.Servers)
	var err error
	if d.Doc, err = coalesce.Scan(f.Cur); err != nil {
		return d, fileError(f.Path, err, f.Fix)
	}
	raw, _, err := d.Doc.Lookup("mcpServers")
	if err != nil {
		return d, fileError(f.Path, err, f.Fix)
	}
	current, err := mcp.ParseClaudes(raw, f.Path)
	if err != nil {
		return d, fmt.Errorf("%w; %s (nothing was changed)", err, f.Fix)
	}
	seen := f.Seen.Servers // nil: an earlier version made this config dir
	switch {
	case f.Cur == nil:
		seen = ledger.Seen{}
	case f.Untrusted:
		seen = ledger.SeenOf(current)
	}
	res := ledger.Reconcile(ledger.Input{Ledger: f.Ledger, Rebuilt: f.Rebuilt, Declared: f.Declared, Overlay: f.Overlay,
		Current: current, Seen: seen, File: f.Path})
	d.Notes = res.Notes
	d.Ledger = res.Ledger
	d.Seen.Servers = ledger.SeenOf(res.Servers)
	d.Keys = append(d.Keys, coalesce.Key{Name: "mcpServers", Raw: res.Servers.JSON()})

	have, err := lookupKeys(d.Doc.Lookup, f.Names)
	if err != nil {
		return d, fileError(f.Path, err, f.Fix)
	}
	seenKeys := f.Seen.AccountKeys // nil: not seen by this version yet
	switch {
	case f.Cur == nil:
		seenKeys = map[string]json.RawMessage{}
	case f.Untrusted:
		seenKeys = have
	}
	d.Ledger.HarvestKeys(f.Names, have, seenKeys)
	d.Seen.AccountKeys = map[string]json.RawMessage{}
	for _, k := range f.Names {
		v, ok := d.Ledger.AccountKeys[k]
		if ok {
			d.Seen.AccountKeys[k] = v
		}
		if h, had := have[k]; ok != had || ok && !coalesce.Equal(h, v) {
			d.Keys = append(d.Keys, coalesce.Key{Name: k, Raw: v}) // nil: removed
		}
	}

	if f.TrustRoot != "" && (f.EachTrust || !d.Seen.TrustSeeded) && d.Ledger.IsTrusted(f.TrustRoot) {
		if !f.EachTrust {
			d.Seen.TrustSeeded = true
		}
		key, err := trustKey(f.Cur, f.TrustPaths)
		if err != nil {
			return d, fileError(f.Path, err, f.Fix)
		}
		if key != nil {
			d.Keys = append(d.Keys, *key)
		}
	}
	return d, nil
}
