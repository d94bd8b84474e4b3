package configdir

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestBindingToplevel(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{string(Workspace{Account: "max", Toplevel: "/src/app"}.encode()), "/src/app"},
		{`{"toplevel":"/a","toplevel":"/b"}`, "/b"}, // the last, as JSON.parse
		{`{"toplevel":"\u002fsrc\/x"}`, "/src/x"},
		{`{"toplevel":42}`, ""},
		{`{"toplevel":"/a"`, ""}, // damaged
		{`["toplevel","/a"]`, ""},
		{`{"TopLevel":"/a"}`, ""}, // the launcher writes it in this case only
		{``, ""},
	} {
		if got := bindingToplevel([]byte(tc.doc)); got != tc.want {
			t.Errorf("bindingToplevel(%s) = %q, want %q", tc.doc, got, tc.want)
		}
	}
}

// FuzzBindingToplevel: any bytes are read without a panic, and a binding the
// launcher wrote gives back the toplevel it wrote, whatever its characters.
func FuzzBindingToplevel(f *testing.F) {
	f.Add("/src/app", []byte(`{"toplevel":"/a"}`))
	f.Add("/tmp/ü \"q\" \\ \t", []byte(`{"toplevel":"\ud83d\ude00"}`))
	f.Fuzz(func(t *testing.T, top string, doc []byte) {
		bindingToplevel(doc)
		if !utf8.ValidString(top) {
			return
		}
		ws := Workspace{Account: "a", AccountDir: "/h/.claude-a", Toplevel: top, Fingerprint: "f", GitDir: "/g"}
		if got := bindingToplevel(ws.encode()); got != top {
			t.Fatalf("bindingToplevel of a binding for %q = %q", top, got)
		}
		// As encoding/json reads it, for a document both accept (of valid
		// UTF-8: encoding/json replaces what is not with U+FFFD, where this
		// keeps the bytes, which a path may hold).
		var old Workspace
		if utf8.Valid(doc) && json.Unmarshal(doc, &old) == nil && json.Valid(doc) {
			if got := bindingToplevel(doc); got != old.Toplevel && !caseVariant(doc) {
				t.Fatalf("bindingToplevel(%q) = %q; encoding/json reads %q", doc, got, old.Toplevel)
			}
		}
	})
}

// caseVariant reports whether doc may hold a key encoding/json matches to
// "toplevel" without the exact case (it folds case; JSON.parse does not).
func caseVariant(doc []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(doc, &m) != nil {
		return true
	}
	for k := range m {
		if k != "toplevel" && len(k) == len("toplevel") && equalFoldASCII(k, "toplevel") {
			return true
		}
	}
	return false
}

func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i]|0x20, b[i]|0x20
		if x != y {
			return false
		}
	}
	return true
}
