package jsonx

import (
	"bytes"
	"encoding/json"
	"testing"
)

type sample struct {
	Account string `json:"account"`
	Path    string `json:"path"`
	PID     int    `json:"pid"`
}

func fields(s sample) []Field {
	return []Field{{"account", String(s.Account)}, {"path", String(s.Path)}, {"pid", Int(s.PID)}}
}

// FuzzObject checks Object against encoding/json itself.
func FuzzObject(f *testing.F) {
	f.Add("max", "/home/u/src/app", 4121)
	f.Add("", "a\"b\\c\n\u2028<>&\x7f\xff", -1)
	f.Fuzz(func(t *testing.T, account, path string, pid int) {
		s := sample{account, path, pid}
		want, _ := json.MarshalIndent(s, "", "  ")
		if got := Object(true, fields(s)...); !bytes.Equal(got, append(want, '\n')) {
			t.Fatalf("indented:\n%s\nwant:\n%s", got, want)
		}
		want, _ = json.Marshal(s)
		if got := Object(false, fields(s)...); !bytes.Equal(got, want) {
			t.Fatalf("compact: %s, want %s", got, want)
		}
	})
}

func TestEmptyObject(t *testing.T) {
	if got := string(Object(true)); got != "{}\n" {
		t.Fatalf("%q", got)
	}
	if got := string(Object(false)); got != "{}" {
		t.Fatalf("%q", got)
	}
}
