package ledger

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/mcp"
)

// FuzzReconcile: whatever Claude left in a config dir and whatever the ledger
// and the record hold, the declared servers come out exactly as declared, the
// overlay wins in this workspace and is never shared, every output is valid
// JSON, and the ledger reads back as written.
func FuzzReconcile(f *testing.F) {
	f.Add(`{"a":{"command":"x"}}`, `{"a":{"command":"y"},"u":{"command":"z"}}`, `{"u":{"command":"z"}}`, `{"o":{"command":"o"}}`, `{"declaredServers":["b"],"addedServers":{"u":{"command":"q"}},"trustedRepositories":["/r"]}`)
	f.Add(`{}`, `{}`, `null`, `{}`, ``)
	f.Add(`{"a":{"url":"http://x","type":"http"}}`, `{"a":{"url":"http://x","type":"http"},"\u00e9":{"command":"e"}}`, `{}`, `{"a":{"command":"o"}}`, `{"addedServers":{"a":{"command":"old"}}}`)
	f.Fuzz(func(t *testing.T, declared, current, seen, overlay, ledger string) {
		d, err := mcp.ParseClaudes([]byte(declared), "d")
		if err != nil || !coalesce.Equal([]byte(declared), []byte(declared)) {
			return
		}
		cur, err := mcp.ParseClaudes([]byte(current), "c")
		if err != nil {
			return
		}
		ov, err := mcp.ParseClaudes([]byte(overlay), "o")
		if err != nil {
			return
		}
		var s Seen
		if seen != "null" && json.Unmarshal([]byte(seen), &s) != nil {
			return
		}
		var l *Ledger
		if ledger != "" {
			path := filepath.Join(t.TempDir(), FileName)
			if err := os.WriteFile(path, []byte(ledger), 0o600); err != nil {
				t.Fatal(err)
			}
			if l, err = Read(path); err != nil {
				return
			}
		}
		r := Reconcile(Input{Ledger: l, Declared: d, Overlay: ov, Current: cur, Seen: s, File: "F"})
		out := r.Servers.JSON()
		if !json.Valid(out) {
			t.Fatalf("servers are not valid JSON: %s", out)
		}
		got := map[string]json.RawMessage{}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		overlaid := map[string]bool{}
		for _, o := range ov {
			overlaid[o.Name] = true
		}
		for _, srv := range d {
			if overlaid[srv.Name] {
				continue
			}
			if !coalesce.Equal(got[srv.Name], srv.Raw) {
				t.Fatalf("declared %q = %s, got %s", srv.Name, srv.Raw, got[srv.Name])
			}
		}
		for _, o := range ov {
			if !coalesce.Equal(got[o.Name], o.Raw) {
				t.Fatalf("overlay %q = %s, got %s", o.Name, o.Raw, got[o.Name])
			}
		}
		for name := range r.Ledger.Added {
			for _, srv := range d {
				if srv.Name == name {
					t.Fatalf("declared %q kept as Claude's", name)
				}
			}
		}
		data := r.Ledger.Encode()
		var back Ledger
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("ledger does not read back: %v\n%s", err, data)
		}
		if !Same(r.Ledger, &back) {
			t.Fatalf("ledger changed on the way back:\n%s\n%s", data, back.Encode())
		}
	})
}
