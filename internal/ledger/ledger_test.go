package ledger

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/mcp"
)

func servers(pairs ...string) mcp.Servers {
	var s mcp.Servers
	for i := 0; i < len(pairs); i += 2 {
		s = append(s, mcp.Server{Name: pairs[i], Raw: json.RawMessage(pairs[i+1])})
	}
	return s
}

const (
	a1 = `{"command":"a"}`
	a2 = `{"command":"a2"}`
	b1 = `{"command":"b"}`
	o1 = `{"command":"o"}`
)

func TestReconcile(t *testing.T) {
	tests := []struct {
		name      string
		in        Input
		want      string // the config dir's servers after
		added     string // the ledger's added servers after
		declared  string
		noteParts []string
	}{{
		name:     "declared only, first launch",
		in:       Input{Declared: servers("a", a1), Seen: Seen{}},
		want:     `{"a":{"command":"a"}}`,
		added:    `{}`,
		declared: `["a"]`,
	}, {
		name:     "claude added one here: kept and shared",
		in:       Input{Declared: servers("a", a1), Current: servers("a", a1, "u", b1), Seen: SeenOf(servers("a", a1))},
		want:     `{"a":{"command":"a"},"u":{"command":"b"}}`,
		added:    `{"u":{"command":"b"}}`,
		declared: `["a"]`,
	}, {
		name:     "added elsewhere: reaches this config dir",
		in:       Input{Ledger: &Ledger{Declared: []string{"a"}, Added: map[string]json.RawMessage{"u": json.RawMessage(b1)}}, Declared: servers("a", a1), Current: servers("a", a1), Seen: SeenOf(servers("a", a1))},
		want:     `{"a":{"command":"a"},"u":{"command":"b"}}`,
		added:    `{"u":{"command":"b"}}`,
		declared: `["a"]`,
	}, {
		name:      "claude removed a declared one: it comes back",
		in:        Input{Declared: servers("a", a1), Current: servers(), Seen: SeenOf(servers("a", a1)), File: "F"},
		want:      `{"a":{"command":"a"}}`,
		added:     `{}`,
		declared:  `["a"]`,
		noteParts: []string{`restored MCP server "a" in F`},
	}, {
		name:      "claude changed a declared one: the declaration wins",
		in:        Input{Declared: servers("a", a1), Current: servers("a", a2), Seen: SeenOf(servers("a", a1)), File: "F"},
		want:      `{"a":{"command":"a"}}`,
		added:     `{}`,
		declared:  `["a"]`,
		noteParts: []string{`restored MCP server "a"`},
	}, {
		name:     "the declaration changed: no note",
		in:       Input{Ledger: &Ledger{Declared: []string{"a"}}, Declared: servers("a", a2), Current: servers("a", a1), Seen: SeenOf(servers("a", a1))},
		want:     `{"a":{"command":"a2"}}`,
		added:    `{}`,
		declared: `["a"]`,
	}, {
		name:      "no longer declared: removed with a note",
		in:        Input{Ledger: &Ledger{Declared: []string{"a", "b"}}, Declared: servers("a", a1), Current: servers("a", a1, "b", b1), Seen: SeenOf(servers("a", a1, "b", b1)), File: "F"},
		want:      `{"a":{"command":"a"}}`,
		added:     `{}`,
		declared:  `["a"]`,
		noteParts: []string{`removed MCP server "b" from F: the account no longer declares it`},
	}, {
		name:     "claude removed its own here: gone from the ledger",
		in:       Input{Ledger: &Ledger{Added: map[string]json.RawMessage{"u": json.RawMessage(b1)}}, Current: servers(), Seen: SeenOf(servers("u", b1))},
		want:     `{}`,
		added:    `{}`,
		declared: `[]`,
	}, {
		name:      "removed in another config dir: removed here with a note",
		in:        Input{Ledger: &Ledger{}, Current: servers("u", b1), Seen: SeenOf(servers("u", b1)), File: "F"},
		want:      `{}`,
		added:     `{}`,
		declared:  `[]`,
		noteParts: []string{`removed MCP server "u" from F: it was removed in another config dir`},
	}, {
		name:     "the ledger was rebuilt: a server it never recorded is kept, not read as removed",
		in:       Input{Ledger: &Ledger{}, Rebuilt: true, Current: servers("u", b1), Seen: SeenOf(servers("u", b1)), File: "F"},
		want:     `{"u":{"command":"b"}}`,
		added:    `{"u":{"command":"b"}}`,
		declared: `[]`,
	}, {
		name:     "removed here but changed elsewhere since: the change stays",
		in:       Input{Ledger: &Ledger{Added: map[string]json.RawMessage{"u": json.RawMessage(a2)}}, Current: servers(), Seen: SeenOf(servers("u", b1))},
		want:     `{"u":{"command":"a2"}}`,
		added:    `{"u":{"command":"a2"}}`,
		declared: `[]`,
	}, {
		name:     "overlay wins here and is never shared",
		in:       Input{Declared: servers("a", a1), Overlay: servers("a", o1, "p", o1), Current: servers(), Seen: Seen{}},
		want:     `{"a":{"command":"o"},"p":{"command":"o"}}`,
		added:    `{}`,
		declared: `["a"]`,
	}, {
		name:      "overlay no longer loaded: its servers go, with a note",
		in:        Input{Current: servers("p", o1), Seen: SeenOf(servers("p", o1)), File: "F"},
		want:      `{}`,
		added:     `{}`,
		declared:  `[]`,
		noteParts: []string{`removed MCP server "p" from F`, `project overlay is no longer loaded`},
	}, {
		name:     "a runtime of an earlier version: what is not declared was Claude's",
		in:       Input{Declared: servers("a", a1), Current: servers("a", a1, "u", b1)},
		want:     `{"a":{"command":"a"},"u":{"command":"b"}}`,
		added:    `{"u":{"command":"b"}}`,
		declared: `["a"]`,
	}, {
		name:     "claude added a name the account now declares: declared wins",
		in:       Input{Ledger: &Ledger{Added: map[string]json.RawMessage{"a": json.RawMessage(a2)}}, Declared: servers("a", a1), Current: servers("a", a2), Seen: SeenOf(servers("a", a2))},
		want:     `{"a":{"command":"a"}}`,
		added:    `{}`,
		declared: `["a"]`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Reconcile(tt.in)
			if got := string(r.Servers.JSON()); got != tt.want {
				t.Errorf("servers = %s, want %s", got, tt.want)
			}
			added, _ := json.Marshal(r.Ledger.Added)
			if string(added) != tt.added {
				t.Errorf("added = %s, want %s", added, tt.added)
			}
			declared, _ := json.Marshal(r.Ledger.Declared)
			if tt.declared == "[]" && r.Ledger.Declared == nil {
				declared = []byte("[]")
			}
			if string(declared) != tt.declared {
				t.Errorf("declared = %s, want %s", declared, tt.declared)
			}
			notes := strings.Join(r.Notes, "\n")
			if len(tt.noteParts) == 0 && notes != "" {
				t.Errorf("notes = %q, want none", notes)
			}
			for _, part := range tt.noteParts {
				if !strings.Contains(notes, part) {
					t.Errorf("notes = %q, want one containing %q", notes, part)
				}
			}
		})
	}
}

func TestBootstrapKeepsOnlyUndeclared(t *testing.T) {
	l := Bootstrap(servers("a", a1), servers("a", a2, "u", b1))
	got, _ := json.Marshal(l.Added)
	if string(got) != `{"u":{"command":"b"}}` {
		t.Fatalf("added = %s", got)
	}
}

func TestLedgerRoundTrip(t *testing.T) {
	l := &Ledger{Declared: []string{"a"}, Added: map[string]json.RawMessage{"u": json.RawMessage(b1)}, Trusted: []string{"/r"}}
	var back Ledger
	if err := json.Unmarshal(l.Encode(), &back); err != nil {
		t.Fatal(err)
	}
	if !Same(l, &back) || !back.IsTrusted("/r") || back.IsTrusted("/x") {
		t.Fatalf("round trip: %s", back.Encode())
	}
}

func TestHarvestKeys(t *testing.T) {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	names := []string{"theme", "hasCompletedOnboarding", "oauthAccount"}
	tests := []struct {
		name                  string
		ledger, current, seen map[string]json.RawMessage
		want                  map[string]json.RawMessage
	}{
		{"changed here wins", map[string]json.RawMessage{"theme": raw(`"dark"`)},
			map[string]json.RawMessage{"theme": raw(`"light"`)}, map[string]json.RawMessage{"theme": raw(`"dark"`)},
			map[string]json.RawMessage{"theme": raw(`"light"`)}},
		{"unchanged here keeps another dir's change", map[string]json.RawMessage{"theme": raw(`"light"`)},
			map[string]json.RawMessage{"theme": raw(`"dark"`)}, map[string]json.RawMessage{"theme": raw(`"dark"`)},
			map[string]json.RawMessage{"theme": raw(`"light"`)}},
		{"removed here is removed", map[string]json.RawMessage{"oauthAccount": raw(`{"a":1}`)},
			map[string]json.RawMessage{}, map[string]json.RawMessage{"oauthAccount": raw(`{"a":1}`)},
			map[string]json.RawMessage{}},
		{"added here", nil, map[string]json.RawMessage{"hasCompletedOnboarding": raw(`true`)}, map[string]json.RawMessage{},
			map[string]json.RawMessage{"hasCompletedOnboarding": raw(`true`)}},
		{"reformatted is unchanged", map[string]json.RawMessage{"oauthAccount": raw(`{"b":2}`)},
			map[string]json.RawMessage{"oauthAccount": raw(`{ "a" : 1 }`)}, map[string]json.RawMessage{"oauthAccount": raw(`{"a":1}`)},
			map[string]json.RawMessage{"oauthAccount": raw(`{"b":2}`)}},
		{"never seen only fills gaps", map[string]json.RawMessage{"theme": raw(`"dark"`)},
			map[string]json.RawMessage{"theme": raw(`"light"`), "hasCompletedOnboarding": raw(`true`)}, nil,
			map[string]json.RawMessage{"theme": raw(`"dark"`), "hasCompletedOnboarding": raw(`true`)}},
		{"a key this dir's record never saw only fills a gap", map[string]json.RawMessage{"theme": raw(`"dark"`)},
			map[string]json.RawMessage{"theme": raw(`"light"`), "hasCompletedOnboarding": raw(`true`)}, map[string]json.RawMessage{},
			map[string]json.RawMessage{"theme": raw(`"dark"`), "hasCompletedOnboarding": raw(`true`)}},
		{"keys not named stay out", nil, map[string]json.RawMessage{"projects": raw(`{}`)}, map[string]json.RawMessage{},
			map[string]json.RawMessage{}},
	}
	for _, tt := range tests {
		l := &Ledger{AccountKeys: tt.ledger}
		l.HarvestKeys(names, tt.current, tt.seen)
		if !sameValues(l.AccountKeys, tt.want) {
			t.Errorf("%s: %s, want %s", tt.name, l.AccountKeys, tt.want)
		}
	}
}
