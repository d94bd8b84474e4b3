package account

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/ledger"
)

// Identity is who a subscription account must be logged in as: [identity]
// in account.toml, programs.claude-code.accounts.<name>.identity in Nix.
// A config dir can hold another login than the account's name says (a
// browser's stale tab at /login), and nothing else tells before the invoice.
//
// Email matches the address Claude recorded for the login; Organization
// matches the organization's uuid or its name as Claude recorded them. Both
// ignore case (addresses and uuids are not case-sensitive, and a name
// typed by hand should not fail on its case). Either may be empty; an empty
// Identity declares nothing, and nothing is checked.
type Identity struct {
	Email        string `toml:"email,omitempty" json:"email,omitempty"`
	Organization string `toml:"organization,omitempty" json:"organization,omitempty"`
}

// Declared reports whether the account declares who it must be.
func (i *Identity) Declared() bool { return i != nil && (i.Email != "" || i.Organization != "") }

// String names the declared identity in messages: "me@example.com of Acme".
func (i *Identity) String() string {
	if !i.Declared() {
		return "anyone"
	}
	switch {
	case i.Email == "":
		return "organization " + i.Organization
	case i.Organization == "":
		return i.Email
	}
	return i.Email + " of organization " + i.Organization
}

// check validates a declared identity; path names account.toml in errors.
func (i *Identity) check(path string) error {
	if i == nil {
		return nil
	}
	if key, problem := i.Problem(); problem != "" {
		if key == "" {
			return fmt.Errorf("%s: [identity] %s", path, problem)
		}
		return fmt.Errorf("%s: [identity] %s = %q %s", path, key, i.field(key), problem)
	}
	return nil
}

func (i *Identity) field(key string) string {
	if key == "email" {
		return i.Email
	}
	return i.Organization
}

// Problem is what is wrong with a declared identity, for account.toml and
// the Nix declaration alike: the key ("email", "organization"; "" for the
// whole) and the problem with its fix; "" when nothing is.
func (i *Identity) Problem() (key, problem string) {
	if i.Email == "" && i.Organization == "" {
		return "", "declares nothing; name email = \"you@example.com\" and/or organization = \"…\" (its name or uuid), or remove the table"
	}
	if e := i.Email; e != "" && (!strings.Contains(e, "@") || strings.ContainsAny(e, " \t\r\n") || strings.TrimSpace(e) != e) {
		return "email", "is not an email address; write the address the account logs in with"
	}
	if o := i.Organization; o != "" && (strings.TrimSpace(o) != o || strings.ContainsAny(o, "\r\n")) {
		return "organization", "has surrounding spaces or a line break; write the organization's name or uuid as Claude shows it"
	}
	return "", ""
}

// EmptyProblem is the problem of an [identity] key ("email",
// "organization") set to "": one rule for account.toml, the Nix option and
// its spec. Unset (null in Nix) is unset; "" is a mistake, never read as
// "anyone" (an email = "" beside an organization would check less than it
// seems to).
func EmptyProblem(key string) string {
	if key == "email" {
		return "is empty; write the address the account logs in with, or leave the key out"
	}
	return "is empty; write the organization's name or uuid as Claude shows it, or leave the key out"
}

// Recorded is the identity of the login a config dir holds, as Claude
// recorded it when it logged in: the oauthAccount object of its
// .claude.json. Every field is "" where Claude recorded none:
// organizationName comes from a second request after the login (the
// organization's roles), which can fail on its own.
type Recorded struct {
	Email            string `json:"email,omitempty"`
	OrganizationName string `json:"organizationName,omitempty"`
	OrganizationUUID string `json:"organizationUuid,omitempty"`
	AccountUUID      string `json:"accountUuid,omitempty"`
	DisplayName      string `json:"displayName,omitempty"`
	// APIKey: the config dir holds an API key Claude keeps itself (a
	// Console login's primaryApiKey), which bills no subscription.
	APIKey bool `json:"-"`
	// Rejected and Approved are the answers to "Do you want to use this
	// API key?" (customApiKeyResponses: each key's last 20 characters).
	// An interactive session uses a key in the environment only once
	// approved; declined, the login bills (measured on 2.1.332).
	Rejected, Approved []string `json:"-"`
}

// Known reports whether Claude recorded anything to check against.
func (r Recorded) Known() bool {
	return r.Email != "" || r.OrganizationName != "" || r.OrganizationUUID != ""
}

// String names the recorded identity in messages.
func (r Recorded) String() string {
	if !r.Known() {
		return "nobody recorded"
	}
	who := r.Email
	org := r.OrganizationName
	if org == "" {
		org = r.OrganizationUUID
	} else if r.OrganizationUUID != "" {
		org += " (" + r.OrganizationUUID + ")"
	}
	switch {
	case who == "":
		return "organization " + org
	case org == "":
		return who
	}
	return who + " of organization " + org
}

// ClaudeJSON is Claude's state file in a config dir, where it records who
// is logged in.
const ClaudeJSON = ".claude.json"

// maxClaudeJSON bounds what is read to find the identity: .claude.json
// grows with its projects history (100 MB is real), and it is mapped, not
// read, so the bound only refuses what is surely no state file of Claude's.
const maxClaudeJSON = 1 << 30

// ReadRecorded reads the identity Claude recorded for the account in dir,
// as the next launch would plan it: the latest Claude wrote in any of the
// account's config dirs, which the launcher keeps in the account's ledger
// (accountKeys: a login made in a worktree is the account's from then on),
// unless the account dir's own .claude.json changed since the launcher last
// took it in (a login made with plain 'CLAUDE_CONFIG_DIR=~/.claude-max claude
// /login'): the launch takes that change into the ledger first, so it is
// the login the session bills (plannedKeys). Before any launch kept a
// ledger, the account dir's .claude.json alone. A missing file, or one
// without oauthAccount, is no identity and no error; a file that is no
// regular file, or that is no JSON, is an error (Claude itself refuses to
// start on it). Nothing is written.
func ReadRecorded(dir string) (Recorded, error) {
	data, err := fsx.ReadFileNoFollow(filepath.Join(dir, ledger.FileName), 64<<20)
	if err != nil {
		return readClaudeJSON(dir)
	}
	keys := gjson.GetBytes(data, "accountKeys")
	if !keys.IsObject() {
		return readClaudeJSON(dir)
	}
	book := map[string]json.RawMessage{}
	for _, k := range identityKeys {
		if raw, ok := coalesce.Get([]byte(keys.Raw), k); ok {
			book[k] = raw
		}
	}
	planned, err := plannedKeys(dir, book)
	if err != nil {
		return Recorded{}, err
	}
	doc, _ := json.Marshal(planned)
	r, _ := ParseRecorded(doc)
	return r, nil
}

// identityKeys are the account keys of .claude.json that say who bills:
// the OAuth login's account, a Console login's key, and the answers about
// a key in the environment (declined, the login bills).
var identityKeys = []string{"oauthAccount", "primaryApiKey", "customApiKeyResponses"}

// plannedKeys is what the launcher's harvest of the account dir
// (configdir.harvestAccountDir, ledger.HarvestKeys) would make of the
// ledger's identity keys (book): unchanged while the account dir's
// .claude.json is the version its record stamped (stateStamp), else with
// what Claude changed there since the record saw it.
func plannedKeys(dir string, book map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	path := filepath.Join(dir, ClaudeJSON)
	rec, _ := fsx.ReadFileNoFollow(filepath.Join(dir, recordFile), 64<<20)
	doc := gjson.ParseBytes(rec)
	if st := doc.Get("stateStamp"); st.IsObject() && stampOf(path) == [3]int64{st.Get("ino").Int(), st.Get("size").Int(), st.Get("mtimeNs").Int()} {
		return book, nil
	}
	if !doc.Get("stateStamp").Exists() && stampOf(path) == [3]int64{} {
		return book, nil // no file, and none stamped: nothing changed
	}
	var seen map[string]json.RawMessage
	if s := doc.Get("accountKeys"); s.IsObject() {
		seen = map[string]json.RawMessage{}
		for _, k := range identityKeys {
			if raw, ok := coalesce.Get([]byte(s.Raw), k); ok {
				seen[k] = raw
			}
		}
	}
	cur, err := claudeJSONKeys(path)
	if err != nil {
		return nil, err
	}
	l := &ledger.Ledger{AccountKeys: book}
	l.HarvestKeys(identityKeys, cur, seen)
	return l.AccountKeys, nil
}

// recordFile is the launcher's record in a config dir (configdir.ManagedFile).
const recordFile = ".claude-account.json"

// stampOf is configdir.StateStamp's inode, size and mtime of path; zero
// when missing.
func stampOf(path string) [3]int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return [3]int64{}
	}
	st := [3]int64{0, fi.Size(), fi.ModTime().UnixNano()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st[0] = int64(sys.Ino)
	}
	return st
}

// claudeJSONKeys reads the identity keys of a .claude.json, as Claude's
// JSON.parse does (the last of a key given twice).
func claudeJSONKeys(path string) (map[string]json.RawMessage, error) {
	have := map[string]json.RawMessage{}
	err := withClaudeJSON(path, func(data []byte) error {
		for _, k := range identityKeys {
			raw, ok, err := coalesce.Lookup(data, k)
			if err != nil {
				return fmt.Errorf("%s is not valid JSON; Claude cannot start on it either (see 'claude-account doctor')", path)
			}
			if ok {
				have[k] = raw
			}
		}
		return nil
	})
	return have, err
}

// readClaudeJSON is ReadRecorded from the account dir's .claude.json.
func readClaudeJSON(dir string) (Recorded, error) {
	path := filepath.Join(dir, ClaudeJSON)
	var r Recorded
	err := withClaudeJSON(path, func(data []byte) error {
		var ok bool
		r, ok = ParseRecorded(data)
		if !ok {
			return fmt.Errorf("%s is not valid JSON; Claude cannot start on it either (see 'claude-account doctor')", path)
		}
		return nil
	})
	return r, err
}

// withClaudeJSON runs read on the bytes of the .claude.json at path,
// mapped, not read: it grows with its projects history. A missing or empty
// file runs nothing.
func withClaudeJSON(path string, read func([]byte) error) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is %s, not Claude's state file", path, fsx.Kind(fi.Mode()))
	case fi.Size() > maxClaudeJSON:
		return fmt.Errorf("%s is %d bytes, too large to be Claude's state file", path, fi.Size())
	case fi.Size() == 0:
		return nil
	}
	data, release, err := fsx.Map(path)
	if err != nil {
		return err
	}
	defer release()
	return fsx.Guard(path, func() error { return read(data) })
}

// ParseRecorded reads oauthAccount from the bytes of a .claude.json; ok is
// false when they are no JSON object. It reads as Claude's JSON.parse does:
// of a key given twice, the last (coalesce.Lookup; gjson would take the
// first, and check a login Claude does not use). Only the one value is
// looked at, never the whole file decoded: it may be 100 MB of history.
func ParseRecorded(data []byte) (r Recorded, ok bool) {
	// A byte-order mark, as an editor may leave, is not JSON's but Claude
	// reads past it.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return Recorded{}, false
	}
	raw, found, err := coalesce.Lookup(data, "oauthAccount")
	if err != nil {
		return Recorded{}, false
	}
	if answers, ok, _ := coalesce.Lookup(data, "customApiKeyResponses"); ok {
		r.Approved, r.Rejected = keyAnswers(answers, "approved"), keyAnswers(answers, "rejected")
	}
	acct := gjson.ParseBytes(raw)
	if !found || !acct.IsObject() {
		// The key of a Console login is looked for only where no account is.
		k, ok, _ := coalesce.Lookup(data, "primaryApiKey")
		v := gjson.ParseBytes(k)
		r.APIKey = ok && v.Type == gjson.String && v.Str != ""
		return r, true
	}
	str := func(key string) string {
		v, ok := coalesce.Get(raw, key)
		if !ok {
			return ""
		}
		if s := gjson.ParseBytes(v); s.Type == gjson.String {
			return strings.TrimSpace(s.Str)
		}
		return ""
	}
	r.Email, r.OrganizationName, r.OrganizationUUID = str("emailAddress"), str("organizationName"), str("organizationUuid")
	r.AccountUUID, r.DisplayName = str("accountUuid"), str("displayName")
	return r, true
}

// keyAnswers are the strings of customApiKeyResponses' list name.
func keyAnswers(answers []byte, name string) []string {
	list, ok := coalesce.Get(answers, name)
	if !ok {
		return nil
	}
	var out []string
	for _, v := range gjson.ParseBytes(list).Array() {
		if v.Type == gjson.String {
			out = append(out, v.Str)
		}
	}
	return out
}

// Verdict is what a declared identity says of a recorded one.
type Verdict string

const (
	NotDeclared Verdict = "not-declared" // the account declares nobody: nothing to check
	Matches     Verdict = "match"        // the login is the one declared
	Mismatch    Verdict = "mismatch"     // the login is someone else: a launch refuses
	Unknown     Verdict = "unknown"      // Claude recorded too little to tell (no login yet)
)

// Check compares the declared identity with the recorded one. Each declared
// field the record holds decides; one it cannot tell (Claude recorded no
// email, or an organization name was declared and Claude recorded only the
// uuid) leaves the verdict Unknown unless another field already differs.
func (i *Identity) Check(r Recorded) Verdict {
	if !i.Declared() {
		return NotDeclared
	}
	unknown := false
	if i.Email != "" {
		switch {
		case r.Email == "":
			unknown = true
		case !strings.EqualFold(r.Email, i.Email):
			return Mismatch
		}
	}
	if o := i.Organization; o != "" {
		switch {
		case strings.EqualFold(r.OrganizationUUID, o) || strings.EqualFold(r.OrganizationName, o):
		case r.OrganizationName != "" && r.OrganizationUUID != "":
			return Mismatch
		case looksLikeUUID(o) && r.OrganizationUUID != "":
			return Mismatch
		case !looksLikeUUID(o) && r.OrganizationName != "":
			return Mismatch
		default:
			unknown = true
		}
	}
	if unknown {
		return Unknown
	}
	return Matches
}

// looksLikeUUID reports whether s has the shape of a uuid (8-4-4-4-12 hex).
func looksLikeUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}
