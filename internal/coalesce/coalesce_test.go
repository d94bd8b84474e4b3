package coalesce

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func key(name, raw string) Key { return Key{Name: name, Raw: []byte(raw)} }
func absent(name string) Key   { return Key{Name: name} }

func TestSplice(t *testing.T) {
	const pretty = `{
  "numStartups": 3,
  "mcpServers": {
    "old": {
      "command": "old"
    }
  },
  "projects": {
    "/a": {
      "history": []
    }
  }
}
`
	for _, tc := range []struct {
		name string
		doc  string
		keys []Key
		want string // == doc: unchanged
	}{
		{
			name: "replace in place, pretty",
			doc:  pretty,
			keys: []Key{key("mcpServers", `{"new":{"command":"n","args":["-v"]}}`)},
			want: `{
  "numStartups": 3,
  "mcpServers": {
    "new": {
      "command": "n",
      "args": [
        "-v"
      ]
    }
  },
  "projects": {
    "/a": {
      "history": []
    }
  }
}
`,
		},
		{
			name: "replace in place, compact",
			doc:  `{"a":1,"mcpServers":{"old":{}},"z":[1, 2]}`,
			keys: []Key{key("mcpServers", "{\n  \"new\": {}\n}")},
			want: `{"a":1,"mcpServers":{"new":{}},"z":[1, 2]}`,
		},
		{
			name: "replace keeps the spacing around the value",
			doc:  `{ "a" :  1 , "b":2 }`,
			keys: []Key{key("a", `[true]`)},
			want: `{ "a" :  [true] , "b":2 }`,
		},
		{
			name: "replace a scalar with an object, last member",
			doc:  "{\n  \"a\": 1,\n  \"b\": null\n}",
			keys: []Key{key("b", `{"c":{"d":[]}}`)},
			want: "{\n  \"a\": 1,\n  \"b\": {\n    \"c\": {\n      \"d\": []\n    }\n  }\n}",
		},
		{
			name: "append to {}",
			doc:  `{}`,
			keys: []Key{key("k", `{"x":[1,2]}`)},
			want: "{\n  \"k\": {\n    \"x\": [\n      1,\n      2\n    ]\n  }\n}",
		},
		{
			name: "append two to {} with space and a trailing newline",
			doc:  "{ }\n",
			keys: []Key{key("a", `1`), key("b", `"x"`)},
			want: "{\n  \"a\": 1,\n  \"b\": \"x\"\n}\n",
		},
		{
			name: "append to a blank document",
			doc:  " \n\t",
			keys: []Key{absent("gone"), key("a", `true`)},
			want: "{\n  \"a\": true\n}\n",
		},
		{
			name: "append to an empty document",
			doc:  "",
			keys: []Key{key("a", `[]`)},
			want: "{\n  \"a\": []\n}\n",
		},
		{
			name: "append to pretty",
			doc:  pretty,
			keys: []Key{key("userID", `"u1"`), key("oauthAccount", `{"emailAddress":"a@b"}`)},
			want: strings.TrimSuffix(pretty, "\n}\n") + `,
  "userID": "u1",
  "oauthAccount": {
    "emailAddress": "a@b"
  }
}
`,
		},
		{
			name: "append to compact",
			doc:  `{"a":1}`,
			keys: []Key{key("k", "{\n \"x\" : [1, 2]\n}")},
			want: `{"a":1,"k":{"x":[1,2]}}`,
		},
		{
			name: "append to compact with spaces after commas",
			doc:  `{"a": 1, "b": 2}`,
			keys: []Key{key("k", `[ 1 ]`)},
			want: `{"a": 1, "b": 2, "k": [1]}`,
		},
		{
			name: "append with four-space indentation",
			doc:  "{\n    \"a\": 1\n}",
			keys: []Key{key("k", `{"x":{"y":1}}`)},
			want: "{\n    \"a\": 1,\n    \"k\": {\n        \"x\": {\n            \"y\": 1\n        }\n    }\n}",
		},
		{
			name: "append with tab indentation",
			doc:  "{\n\t\"a\": 1\n}",
			keys: []Key{key("k", `[1]`)},
			want: "{\n\t\"a\": 1,\n\t\"k\": [\n\t\t1\n\t]\n}",
		},
		{
			name: "remove first",
			doc:  "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}",
			keys: []Key{absent("a")},
			want: "{\n  \"b\": 2,\n  \"c\": 3\n}",
		},
		{
			name: "remove middle",
			doc:  "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}",
			keys: []Key{absent("b")},
			want: "{\n  \"a\": 1,\n  \"c\": 3\n}",
		},
		{
			name: "remove last",
			doc:  "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}\n",
			keys: []Key{absent("c")},
			want: "{\n  \"a\": 1,\n  \"b\": 2\n}\n",
		},
		{
			name: "remove only",
			doc:  "{\n  \"a\": {\n    \"b\": 1\n  }\n}\n",
			keys: []Key{absent("a")},
			want: "{}\n",
		},
		{
			name: "remove all",
			doc:  `{"a":1,"b":2}`,
			keys: []Key{absent("b"), absent("a")},
			want: `{}`,
		},
		{
			name: "remove first and last, compact",
			doc:  `{"a":1,"b":2,"c":3}`,
			keys: []Key{absent("a"), absent("c")},
			want: `{"b":2}`,
		},
		{
			name: "remove last and append",
			doc:  "{\n  \"a\": 1,\n  \"b\": 2\n}",
			keys: []Key{absent("b"), key("c", `3`)},
			want: "{\n  \"a\": 1,\n  \"c\": 3\n}",
		},
		{
			name: "remove only and append",
			doc:  `{"a":1}`,
			keys: []Key{absent("a"), key("c", `3`)},
			want: `{"c":3}`,
		},
		{
			name: "remove absent key",
			doc:  `{"a":1}`,
			keys: []Key{absent("b")},
			want: `{"a":1}`,
		},
		{
			name: "unicode names",
			doc:  `{"clé":1,"日本":2}`,
			keys: []Key{key("clé", `10`), key("日本", `20`), key("ünï", `30`)},
			want: `{"clé":10,"日本":20,"ünï":30}`,
		},
		{
			name: "escaped name in the document matches",
			doc:  `{"mcp\u0053ervers":{},"cl\u00e9":1}`,
			keys: []Key{key("mcpServers", `{"x":{}}`), key("clé", `2`)},
			want: `{"mcp\u0053ervers":{"x":{}},"cl\u00e9":2}`,
		},
		{
			name: "gjson path characters are plain names",
			doc:  `{"a.b":1,"*":2,"?":3,"|":4,"#":5,"@this":6,"a\\b":7,"a":{"b":0}}`,
			keys: []Key{key("a.b", `"x"`), key("*", `"x"`), key("?", `"x"`), key("|", `"x"`),
				key("#", `"x"`), key("@this", `"x"`), key(`a\b`, `"x"`)},
			want: `{"a.b":"x","*":"x","?":"x","|":"x","#":"x","@this":"x","a\\b":"x","a":{"b":0}}`,
		},
		{
			name: "appended names are escaped",
			doc:  `{}`,
			keys: []Key{key("q\"uote\\back\nline\x01</>&\u2028", `1`)},
			want: "{\n  \"q\\\"uote\\\\back\\nline\\u0001</>&\u2028\": 1\n}",
		},
		{
			name: "in sync despite whitespace",
			doc:  "{\n  \"mcpServers\": {\n    \"x\": {\n      \"args\": [ \"a\", \"b\" ]\n    }\n  }\n}",
			keys: []Key{key("mcpServers", `{"x":{"args":["a","b"]}}`)},
			want: "{\n  \"mcpServers\": {\n    \"x\": {\n      \"args\": [ \"a\", \"b\" ]\n    }\n  }\n}",
		},
		{
			name: "in sync despite member order, escapes and number spelling",
			doc:  `{"m":{"b":[1.0,"\u0041"],"a":null}}`,
			keys: []Key{key("m", `{"a":null,"b":[1,"A"]}`)},
			want: `{"m":{"b":[1.0,"\u0041"],"a":null}}`,
		},
		{
			name: "array order counts",
			doc:  `{"m":[1,2]}`,
			keys: []Key{key("m", `[2,1]`)},
			want: `{"m":[2,1]}`,
		},
		{
			name: "only the unequal value is rewritten",
			doc:  `{"a": [ 1 ], "b": 1}`,
			keys: []Key{key("a", `[1]`), key("b", `2`)},
			want: `{"a": [ 1 ], "b": 2}`,
		},
		{
			name: "nested managed value with a nested key of the same name",
			doc:  `{"projects":{"/p":{"mcpServers":{"keep":{}}}},"mcpServers":{}}`,
			keys: []Key{key("mcpServers", `{"new":{"url":"u"}}`)},
			want: `{"projects":{"/p":{"mcpServers":{"keep":{}}}},"mcpServers":{"new":{"url":"u"}}}`,
		},
		{
			name: "values with tricky strings are skipped whole",
			doc:  `{"s":"a\"}{[\\","t":["\\\\\"",{"u":"}"}],"k":1}`,
			keys: []Key{key("k", `2`)},
			want: `{"s":"a\"}{[\\","t":["\\\\\"",{"u":"}"}],"k":2}`,
		},
		{
			name: "managed key given twice collapses to the first position",
			doc:  `{"a":1,"m":1,"b":2,"m":2}`,
			keys: []Key{key("m", `3`)},
			want: `{"a":1,"m":3,"b":2}`,
		},
		{
			name: "managed key given twice, first already equal",
			doc:  `{"m":3,"b":2,"m":2}`,
			keys: []Key{key("m", `3`)},
			want: `{"m":3,"b":2}`,
		},
		{
			name: "managed key given twice, removed",
			doc:  `{"m":3,"b":2,"m":2}`,
			keys: []Key{absent("m")},
			want: `{"b":2}`,
		},
		{
			name: "unmanaged duplicates are kept",
			doc:  `{"d":1,"m":0,"d":2}`,
			keys: []Key{key("m", `1`)},
			want: `{"d":1,"m":1,"d":2}`,
		},
		{
			name: "raw with surrounding whitespace",
			doc:  `{"a":0}`,
			keys: []Key{key("a", " \n{ \"b\" : 1 }\n ")},
			want: `{"a":{"b":1}}`,
		},
		{
			name: "bytes after the object are kept",
			doc:  "\n {\"a\":0} \n\n",
			keys: []Key{key("a", `1`)},
			want: "\n {\"a\":1} \n\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := []byte(tc.doc)
			out, changed, err := Splice(doc, tc.keys)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", out, tc.want)
			}
			if string(doc) != tc.doc {
				t.Errorf("input modified")
			}
			if want := tc.want != tc.doc; changed != want {
				t.Errorf("changed = %v, want %v", changed, want)
			}
			if !changed && len(doc) > 0 && &out[0] != &doc[0] {
				t.Errorf("unchanged output is a copy")
			}
			// Splicing again changes nothing.
			again, changed, err := Splice(out, tc.keys)
			if err != nil || changed || string(again) != string(out) {
				t.Errorf("second splice: changed=%v err=%v\n%s", changed, err, again)
			}
		})
	}
}

func TestSpliceErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  string
		keys []Key
		want string
		line int // 0: not a *SyntaxError
		col  int
	}{
		{
			name: "trailing comma in nested object",
			doc:  "{\n  \"a\": 1,\n  \"b\": {\n    \"c\": 1,\n  }\n}\n",
			keys: []Key{key("a", `2`)},
			want: "line 5, column 3: invalid character '}' looking for beginning of object key string",
			line: 5, col: 3,
		},
		{
			name: "invalid unmanaged value when writing",
			doc:  `{"a": [1,,2], "b": 1}`,
			keys: []Key{key("b", `2`)},
			want: "line 1, column 10: invalid character ',' looking for beginning of value",
			line: 1, col: 10,
		},
		{
			name: "column counts characters",
			doc:  "{\"é\": \"日本\", x}",
			keys: []Key{key("b", `2`)},
			want: "line 1, column 13: invalid character 'x' looking for beginning of object key string",
			line: 1, col: 13,
		},
		{
			name: "missing comma at top level, in sync",
			doc:  `{"a": 1 "b": 2}`,
			keys: []Key{key("a", `1`)},
			want: "line 1, column 9: invalid character '\"' after object key:value pair",
			line: 1, col: 9,
		},
		{
			name: "truncated",
			doc:  "{\n  \"a\": {\"b\": 1",
			keys: []Key{key("x", `1`)},
			want: "line 2, column 15: unexpected end of JSON input",
			line: 2, col: 15,
		},
		{
			name: "two objects",
			doc:  `{"a":1}{"a":1}`,
			keys: []Key{key("a", `1`)},
			want: "line 1, column 8: invalid character '{' after top-level value",
			line: 1, col: 8,
		},
		{
			name: "invalid managed value in the document",
			doc:  `{"a": tru}`,
			keys: []Key{key("a", `true`)},
			want: "line 1, column 10: invalid character '}' in literal true (expecting 'e')",
			line: 1, col: 10,
		},
		{
			name: "byte order mark",
			doc:  "\ufeff{}",
			keys: []Key{key("a", `true`)},
			want: "line 1, column 1: the file starts with a UTF-8 byte order mark (BOM), which JSON does not allow; save it as UTF-8 without BOM",
			line: 1, col: 1,
		},
		{name: "array", doc: `[1]`, keys: []Key{key("a", `1`)}, want: "top-level value is an array, want an object"},
		{name: "string", doc: ` "s" `, keys: []Key{key("a", `1`)}, want: "top-level value is a string, want an object"},
		{name: "number", doc: `-1`, keys: []Key{key("a", `1`)}, want: "top-level value is a number, want an object"},
		{name: "boolean", doc: `true`, keys: []Key{key("a", `1`)}, want: "top-level value is a boolean, want an object"},
		{name: "null", doc: `null`, keys: []Key{key("a", `1`)}, want: "top-level value is null, want an object"},
		{name: "invalid array", doc: `[1,]`, keys: nil, want: "line 1, column 4: invalid character ']' looking for beginning of value", line: 1, col: 4},
		{name: "invalid raw", doc: `{}`, keys: []Key{key("a", `{`)}, want: `managed key "a": invalid value: line 1, column 2: unexpected end of JSON input`, line: 1, col: 2},
		{name: "empty raw", doc: `{}`, keys: []Key{key("a", ``)}, want: `managed key "a": invalid value: line 1, column 1: unexpected end of JSON input`, line: 1, col: 1},
		{name: "two raw values", doc: `{}`, keys: []Key{key("a", `1 2`)}, want: `managed key "a": invalid value: line 1, column 3: invalid character '2' after top-level value`, line: 1, col: 3},
		{name: "key twice", doc: `{}`, keys: []Key{key("a", `1`), absent("a")}, want: `managed key "a" given twice`},
		{name: "name not UTF-8", doc: `{}`, keys: []Key{key("a\xff", `1`)}, want: `managed key "a\xff": name is not valid UTF-8`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := []byte(tc.doc)
			out, changed, err := Splice(doc, tc.keys)
			if err == nil {
				t.Fatalf("no error; changed=%v out=%s", changed, out)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n%s\nwant\n%s", err, tc.want)
			}
			if out != nil || changed {
				t.Errorf("out=%q changed=%v on error", out, changed)
			}
			if string(doc) != tc.doc {
				t.Errorf("input modified")
			}
			var se *SyntaxError
			if errors.As(err, &se) != (tc.line > 0) {
				t.Fatalf("SyntaxError: %v, want %v", errors.As(err, &se), tc.line > 0)
			}
			if se != nil && (se.Line != tc.line || se.Column != tc.col) {
				t.Errorf("at %d:%d, want %d:%d", se.Line, se.Column, tc.line, tc.col)
			}
		})
	}
}

// An invalid document whose managed keys are already in sync is left alone:
// the in-sync path does not validate what it does not read.
func TestSpliceInvalidInSync(t *testing.T) {
	doc := []byte(`{"projects": {"a": [1,,2]}, "m": 1}`)
	out, changed, err := Splice(doc, []Key{key("m", `1`)})
	if err != nil || changed || !bytes.Equal(out, doc) {
		t.Fatalf("changed=%v err=%v", changed, err)
	}
	if err := Validate(doc); err == nil {
		t.Fatal("Validate accepts invalid JSON")
	}
}

func TestGet(t *testing.T) {
	doc := []byte(`{"oauthAccount": {"emailAddress": "a@b"}, "a.b": 1, "d": 1, "cl\u00e9": true, "d": [2], "bad": [1,,]}`)
	for _, tc := range []struct {
		name string
		want string
		ok   bool
	}{
		{"oauthAccount", `{"emailAddress": "a@b"}`, true},
		{"a.b", `1`, true},
		{"d", `[2]`, true},
		{"clé", `true`, true},
		{"emailAddress", ``, false},
		{"bad", ``, false},
		{"", ``, false},
	} {
		got, ok := Get(doc, tc.name)
		if ok != tc.ok || string(got) != tc.want {
			t.Errorf("Get(%q) = %s, %v; want %s, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	got, _ := Get(doc, "d")
	got[0] = 'X'
	if !bytes.Contains(doc, []byte(`"d": [2]`)) {
		t.Error("Get returned a slice of doc")
	}
	for _, doc := range []string{``, ` `, `[1]`, `{"a":`, `{}`} {
		if raw, ok := Get([]byte(doc), "a"); ok {
			t.Errorf("Get(%q) = %s, true", doc, raw)
		}
	}
}

func TestTopLevelKeys(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want string
		err  string
	}{
		{doc: ``, want: ``},
		{doc: `{}`, want: ``},
		{doc: `{"b":1,"a":{"x":1},"b":2,"c\u0021":3}`, want: `b a c!`},
		{doc: `{"a":}`, err: "line 1, column 6: invalid character '}' looking for beginning of value"},
		{doc: `[]`, err: "top-level value is an array, want an object"},
	} {
		got, err := TopLevelKeys([]byte(tc.doc))
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("TopLevelKeys(%s) error %v, want %s", tc.doc, err, tc.err)
			}
			continue
		}
		if err != nil || strings.Join(got, " ") != tc.want {
			t.Errorf("TopLevelKeys(%s) = %q, %v; want %s", tc.doc, got, err, tc.want)
		}
	}
}

func TestEqual(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{`1`, `1`, true},
		{` 1 `, "\n1", true},
		{`1`, `1.0`, true},
		{`100`, `1e2`, true},
		{`1e400`, `2e400`, true}, // both Infinity to JSON.parse
		{`1`, `2`, false},
		{`1`, `"1"`, false},
		{`"A"`, `"\u0041"`, true},
		{`"a"`, `"b"`, false},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, true},
		{`{"a":1,"a":2}`, `{"a":2}`, true},
		{`{"a":1}`, `{"a":1,"b":2}`, false},
		{`{"a":null}`, `{}`, false},
		{`[1,2]`, `[2,1]`, false},
		{`[1,[2]]`, "[ 1, [ 2 ] ]", true},
		{`true`, `true`, true},
		{`true`, `false`, false},
		{`null`, `null`, true},
		{`null`, `false`, false},
		{`{`, `{`, false},
		{``, ``, false},
		{`1 2`, `1 2`, false},
	} {
		if got := Equal([]byte(tc.a), []byte(tc.b)); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v", tc.a, tc.b, got)
		}
		if got := Equal([]byte(tc.b), []byte(tc.a)); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v", tc.b, tc.a, got)
		}
	}
}

func TestValidate(t *testing.T) {
	for doc, want := range map[string]string{
		``:           ``,
		"\n":         ``,
		`{}`:         ``,
		`{"a":[1]}`:  ``,
		`{"a":[1,]}`: "line 1, column 9: invalid character ']' looking for beginning of value",
		`5`:          "top-level value is a number, want an object",
	} {
		err := Validate([]byte(doc))
		if (err == nil) != (want == "") || (err != nil && err.Error() != want) {
			t.Errorf("Validate(%q) = %v, want %q", doc, err, want)
		}
	}
}

func TestTypeName(t *testing.T) {
	for raw, want := range map[string]string{
		`{}`: "an object", ` []`: "an array", `""`: "a string", `-1`: "a number",
		`false`: "a boolean", `null`: "null", ``: "nothing",
	} {
		if got := TypeName([]byte(raw)); got != want {
			t.Errorf("TypeName(%q) = %q, want %q", raw, got, want)
		}
	}
}

// The generated document is valid and spliced like any other.
func TestSpliceGenerated(t *testing.T) {
	doc := genClaudeJSON()
	if err := Validate(doc); err != nil {
		t.Fatal(err)
	}
	keys := benchKeys(doc)
	if out, changed, err := Splice(doc, keys); err != nil || changed || &out[0] != &doc[0] {
		t.Fatalf("in sync: changed=%v err=%v", changed, err)
	}
	keys[0].Raw = []byte(`{"only":{"command":"x"}}`)
	out, changed, err := Splice(doc, keys)
	if err != nil || !changed {
		t.Fatalf("write: changed=%v err=%v", changed, err)
	}
	if cap(out) != len(out) {
		t.Errorf("output capacity %d, length %d: not sized exactly", cap(out), len(out))
	}
	want := []byte("\"mcpServers\": {\n    \"only\": {\n      \"command\": \"x\"\n    }\n  }")
	if !bytes.Contains(out, want) {
		t.Errorf("output lacks %s", want)
	}
	if err := Validate(out); err != nil {
		t.Fatal(err)
	}
}

// Nesting is bounded as encoding/json bounds it; gjson's validator, which
// recurses, never sees deeper input.
func TestSpliceDepth(t *testing.T) {
	nest := func(n int) []byte {
		return []byte(`{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `,"b":1}`)
	}
	ok := nest(maxDepth - 1)
	if out, changed, err := Splice(ok, []Key{key("b", `2`)}); err != nil || !changed {
		t.Fatalf("depth %d: changed=%v err=%v", maxDepth, changed, err)
	} else if err := Validate(out); err != nil {
		t.Fatal(err)
	}
	deep := nest(maxDepth)
	for _, keys := range [][]Key{{key("b", `1`)}, {key("b", `2`)}} {
		_, _, err := Splice(deep, keys)
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(se.Msg, "exceeded max depth") {
			t.Errorf("depth %d: %v", maxDepth+1, err)
		}
	}
	if err := Validate(deep); err == nil {
		t.Error("Validate accepts too deep a document")
	}
	raw := []byte(strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth))
	if _, _, err := Splice([]byte(`{}`), []Key{{Name: "a", Raw: raw}}); err == nil {
		t.Error("too deep a value accepted")
	}
}

func TestPath(t *testing.T) {
	doc := []byte(`{"projects": {"/a.b": {"hasTrustDialogAccepted": true, "x": [1]}, "/c": 5}, "n": 1}`)
	for _, tt := range []struct {
		names []string
		want  string
		ok    bool
	}{
		{[]string{"projects", "/a.b", "hasTrustDialogAccepted"}, "true", true},
		{[]string{"projects", "/a.b", "x"}, "[1]", true},
		{[]string{"projects", "/c", "hasTrustDialogAccepted"}, "", false},
		{[]string{"projects", "/missing"}, "", false},
		{[]string{"n"}, "1", true},
		{[]string{"nope", "x"}, "", false},
	} {
		raw, ok, err := Path(doc, tt.names...)
		if err != nil || ok != tt.ok || string(raw) != tt.want {
			t.Errorf("Path(%q) = %s, %v, %v; want %s, %v", tt.names, raw, ok, err, tt.want, tt.ok)
		}
	}
	if _, _, err := Path([]byte(`{"projects": `), "projects", "x"); err == nil {
		t.Error("a damaged document gave no error")
	}
}
