package account

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

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

// ReadRecorded reads the identity Claude recorded for the account in dir:
// the latest Claude wrote in any of the account's config dirs, which the
// launcher keeps in the account's ledger (accountKeys: a login made in a
// worktree is the account's from then on, and goes into every config dir at
// the next launch), else, before any launch kept it there, the account dir's
// own .claude.json. A missing file, or one without oauthAccount, is no
// identity and no error; a file that is no regular file, or that is no
// JSON, is an error (Claude itself refuses to start on it).
func ReadRecorded(dir string) (Recorded, error) {
	if data, err := fsx.ReadFileNoFollow(filepath.Join(dir, ledger.FileName), 64<<20); err == nil {
		if keys := gjson.GetBytes(data, "accountKeys"); keys.IsObject() {
			r, _ := ParseRecorded([]byte(keys.Raw))
			return r, nil
		}
	}
	return readClaudeJSON(dir)
}

// readClaudeJSON is ReadRecorded from the account dir's .claude.json.
func readClaudeJSON(dir string) (Recorded, error) {
	path := filepath.Join(dir, ClaudeJSON)
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Recorded{}, nil
	case err != nil:
		return Recorded{}, err
	case !fi.Mode().IsRegular():
		return Recorded{}, fmt.Errorf("%s is %s, not Claude's state file", path, fsx.Kind(fi.Mode()))
	case fi.Size() > maxClaudeJSON:
		return Recorded{}, fmt.Errorf("%s is %d bytes, too large to be Claude's state file", path, fi.Size())
	case fi.Size() == 0:
		return Recorded{}, nil
	}
	data, release, err := fsx.Map(path)
	if err != nil {
		return Recorded{}, err
	}
	defer release()
	var r Recorded
	err = fsx.Guard(path, func() error {
		var ok bool
		r, ok = ParseRecorded(data)
		if !ok {
			return fmt.Errorf("%s is not valid JSON; Claude cannot start on it either (see 'claude-account doctor')", path)
		}
		return nil
	})
	return r, err
}

// ParseRecorded reads oauthAccount from the bytes of a .claude.json; ok is
// false when they are no JSON object. Only the one value is looked at
// (gjson), never the whole file decoded: it may be 100 MB of history.
func ParseRecorded(data []byte) (r Recorded, ok bool) {
	// A byte-order mark, as an editor may leave, is not JSON's but Claude
	// reads past it.
	top := gjson.ParseBytes(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if !top.IsObject() {
		return Recorded{}, false
	}
	// One value looked up, nothing else decoded: the file may be 100 MB
	// (gjson skips a value faster than it lists the keys around it). The
	// key of a Console login is looked for only where no account is.
	acct := top.Get("oauthAccount")
	if !acct.IsObject() {
		k := top.Get("primaryApiKey")
		r.APIKey = k.Type == gjson.String && k.Str != ""
		return r, true
	}
	str := func(key string) string {
		if v := acct.Get(key); v.Type == gjson.String {
			return strings.TrimSpace(v.Str)
		}
		return ""
	}
	r.Email, r.OrganizationName, r.OrganizationUUID = str("emailAddress"), str("organizationName"), str("organizationUuid")
	r.AccountUUID, r.DisplayName = str("accountUuid"), str("displayName")
	return r, true
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
