package configdir

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRebase(t *testing.T) {
	from, to := "/r/.git/claude-runtime/max/plugins", "/home/u/.claude-max/plugins"
	in := `{"version": 2, "plugins": {"a@m": [{"installPath": "/r/.git/claude-runtime/max/plugins/cache/m/a/1", "n": 1.50}]},
	"near": "/r/.git/claude-runtime/max/pluginsX", "same": "/r/.git/claude-runtime/max/plugins", "html": "<&>"}`
	out, err := Rebase([]byte(in), from, to)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Plugins map[string][]struct {
			InstallPath string
			N           json.Number
		}
		Near, Same, HTML string
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	p := v.Plugins["a@m"][0]
	if p.InstallPath != to+"/cache/m/a/1" || v.Same != to || v.Near != from+"X" || p.N != "1.50" || v.HTML != "<&>" {
		t.Errorf("rebase = %s", out)
	}
	if strings.Contains(string(out), `\u003c`) {
		t.Errorf("rebase escaped HTML: %s", out)
	}
	if same, _ := Rebase([]byte(`{"x": "/elsewhere"}`), from, to); string(same) != `{"x": "/elsewhere"}` {
		t.Errorf("a record without the old path changed: %s", same)
	}
	if _, err := Rebase([]byte(`{"x": "`+from+`"} {}`), from, to); err == nil {
		t.Error("two values: no error")
	}
}

// FuzzRebase: Rebase never panics; what it returns parses, names nothing under
// the old dir any more, and is a fixed point.
func FuzzRebase(f *testing.F) {
	const from, to = "/rt/plugins", "/acct/plugins"
	for _, s := range []string{`{"p": "/rt/plugins/cache/x"}`, `["/rt/plugins", 1, null, {"a": ["/rt/plugins/"]}]`, `"/rt/plugins"`, `{"p": "/rt/plugins`, `/rt/plugins`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := Rebase([]byte(in), from, to)
		if err != nil || !strings.Contains(in, from) {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("Rebase(%q) = %q: not JSON", in, out)
		}
		var v any
		_ = json.Unmarshal(out, &v)
		var walk func(any)
		walk = func(v any) {
			switch x := v.(type) {
			case string:
				if x == from || strings.HasPrefix(x, from+"/") {
					t.Fatalf("Rebase(%q) kept %q", in, x)
				}
			case map[string]any:
				for _, e := range x {
					walk(e)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		walk(v)
		again, err := Rebase(out, from, to)
		if err != nil || string(again) != string(out) {
			t.Fatalf("rebase is not a fixed point on %q: %q, %v", out, again, err)
		}
	})
}
