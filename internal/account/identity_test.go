package account

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestIdentityCheck(t *testing.T) {
	const uuid = "00000000-0000-4000-8000-000000000002"
	full := Recorded{Email: "Me@Example.com", OrganizationName: "Acme", OrganizationUUID: uuid}
	for _, tc := range []struct {
		name string
		decl *Identity
		rec  Recorded
		want Verdict
	}{
		{"nothing declared", nil, full, NotDeclared},
		{"empty table", &Identity{}, full, NotDeclared},
		{"email, any case", &Identity{Email: "me@example.COM"}, full, Matches},
		{"email differs", &Identity{Email: "you@example.com"}, full, Mismatch},
		{"email not recorded", &Identity{Email: "me@example.com"}, Recorded{}, Unknown},
		{"organization by name", &Identity{Organization: "acme"}, full, Matches},
		{"organization by uuid", &Identity{Organization: strings.ToUpper(uuid)}, full, Matches},
		{"organization name differs", &Identity{Organization: "Initech"}, full, Mismatch},
		{"organization uuid differs", &Identity{Organization: "00000000-0000-4000-8000-000000000009"}, full, Mismatch},
		{"name declared, only the uuid recorded", &Identity{Organization: "Acme"}, Recorded{OrganizationUUID: uuid}, Unknown},
		{"uuid declared, only the uuid recorded, differs", &Identity{Organization: "00000000-0000-4000-8000-000000000009"}, Recorded{OrganizationUUID: uuid}, Mismatch},
		{"uuid declared, only the name recorded", &Identity{Organization: uuid}, Recorded{OrganizationName: "Acme"}, Unknown},
		{"both match", &Identity{Email: "me@example.com", Organization: "Acme"}, full, Matches},
		{"email matches, organization differs", &Identity{Email: "me@example.com", Organization: "Initech"}, full, Mismatch},
		{"email differs, organization unknown", &Identity{Email: "you@example.com", Organization: "Acme"}, Recorded{Email: "me@example.com", OrganizationUUID: uuid}, Mismatch},
		{"email matches, organization unknown", &Identity{Email: "me@example.com", Organization: "Acme"}, Recorded{Email: "me@example.com", OrganizationUUID: uuid}, Unknown},
	} {
		if got := tc.decl.Check(tc.rec); got != tc.want {
			t.Errorf("%s: Check = %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestParseRecorded(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Recorded
		ok   bool
	}{
		{`{"oauthAccount": {"emailAddress": "a@b.c", "organizationName": "Acme", "organizationUuid": "u", "accountUuid": "v", "displayName": "A"}}`,
			Recorded{Email: "a@b.c", OrganizationName: "Acme", OrganizationUUID: "u", AccountUUID: "v", DisplayName: "A"}, true},
		{"\xef\xbb\xbf" + `{"oauthAccount": {"emailAddress": "a@b.c"}}`, Recorded{Email: "a@b.c"}, true},
		{`{"projects": {"/x": {"oauthAccount": {"emailAddress": "nested@b.c"}}}}`, Recorded{}, true},
		{`{"oauthAccount": {"emailAddress": 7, "organizationName": null}}`, Recorded{}, true},
		{`{"oauthAccount": "a@b.c"}`, Recorded{}, true},
		// Claude's JSON.parse keeps the last of a key given twice, at
		// either level: so does the check.
		{`{"oauthAccount": {"emailAddress": "first@b.c"}, "oauthAccount": {"emailAddress": "last@b.c"}}`, Recorded{Email: "last@b.c"}, true},
		{`{"oauthAccount": {"emailAddress": "first@b.c", "emailAddress": "last@b.c"}}`, Recorded{Email: "last@b.c"}, true},
		{`{"oauthAccount": {"emailAddress": "a@b.c"}, "oauthAccount": null, "primaryApiKey": "k"}`, Recorded{APIKey: true}, true},
		{`{"customApiKeyResponses": {"approved": ["a"], "rejected": ["b", 1]}, "oauthAccount": {"emailAddress": "a@b.c"}}`,
			Recorded{Email: "a@b.c", Approved: []string{"a"}, Rejected: []string{"b"}}, true},
		{`[]`, Recorded{}, false},
		{``, Recorded{}, false},
	} {
		got, ok := ParseRecorded([]byte(tc.in))
		if !reflect.DeepEqual(got, tc.want) || ok != tc.ok {
			t.Errorf("ParseRecorded(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestReadRecorded(t *testing.T) {
	dir := t.TempDir()
	if r, err := ReadRecorded(dir); err != nil || r.Known() {
		t.Errorf("no .claude.json: %+v, %v; want nothing, no error", r, err)
	}
	if err := os.WriteFile(filepath.Join(dir, ClaudeJSON), []byte(`{"oauthAccount": {"emailAddress": "a@b.c"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if r, err := ReadRecorded(dir); err != nil || r.Email != "a@b.c" {
		t.Errorf("ReadRecorded = %+v, %v", r, err)
	}
	if err := os.WriteFile(filepath.Join(dir, ClaudeJSON), []byte(`not json`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRecorded(dir); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("ReadRecorded of no JSON = %v, want an error", err)
	}
	// The ledger's account keys, once a launch kept them, are the account's
	// latest: the .claude.json of the account dir may be older. A launch
	// reads that file as well when it changed since its record's stamp, and
	// must read it whole: no JSON is an error then too.
	if err := os.WriteFile(filepath.Join(dir, ".claude-account-shared.json"), []byte(`{"accountKeys": {"oauthAccount": {"emailAddress": "new@b.c"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRecorded(dir); err == nil {
		t.Errorf("a changed account dir's .claude.json that is no JSON: want an error")
	}
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(ClaudeJSON, `{"oauthAccount": {"emailAddress": "a@b.c"}}`)
	if r, err := ReadRecorded(dir); err != nil || r.Email != "new@b.c" {
		t.Errorf("ReadRecorded with a ledger, no record = %+v, %v; want the ledger's (an unseen file only fills gaps)", r, err)
	}
	st := stampOf(filepath.Join(dir, ClaudeJSON))
	write(recordFile, fmt.Sprintf(`{"mcpServers": {}, "accountKeys": {"oauthAccount": {"emailAddress": "a@b.c"}}, "stateStamp": {"ino": %d, "size": %d, "mtimeNs": %d}}`, st[0], st[1], st[2]))
	if r, err := ReadRecorded(dir); err != nil || r.Email != "new@b.c" {
		t.Errorf("ReadRecorded with a ledger, file as stamped = %+v, %v; want the ledger's", r, err)
	}
	// Plain Claude logged in as someone else in the account dir after the
	// launcher stamped it: the next launch takes that login in.
	write(ClaudeJSON, `{"oauthAccount": {"emailAddress": "plain@b.c", "x": 1}}`)
	if r, err := ReadRecorded(dir); err != nil || r.Email != "plain@b.c" {
		t.Errorf("ReadRecorded after plain Claude's login = %+v, %v; want plain@b.c", r, err)
	}
	write(ClaudeJSON, `not json`)
	if err := os.WriteFile(filepath.Join(dir, ".claude-account-shared.json"), []byte(`{"declaredServers": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRecorded(dir); err == nil {
		t.Errorf("a ledger without account keys: want .claude.json read (not JSON here: an error)")
	}
	other := t.TempDir()
	if err := os.Symlink(filepath.Join(dir, ClaudeJSON), filepath.Join(other, ClaudeJSON)); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRecorded(other); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("ReadRecorded through a link = %v, want a refusal", err)
	}
}

func TestParseIdentity(t *testing.T) {
	for _, tc := range []struct{ toml, want string }{
		{"[identity]\nemail = \"me@example.com\"\norganization = \"Acme\"\n", ""},
		{"[identity]\n", "declares nothing"},
		{"[identity]\nemail = \"me\"\n", "is not an email address"},
		{"[identity]\nemail = \" me@example.com\"\n", "is not an email address"},
		{"[identity]\norganization = \" Acme\"\n", "surrounding spaces"},
		{"[identity]\nmail = \"me@example.com\"\n", "unknown key identity.mail; known keys are "},
		// "" is refused, never read as unset (one rule with Nix's).
		{"[identity]\nemail = \"\"\norganization = \"Acme\"\n", `[identity] email = "" is empty; write the address`},
		{"[identity]\nemail = \"me@example.com\"\norganization = \"\"\n", `[identity] organization = "" is empty; write the organization's name`},
		{"identity = \"me@example.com\"\n", "identity must be a table ([identity]), not a string"},
	} {
		c, err := Parse([]byte(tc.toml), "account.toml")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.toml, err)
		case tc.want == "" && (c.Identity == nil || c.Identity.Email != "me@example.com" || c.Identity.Organization != "Acme"):
			t.Errorf("%q: Identity = %+v", tc.toml, c.Identity)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: error %v, want %q", tc.toml, err, tc.want)
		}
	}
	if _, err := Parse([]byte("[identity]\nmail = 1\n"), "account.toml"); err == nil || !strings.Contains(err.Error(), "[identity] email, organization") {
		t.Errorf("the unknown-key message does not list [identity]'s keys: %v", err)
	}
}

// FuzzParseRecorded: whatever a config dir's .claude.json holds, reading
// the identity neither panics nor invents one: a field found is a string
// Claude wrote under oauthAccount.
func FuzzParseRecorded(f *testing.F) {
	f.Add([]byte(`{"oauthAccount": {"emailAddress": "a@b.c", "organizationName": "Acme"}}`))
	f.Add([]byte("\xef\xbb\xbf{}"))
	f.Add([]byte(`{"oauthAccount": {"emailAddress": "a@b.c"}, "oauthAccount": {"emailAddress": "b@b.c", "emailAddress": 1}}`))
	f.Add([]byte(`{"oauthAccount": {"emailAddress": "\u0000\ud800"}}`))
	f.Add([]byte(`{"oauthAccount": {"emailAddress": "a@b.c"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, ok := ParseRecorded(data)
		if !ok && r.Known() {
			t.Fatalf("no JSON object, yet an identity: %+v", r)
		}
		if r.Email != "" && !strings.Contains(string(data), "emailAddress") {
			t.Fatalf("an email from nowhere: %+v", r)
		}
	})
}

// BenchmarkReadRecorded is what the check costs a launch of an account
// that declares an identity: the ledger's account keys (the usual case),
// and a 20 MB .claude.json of history when no launch kept them yet.
func BenchmarkReadRecorded(b *testing.B) {
	ledgerDir := b.TempDir()
	if err := os.WriteFile(filepath.Join(ledgerDir, ".claude-account-shared.json"),
		[]byte(`{"declaredServers": [], "accountKeys": {"numStartups": 9, "oauthAccount": {"emailAddress": "a@b.c", "organizationUuid": "u"}}}`), 0o600); err != nil {
		b.Fatal(err)
	}
	bigDir := b.TempDir()
	var sb strings.Builder
	sb.WriteString(`{"projects": {`)
	for i := 0; sb.Len() < 20<<20; i++ {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`"/home/u/src/p` + strings.Repeat("x", 40) + string(rune('a'+i%26)) + `": {"history": [{"display": "` + strings.Repeat("y", 200) + `"}]}`)
	}
	sb.WriteString(`}, "oauthAccount": {"emailAddress": "a@b.c"}}`)
	if err := os.WriteFile(filepath.Join(bigDir, ClaudeJSON), []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ name, dir string }{{"ledger", ledgerDir}, {"claude.json-20MB", bigDir}} {
		b.Run(bc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if r, err := ReadRecorded(bc.dir); err != nil || r.Email != "a@b.c" {
					b.Fatal(r, err)
				}
			}
		})
	}
}
