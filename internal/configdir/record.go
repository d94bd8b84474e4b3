package configdir

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/ledger"
	"github.com/tidwall/gjson"
)

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
	Servers ledger.Seen `json:"mcpServers"`
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
	// InSync is this config dir's .claude.json as a launch last found it in
	// sync (SyncStamp): the next finds it so again without reading it.
	InSync SyncStamp `json:"inSync,omitzero"`
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
		rf.read.Servers = ledger.Seen{}
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
	if st := doc.Get("inSync"); st.IsObject() {
		rf.read.InSync = SyncStamp{Ino: st.Get("ino").Int(), Size: st.Get("size").Int(), MtimeNanos: st.Get("mtimeNs").Int(),
			CtimeNanos: st.Get("ctimeNs").Int(), Inputs: st.Get("inputs").String()}
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
	return !rf.ok || !slices.Equal(a.SettingsKeys, b.SettingsKeys) || a.Stamp != b.Stamp || a.InSync != b.InSync || !sameSeen(a, b)
}

// sameSeen reports whether two records saw the same of a .claude.json: its
// servers, the account's keys, the trust put in.
func sameSeen(a, b record) bool {
	if a.TrustSeeded != b.TrustSeeded ||
		(a.Servers == nil) != (b.Servers == nil) || len(a.Servers) != len(b.Servers) ||
		(a.AccountKeys == nil) != (b.AccountKeys == nil) || len(a.AccountKeys) != len(b.AccountKeys) {
		return false
	}
	for name, v := range b.AccountKeys {
		if w, ok := a.AccountKeys[name]; !ok || !coalesce.Equal(v, w) {
			return false
		}
	}
	for name, v := range b.Servers {
		if w, ok := a.Servers[name]; !ok || !coalesce.Equal(v, w) {
			return false
		}
	}
	return true
}

func (rf *recordFile) encode() []byte {
	data, _ := json.Marshal(rf.r) // small, and only when it changed
	return append(data, '\n')
}
