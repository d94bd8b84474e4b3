package mcp

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// oracleNames lists the names under "mcpServers" with encoding/json, each once
// at its first position; ok is false when there is no such object.
func oracleNames(t *testing.T, data []byte) (names []string, ok bool) {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, false
	}
	raw, ok := top["mcpServers"]
	if !ok {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			t.Fatal(err)
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if name := tok.(string); !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names, true
}

func clone(s Servers) Servers {
	c := make(Servers, len(s))
	for i, srv := range s {
		c[i] = Server{Name: srv.Name, Raw: bytes.Clone(srv.Raw)}
	}
	return c
}

func equalServers(a, b Server) bool { return a.Name == b.Name && bytes.Equal(a.Raw, b.Raw) }

func FuzzMergeMCP(f *testing.F) {
	f.Add([]byte(`{"mcpServers":{"gh":{"command":"gh","args":["-v"],"env":{"T":"x"}},"fs":{"command":"fs"}}}`),
		[]byte(`{"mcpServers":{"gh":{"type":"http","url":"https://gh"},"db":{"command":"db"}}}`))
	f.Add([]byte(``), []byte(`{"mcpServers":{"a":{"type":"sse","url":"u"}}}`))
	f.Add([]byte(`{"mcpServers":{"a":{"command":"1"},"a":{"command":"2"}}}`), []byte(`{}`))
	f.Add([]byte(`{"mcpServers":5}`), []byte(`{"mcpServers":{"x":{}}}`))
	f.Add([]byte(`{"mcpServers":{"x":{"command":"c","args":[1]}}}`), []byte(`{"mcpServers":{"x":{"type":"ws"}}}`))
	f.Add([]byte(`{"mcpServers":{"cl\u00e9":{"command":"c"}}}`), []byte(`{"mcpServers":{"clé":{"command":"d"}}`))
	f.Fuzz(func(t *testing.T, accountData, overlayData []byte) {
		account, errA := Parse(accountData, "account.json")
		overlay, errO := Parse(overlayData, "overlay.json")
		for _, c := range []struct {
			data    []byte
			servers Servers
			err     error
			file    string
		}{{accountData, account, errA, "account.json"}, {overlayData, overlay, errO, "overlay.json"}} {
			if c.err != nil {
				if !strings.HasPrefix(c.err.Error(), c.file+": ") {
					t.Fatalf("error without file name: %v", c.err)
				}
				continue
			}
			// Names as encoding/json reads them, each server a valid object.
			if want, ok := oracleNames(t, c.data); ok && !slices.Equal(c.servers.Names(), want) {
				t.Fatalf("names %q, want %q", c.servers.Names(), want)
			}
			for _, s := range c.servers {
				if !json.Valid(s.Raw) || s.Raw[0] != '{' {
					t.Fatalf("server %q: raw %s", s.Name, s.Raw)
				}
			}
		}
		if errA != nil || errO != nil {
			return
		}

		accountCopy, overlayCopy := clone(account), clone(overlay)
		merged := Merge(account, overlay)
		if !slices.EqualFunc(account, accountCopy, equalServers) || !slices.EqualFunc(overlay, overlayCopy, equalServers) {
			t.Fatal("Merge modified its inputs")
		}

		// Account servers first, in order, each replaced whole by the
		// overlay's of the same name; then the overlay's new ones, in order.
		var want Servers
		for _, a := range account {
			if i := slices.IndexFunc(overlay, func(o Server) bool { return o.Name == a.Name }); i >= 0 {
				a = overlay[i]
			}
			want = append(want, a)
		}
		for _, o := range overlay {
			if !slices.ContainsFunc(account, func(a Server) bool { return a.Name == o.Name }) {
				want = append(want, o)
			}
		}
		if !slices.EqualFunc(merged, want, equalServers) {
			t.Fatalf("merged %q, want %q", merged.Names(), want.Names())
		}

		out := merged.JSON()
		if !json.Valid(out) {
			t.Fatalf("JSON() invalid: %s", out)
		}
		if names, ok := oracleNames(t, []byte(`{"mcpServers":`+string(out)+`}`)); !ok || !slices.Equal(names, merged.Names()) {
			t.Fatalf("JSON() names %q, want %q", names, merged.Names())
		}
	})
}
