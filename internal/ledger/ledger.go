// Package ledger keeps what an account shares between all of its config dirs
// (the account dir and every worktree's runtime), beyond what links and
// environment variables share: the MCP servers Claude added ('claude mcp add
// -s user'), the names of the servers the account declared, and the
// repositories whose trust dialog was accepted.
//
// Claude keeps all of this in the one .claude.json of its config dir. A
// runtime has a .claude.json of its own (its history and sessions are the
// worktree's), so the launcher carries these across: it harvests what Claude
// changed in one config dir into the account's ledger, and puts the ledger's
// servers and trust into every config dir it launches. Ownership is per
// server name, as settings.json's is per key: the account owns the servers it
// declares; Claude owns the rest.
package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"sort"

	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/mcp"
	"github.com/tidwall/gjson"
)

// FileName is the ledger's file in the account dir. It can hold servers'
// secrets (env values, headers), so it is written 0600.
const FileName = ".claude-account-shared.json"

// Ledger is the account's shared state.
type Ledger struct {
	// Declared are the names of the servers the account declared when the
	// ledger was last written: a name dropped from the declaration is then
	// removed everywhere, not mistaken for one Claude added.
	Declared []string `json:"declaredServers"`
	// Added are the servers Claude added or changed, by name: the account's,
	// for every config dir.
	Added map[string]json.RawMessage `json:"addedServers"`
	// Trusted are the repositories (their main worktree's root, as Claude
	// keys them) whose "trust this folder" dialog was accepted.
	Trusted []string `json:"trustedRepositories"`
	// AccountKeys are the account's own top-level keys of .claude.json
	// (identity, onboarding, preferences: configdir.AccountKeys) with their
	// latest values: what Claude last wrote in any config dir of the account.
	// A key missing here is missing everywhere.
	AccountKeys map[string]json.RawMessage `json:"accountKeys,omitempty"`
}

// Path is the ledger of the account in accountDir.
func Path(accountDir string) string { return filepath.Join(accountDir, FileName) }

// Read loads the ledger; (nil, nil) when there is none yet.
func Read(path string) (*Ledger, error) {
	data, err := fsx.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := coalesce.Validate(data); err != nil {
		var se *coalesce.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%s:%d:%d: %s; fix it or remove it (the launcher rebuilds it from the account's .claude.json)", path, se.Line, se.Column, se.Msg)
		}
		return nil, fmt.Errorf("%s: %v; fix it or remove it (the launcher rebuilds it from the account's .claude.json)", path, err)
	}
	// gjson, not encoding/json: no reflection on the launch path.
	doc := gjson.ParseBytes(data)
	l := &Ledger{Added: map[string]json.RawMessage{}}
	for _, v := range doc.Get("declaredServers").Array() {
		l.Declared = append(l.Declared, v.String())
	}
	for _, v := range doc.Get("trustedRepositories").Array() {
		l.Trusted = append(l.Trusted, v.String())
	}
	added := doc.Get("addedServers")
	if added.Exists() && !added.IsObject() && added.Type != gjson.Null {
		return nil, fmt.Errorf(`%s: "addedServers" is not an object; fix it or remove it (the launcher rebuilds it from the account's .claude.json)`, path)
	}
	added.ForEach(func(k, v gjson.Result) bool {
		if v.IsObject() {
			l.Added[k.String()] = json.RawMessage(v.Raw)
		}
		return true
	})
	if keys := doc.Get("accountKeys"); keys.IsObject() {
		l.AccountKeys = map[string]json.RawMessage{}
		keys.ForEach(func(k, v gjson.Result) bool {
			l.AccountKeys[k.String()] = json.RawMessage(v.Raw)
			return true
		})
	}
	// A ledger from before the API-key answers were an account key kept
	// them beside the others: they are the account's value until Claude
	// writes a newer one.
	if r := doc.Get("customApiKeyResponses"); r.IsObject() {
		if _, ok := l.AccountKeys["customApiKeyResponses"]; !ok {
			if l.AccountKeys == nil {
				l.AccountKeys = map[string]json.RawMessage{}
			}
			l.AccountKeys["customApiKeyResponses"] = json.RawMessage(r.Raw)
		}
	}
	return l, nil
}

// Encode is the ledger's file content: stable, so an unchanged ledger is
// never rewritten.
func (l *Ledger) Encode() []byte {
	c := *l
	if c.Declared == nil {
		c.Declared = []string{}
	}
	if c.Added == nil {
		c.Added = map[string]json.RawMessage{}
	}
	if c.Trusted == nil {
		c.Trusted = []string{}
	}
	data, _ := json.MarshalIndent(c, "", "  ") // maps encode sorted
	return append(data, '\n')
}

// IsTrusted reports whether the repository rooted at root was trusted.
func (l *Ledger) IsTrusted(root string) bool {
	return l != nil && root != "" && slices.Contains(l.Trusted, root)
}

// Seen is what a config dir's .claude.json held when the launcher last wrote
// or read it: its servers by name, so that a later difference is known to be
// Claude's.
type Seen map[string]json.RawMessage

// Input is one reconciliation of a config dir with the account.
type Input struct {
	Ledger   *Ledger     // the account's; nil: none yet (Bootstrap makes one)
	Rebuilt  bool        // no ledger was on disk (Ledger is Bootstrap's or nil): a server missing from it was never recorded, not removed
	Declared mcp.Servers // the account's declared servers, enforced
	Overlay  mcp.Servers // the trusted project overlay's servers, this workspace only
	Current  mcp.Servers // the config dir's .claude.json mcpServers now
	Seen     Seen        // nil: the config dir predates the record (an earlier version made it)
	File     string      // the config dir's .claude.json, for notes
}

// Result is what a reconciliation decided.
type Result struct {
	Ledger  *Ledger     // the account's ledger after harvesting
	Servers mcp.Servers // what the config dir's mcpServers must hold
	Notes   []string    // one line for each server removed or restored
}

// Bootstrap makes the first ledger of an account from the servers its own
// .claude.json holds: those it does not declare were added by Claude.
func Bootstrap(declared, inAccount mcp.Servers) *Ledger {
	l := &Ledger{Added: map[string]json.RawMessage{}}
	names := nameSet(declared)
	for _, s := range inAccount {
		if !names[s.Name] {
			l.Added[s.Name] = s.Raw
		}
	}
	return l
}

// Reconcile harvests what Claude changed in a config dir since the launcher
// last saw it into the ledger, and says what the config dir's servers must be:
// the declared ones, the ones Claude added (in any config dir of the account)
// and the overlay's, the overlay winning by name in this workspace only.
func Reconcile(in Input) Result {
	l := in.Ledger
	if l == nil {
		l = &Ledger{}
	}
	next := &Ledger{Declared: in.Declared.Names(), Added: make(map[string]json.RawMessage, len(l.Added)), Trusted: slices.Clone(l.Trusted),
		AccountKeys: maps.Clone(l.AccountKeys)}
	for k, v := range l.Added {
		next.Added[k] = v
	}
	declared, overlay := nameSet(in.Declared), nameSet(in.Overlay)
	wasDeclared := nameSet(nil)
	for _, n := range l.Declared {
		wasDeclared[n] = true
	}
	current := byName(in.Current)
	seen := in.Seen
	if seen == nil {
		// An earlier version replaced the whole set at every launch: what is
		// there beyond the declared and the overlay was added by Claude since.
		seen = Seen{}
		for _, s := range in.Current {
			if declared[s.Name] || overlay[s.Name] || wasDeclared[s.Name] {
				seen[s.Name] = s.Raw
			}
		}
	}
	var notes []string
	owned := func(name string) bool { return declared[name] || overlay[name] }
	for _, s := range in.Current {
		if owned(s.Name) {
			continue
		}
		if before, ok := seen[s.Name]; !ok || !coalesce.Equal(before, s.Raw) {
			next.Added[s.Name] = s.Raw // Claude added or changed it here
		} else if _, known := next.Added[s.Name]; !known && in.Rebuilt {
			// The ledger that recorded it is gone (removed after a parse
			// error, as the error advises): keep the server rather than
			// read its absence as a removal in another config dir.
			next.Added[s.Name] = s.Raw
		}
	}
	for name, before := range seen {
		if _, still := current[name]; still || owned(name) {
			continue
		}
		// Claude removed it here ('claude mcp remove'): gone everywhere,
		// unless another config dir changed it since.
		if v, ok := next.Added[name]; ok && coalesce.Equal(v, before) {
			delete(next.Added, name)
		}
	}
	for _, name := range in.Declared.Names() {
		delete(next.Added, name) // declared wins; not kept as Claude's
	}

	var want mcp.Servers
	want = append(want, in.Declared...)
	for _, name := range sortedKeys(next.Added) {
		want = append(want, mcp.Server{Name: name, Raw: next.Added[name]})
	}
	want = mcp.Merge(want, in.Overlay)

	wanted := byName(want)
	for _, s := range in.Current {
		if _, ok := wanted[s.Name]; ok {
			continue
		}
		switch {
		case wasDeclared[s.Name]:
			notes = append(notes, fmt.Sprintf("removed MCP server %q from %s: the account no longer declares it", s.Name, in.File))
		default:
			// Claude removed it in another config dir of the account, or
			// it came from a project overlay that is no longer loaded.
			notes = append(notes, fmt.Sprintf("removed MCP server %q from %s: it was removed in another config dir of the account, or its project overlay is no longer loaded", s.Name, in.File))
		}
	}
	for _, s := range in.Declared {
		before, wasSeen := in.Seen[s.Name]
		if cur, ok := current[s.Name]; wasSeen && (!ok || !coalesce.Equal(cur, before)) {
			notes = append(notes, fmt.Sprintf("restored MCP server %q in %s: the account declares it", s.Name, in.File))
		}
	}
	return Result{Ledger: next, Servers: want, Notes: notes}
}

// SeenOf records servers as written.
func SeenOf(servers mcp.Servers) Seen {
	s := make(Seen, len(servers))
	for _, srv := range servers {
		s[srv.Name] = srv.Raw
	}
	return s
}

// Same reports whether two ledgers hold the same state.
func Same(a, b *Ledger) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !slices.Equal(a.Declared, b.Declared) || !slices.Equal(a.Trusted, b.Trusted) || len(a.Added) != len(b.Added) {
		return false
	}
	for name, v := range a.Added {
		if w, ok := b.Added[name]; !ok || !coalesce.Equal(v, w) {
			return false
		}
	}
	return sameValues(a.AccountKeys, b.AccountKeys)
}

func sameValues(a, b map[string]json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !coalesce.Equal(v, w) {
			return false
		}
	}
	return true
}

// HarvestKeys records in the ledger what Claude changed in a config dir's
// account keys (names) since the launcher last saw them there (seen): a
// key set or changed takes its new value, a key removed is removed. With
// seen nil (a config dir the launcher has not seen these keys in: an
// earlier version's, or the account dir before its first launch) nothing
// can be told changed: the config dir only fills in keys the ledger lacks,
// so adopting the launcher loses none of them. Each harvest overwrites:
// when two config dirs changed one key, the later harvest (the later exit)
// wins.
func (l *Ledger) HarvestKeys(names []string, current, seen map[string]json.RawMessage) {
	if l.AccountKeys == nil {
		l.AccountKeys = map[string]json.RawMessage{}
	}
	for _, k := range names {
		c, inCur := current[k]
		if seen == nil {
			if _, known := l.AccountKeys[k]; inCur && !known {
				l.AccountKeys[k] = c
			}
			continue
		}
		s, wasSeen := seen[k]
		switch {
		case inCur && !wasSeen:
			// A key this config dir's record never saw (one the launcher
			// came to share after the record was made, as the API-key
			// answers did) fills a gap only: otherwise every worktree's
			// first launch would make its own old value the account's.
			if _, known := l.AccountKeys[k]; !known {
				l.AccountKeys[k] = c
			}
		case inCur && !coalesce.Equal(c, s):
			l.AccountKeys[k] = c
		case !inCur && wasSeen:
			delete(l.AccountKeys, k)
		}
	}
}

func nameSet(s mcp.Servers) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, srv := range s {
		m[srv.Name] = true
	}
	return m
}

func byName(s mcp.Servers) map[string]json.RawMessage {
	m := make(map[string]json.RawMessage, len(s))
	for _, srv := range s {
		m[srv.Name] = srv.Raw
	}
	return m
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
