package mcp

import (
	"errors"
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/coalesce"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name string
		data string
		want string // Servers as name=raw, space-separated
	}{
		{name: "blank", data: "\n", want: ""},
		{name: "no mcpServers", data: `{"other": 1}`, want: ""},
		{name: "empty", data: `{"mcpServers": {}}`, want: ""},
		{
			name: "kinds, in file order",
			data: `{"mcpServers": {
  "z": {"command": "z-server", "args": ["-v"], "env": {"A": "1"}},
  "a": {"type": "http", "url": "https://a", "headers": {"X": "y"}},
  "m": {"type": "sse", "url": "https://m"},
  "w": {"type": "ws", "url": "wss://w/mcp"},
  "s": {"type": "stdio", "command": "s", "args": [], "env": {}}
}}`,
			want: `z={"command": "z-server", "args": ["-v"], "env": {"A": "1"}} ` +
				`a={"type": "http", "url": "https://a", "headers": {"X": "y"}} ` +
				`m={"type": "sse", "url": "https://m"} ` +
				`w={"type": "ws", "url": "wss://w/mcp"} ` +
				`s={"type": "stdio", "command": "s", "args": [], "env": {}}`,
		},
		{
			name: "name given twice: the last value at the first position",
			data: `{"mcpServers": {"a": {"command": "1"}, "b": {"command": "b"}, "a": {"command": "2"}}}`,
			want: `a={"command": "2"} b={"command": "b"}`,
		},
		{
			name: "an invalid entry shadowed by a later one is not checked",
			data: `{"mcpServers": {"a": {}, "a": {"url": "u", "type": "http"}}}`,
			want: `a={"url": "u", "type": "http"}`,
		},
		{
			name: "mcpServers given twice: the last",
			data: `{"mcpServers": {"a": {"command": "1"}}, "mcpServers": {"b": {"command": "2"}}}`,
			want: `b={"command": "2"}`,
		},
		{
			name: "escaped names",
			data: `{"mcp\u0053ervers": {"cl\u00e9": {"command": "c"}, "a.b*": {"url": "u", "type": "sse"}}}`,
			want: `clé={"command": "c"} a.b*={"url": "u", "type": "sse"}`,
		},
		{
			name: "field given twice: the last counts",
			data: `{"mcpServers": {"a": {"command": 5, "command": "ok"}}}`,
			want: `a={"command": 5, "command": "ok"}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			servers, err := Parse([]byte(tc.data), ".mcp.json")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range servers {
				got = append(got, s.Name+"="+string(s.Raw))
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, " "), tc.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		data, want string
	}{
		{`{"mcpServers": 5}`, `"mcpServers" is a number, want an object`},
		{`{"mcpServers": []}`, `"mcpServers" is an array, want an object`},
		{`{"mcpServers": null}`, `"mcpServers" is null, want an object`},
		{`[]`, `top-level value is an array, want an object`},
		{"{\n  \"mcpServers\": {\n    \"x\": {\"command\": \"c\",}\n  }\n}", `line 3, column 26: invalid character '}' looking for beginning of object key string`},
		{`{"mcpServers": {"x": "cmd"}}`, `server "x" is a string, want an object`},
		{`{"mcpServers": {"x": []}}`, `server "x" is an array, want an object`},
		{`{"mcpServers": {"x": {}}}`, `server "x": stdio server needs a "command" string`},
		{`{"mcpServers": {"x": {"type": "stdio", "url": "u"}}}`, `server "x": stdio server needs a "command" string`},
		{`{"mcpServers": {"x": {"command": ["c"]}}}`, `server "x": "command" is an array, want a string`},
		{`{"mcpServers": {"x": {"command": ""}}}`, `server "x": "command" is empty`},
		{`{"mcpServers": {"x": {"command": "c", "args": "-v"}}}`, `server "x": "args" is a string, want an array of strings`},
		{`{"mcpServers": {"x": {"command": "c", "args": ["-v", 2]}}}`, `server "x": "args"[1] is a number, want a string`},
		{`{"mcpServers": {"x": {"command": "c", "args": null}}}`, `server "x": "args" is null, want an array of strings`},
		{`{"mcpServers": {"x": {"command": "c", "env": ["A=1"]}}}`, `server "x": "env" is an array, want an object of strings`},
		{`{"mcpServers": {"x": {"command": "c", "env": {"A": "1", "B": true}}}}`, `server "x": "env" value "B" is a boolean, want a string`},
		{`{"mcpServers": {"x": {"type": 1, "command": "c"}}}`, `server "x": "type" is a number, want a string`},
		{`{"mcpServers": {"x": {"type": "websocket", "url": "u"}}}`, `server "x": unknown type "websocket", want "stdio", "http", "sse" or "ws"`},
		{`{"mcpServers": {"x": {"type": "ws"}}}`, `server "x": ws server needs a "url" string`},
		{`{"mcpServers": {"x": {"type": "http"}}}`, `server "x": http server needs a "url" string`},
		{`{"mcpServers": {"x": {"type": "sse", "command": "c"}}}`, `server "x": sse server needs a "url" string`},
		{`{"mcpServers": {"x": {"type": "http", "url": {}}}}`, `server "x": "url" is an object, want a string`},
		{`{"mcpServers": {"x": {"type": "http", "url": ""}}}`, `server "x": "url" is empty`},
		{`{"mcpServers": {"ok": {"command": "c"}, "x\"y": {}}}`, `server "x\"y": stdio server needs a "command" string`},
		{`{"mcpServers": {"x": {"command": "c"}, "x": {"command": 1}}}`, `server "x": "command" is a number, want a string`},
	} {
		_, err := Parse([]byte(tc.data), "/acct/.mcp.json")
		want := "/acct/.mcp.json: " + tc.want
		if err == nil || err.Error() != want {
			t.Errorf("Parse(%s)\nerror %v\nwant  %s", tc.data, err, want)
		}
	}
	_, err := Parse([]byte(`{"mcpServers": {`), "f")
	var se *coalesce.SyntaxError
	if !errors.As(err, &se) || se.Line != 1 || se.Column != 17 {
		t.Errorf("truncated: %#v", err)
	}
}

func parse(t *testing.T, data string) Servers {
	t.Helper()
	s, err := Parse([]byte(data), "test.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestMerge(t *testing.T) {
	account := parse(t, `{"mcpServers": {
  "github": {"command": "gh-mcp", "args": ["--token-from-env"], "env": {"GITHUB_TOKEN": "x"}},
  "fs": {"command": "fs-mcp"},
  "docs": {"type": "http", "url": "https://docs"}
}}`)
	overlay := parse(t, `{"mcpServers": {
  "db": {"command": "db-mcp"},
  "github": {"type": "http", "url": "https://gh"},
  "fs": {"command": "other-fs"}
}}`)
	accountJSON, overlayJSON := string(account.JSON()), string(overlay.JSON())

	got := Merge(account, overlay)
	const want = `{"github":{"type":"http","url":"https://gh"},"fs":{"command":"other-fs"},` +
		`"docs":{"type":"http","url":"https://docs"},"db":{"command":"db-mcp"}}`
	if string(got.JSON()) != want {
		t.Errorf("got\n%s\nwant\n%s", got.JSON(), want)
	}
	// Replaced whole, never deep-merged: no args or env left from the account.
	if strings.Contains(string(got.JSON()), "args") || strings.Contains(string(got.JSON()), "GITHUB_TOKEN") {
		t.Error("account args/env leaked into the merged server")
	}
	if n := strings.Join(got.Names(), " "); n != "github fs docs db" {
		t.Errorf("Names = %s", n)
	}
	if string(account.JSON()) != accountJSON || string(overlay.JSON()) != overlayJSON {
		t.Error("Merge modified its inputs")
	}
	got[0].Name = "changed"
	if account[0].Name != "github" {
		t.Error("Merge result shares the account's array")
	}

	if got := Merge(nil, nil); len(got) != 0 || string(got.JSON()) != `{}` {
		t.Errorf("Merge(nil, nil) = %s", got.JSON())
	}
	if got := Merge(nil, overlay); string(got.JSON()) != overlayJSON {
		t.Errorf("Merge(nil, overlay) = %s", got.JSON())
	}
	if got := Merge(account, nil); string(got.JSON()) != accountJSON {
		t.Errorf("Merge(account, nil) = %s", got.JSON())
	}
}

func TestJSON(t *testing.T) {
	s := Servers{
		{Name: `a"<&>`, Raw: []byte("{\n  \"command\": \"c\",\n  \"args\": [ \"</>\" ]\n}")},
		{Name: "é", Raw: []byte(`{"url":"u","type":"sse"}`)},
	}
	const want = `{"a\"<&>":{"command":"c","args":["</>"]},"é":{"url":"u","type":"sse"}}`
	if got := string(s.JSON()); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := string(Servers(nil).JSON()); got != `{}` {
		t.Errorf("empty: %s", got)
	}
	// The value Splice coalesces into .claude.json.
	out, _, err := coalesce.Splice([]byte("{\n  \"numStartups\": 1\n}\n"), []coalesce.Key{{Name: "mcpServers", Raw: s.JSON()}})
	if err != nil {
		t.Fatal(err)
	}
	const doc = "{\n  \"numStartups\": 1,\n  \"mcpServers\": {\n    \"a\\\"<&>\": {\n      \"command\": \"c\",\n" +
		"      \"args\": [\n        \"</>\"\n      ]\n    },\n    \"é\": {\n      \"url\": \"u\",\n      \"type\": \"sse\"\n    }\n  }\n}\n"
	if string(out) != doc {
		t.Errorf("spliced\n%s\nwant\n%s", out, doc)
	}
}
