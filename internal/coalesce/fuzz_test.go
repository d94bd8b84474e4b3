package coalesce

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"testing"
	"unicode/utf8"
)

// The fuzz targets check Splice and Settings against encoding/json, which
// shares no code with the package's scanner.

// oMember is a top-level member as encoding/json's decoder reads it.
type oMember struct {
	name string
	raw  []byte
}

// oracleObject reports whether doc is what Splice accepts: blank, or a valid
// JSON object.
func oracleObject(doc []byte) bool {
	t := bytes.TrimLeft(doc, " \t\r\n")
	return len(t) == 0 || (t[0] == '{' && json.Valid(doc))
}

func blank(doc []byte) bool { return len(bytes.TrimLeft(doc, " \t\r\n")) == 0 }

// oracleMembers lists the top-level members of doc, a blank document or a
// valid object.
func oracleMembers(t *testing.T, doc []byte) []oMember {
	t.Helper()
	if blank(doc) {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(doc))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %v %v", tok, err)
	}
	var members []oMember
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			t.Fatal(err)
		}
		var raw json.RawMessage
		if err := d.Decode(&raw); err != nil {
			t.Fatal(err)
		}
		members = append(members, oMember{tok.(string), raw})
	}
	return members
}

// oracleEqual compares two values as JSON.parse would read them.
func oracleEqual(a, b []byte) bool {
	return reflect.DeepEqual(oracleDecode(a), oracleDecode(b))
}

func oracleDecode(raw []byte) any {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return err.Error()
	}
	return oracleNumbers(v)
}

// oracleNumbers turns json.Numbers into doubles, as JavaScript holds them.
func oracleNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil && !math.IsInf(f, 0) {
			panic(err)
		}
		return f
	case []any:
		for i := range v {
			v[i] = oracleNumbers(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = oracleNumbers(v[k])
		}
	}
	return v
}

// checkSplice checks the output of a successful Splice of keys into doc.
func checkSplice(t *testing.T, doc, out []byte, changed bool, keys []Key) {
	t.Helper()
	if !changed {
		if !bytes.Equal(out, doc) || (len(doc) > 0 && &out[0] != &doc[0]) {
			t.Fatalf("unchanged, but out is not doc")
		}
		if blank(doc) {
			for _, k := range keys {
				if k.Raw != nil {
					t.Fatalf("blank document unchanged but %q wanted", k.Name)
				}
			}
			return
		}
	}
	if !json.Valid(out) {
		t.Fatalf("invalid output %q", out)
	}
	want := map[string][]byte{}
	managed := map[string]bool{}
	for _, k := range keys {
		managed[k.Name] = true
		if k.Raw != nil {
			want[k.Name] = k.Raw
		}
	}
	var before, after []oMember
	for _, m := range oracleMembers(t, doc) {
		if !managed[m.name] {
			before = append(before, m)
		}
	}
	seen := map[string]int{}
	for _, m := range oracleMembers(t, out) {
		if !managed[m.name] {
			after = append(after, m)
			continue
		}
		seen[m.name]++
		w, ok := want[m.name]
		if !ok {
			t.Fatalf("removed key %q still in output", m.name)
		}
		if !oracleEqual(m.raw, w) {
			t.Fatalf("key %q = %s, want %s", m.name, m.raw, w)
		}
	}
	for name := range want {
		if seen[name] != 1 {
			t.Fatalf("key %q appears %d times", name, seen[name])
		}
	}
	if len(before) != len(after) {
		t.Fatalf("unmanaged members: %d before, %d after", len(before), len(after))
	}
	for i := range before {
		if before[i].name != after[i].name || !bytes.Equal(before[i].raw, after[i].raw) {
			t.Fatalf("unmanaged member %d: %q=%s became %q=%s",
				i, before[i].name, before[i].raw, after[i].name, after[i].raw)
		}
	}
	again, changed, err := Splice(out, keys)
	if err != nil || changed || !bytes.Equal(again, out) {
		t.Fatalf("second splice: changed=%v err=%v", changed, err)
	}
}

// checkInvalid checks that an invalid document is reported, or left alone.
func checkInvalid(t *testing.T, doc, out []byte, changed bool, err error) {
	t.Helper()
	if err == nil && (changed || !bytes.Equal(out, doc)) {
		t.Fatalf("invalid document %q rewritten as %q", doc, out)
	}
	if err != nil && (out != nil || changed) {
		t.Fatalf("error %v with output %q", err, out)
	}
}

func rawOrNil(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

func FuzzSplice(f *testing.F) {
	f.Add([]byte(`{"a":1,"mcpServers":{}}`), "mcpServers", []byte(`{"x":{"command":"c"}}`), "gone", []byte(nil))
	f.Add([]byte("{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}\n"), "b", []byte(`[2]`), "c", []byte(`{"d":null}`))
	f.Add([]byte(`{}`), "k", []byte(`"v"`), "k2", []byte(`[]`))
	f.Add([]byte(``), "k", []byte(`1`), "j", []byte(nil))
	f.Add([]byte(`{"m":1,"b":2,"m":3}`), "m", []byte(`3`), "b", []byte(nil))
	f.Add([]byte(`{"cl\u00e9":1,"a.b":2}`), "clé", []byte(`1.0`), "a.b", []byte(nil))
	f.Add([]byte(`{"a":[1,,2],"b":1}`), "b", []byte(`2`), "a", []byte(nil))
	f.Add([]byte(`[1]`), "a", []byte(`1`), "b", []byte(nil))
	f.Add([]byte(`{"a":"\"}]","b":{"c":[{}]}}`), "b", []byte(`{"c":[{}]}`), "a", []byte(`"x"`))
	f.Fuzz(func(t *testing.T, doc []byte, name1 string, raw1 []byte, name2 string, raw2 []byte) {
		keys := []Key{{Name: name1, Raw: rawOrNil(raw1)}, {Name: name2, Raw: rawOrNil(raw2)}}
		orig := bytes.Clone(doc)
		out, changed, err := Splice(doc, keys)
		if !bytes.Equal(doc, orig) {
			t.Fatal("input modified")
		}
		pieces, check, perr := SplicePieces(doc, keys)
		if perr == nil && check != nil {
			perr = check()
		}
		if pchanged := pieces != nil; pchanged != changed && perr == nil || (perr == nil) != (err == nil) || err == nil && changed && !bytes.Equal(join(pieces), out) {
			t.Fatalf("SplicePieces disagrees with Splice: changed %v/%v, err %v/%v", pieces != nil, changed, perr, err)
		}
		keysOK := name1 != name2
		for _, k := range keys {
			keysOK = keysOK && utf8.ValidString(k.Name) && (k.Raw == nil || json.Valid(k.Raw))
		}
		switch {
		case !keysOK:
			if err == nil {
				t.Fatalf("invalid keys accepted: %q", keys)
			}
		case oracleObject(doc):
			if err != nil {
				t.Fatal(err)
			}
			checkSplice(t, doc, out, changed, keys)
		case json.Valid(doc):
			if err == nil {
				t.Fatalf("non-object %q accepted", doc)
			}
		default:
			checkInvalid(t, doc, out, changed, err)
		}
	})
}

func FuzzSettings(f *testing.F) {
	f.Add([]byte(`{"model":"opus","env":{"A":"1"}}`), []byte(`{"env":{"A":"2"},"permissions":{"allow":[]}}`), "hooks", "env")
	f.Add([]byte("{\n  \"hooks\": {},\n  \"model\": \"opus\"\n}\n"), []byte(`{}`), "hooks", "statusLine")
	f.Add([]byte(``), []byte(`{"a":1,"a":2}`), "a", "a")
	f.Add([]byte(`{"a":1}`), []byte(``), "a", "")
	f.Add([]byte(`{"a":1,}`), []byte(`{"a":2}`), "", "")
	f.Add([]byte(`{"a":1}`), []byte(`{"a":}`), "", "")
	f.Fuzz(func(t *testing.T, runtime, declared []byte, prev1, prev2 string) {
		origR, origD := bytes.Clone(runtime), bytes.Clone(declared)
		previous := []string{prev1, prev2}
		out, changed, err := Settings(runtime, declared, previous)
		if !bytes.Equal(runtime, origR) || !bytes.Equal(declared, origD) {
			t.Fatal("input modified")
		}
		if !oracleObject(declared) {
			if err == nil {
				t.Fatalf("invalid declared %q accepted", declared)
			}
			return
		}
		var keys []Key
		index := map[string]int{}
		for _, m := range oracleMembers(t, declared) {
			if i, ok := index[m.name]; ok {
				keys[i].Raw = m.raw
				continue
			}
			index[m.name] = len(keys)
			keys = append(keys, Key{Name: m.name, Raw: m.raw})
		}
		namesOK := true
		for _, name := range previous {
			if _, ok := index[name]; !ok {
				index[name] = len(keys)
				keys = append(keys, Key{Name: name})
				namesOK = namesOK && utf8.ValidString(name)
			}
		}
		switch {
		case !namesOK:
			if err == nil {
				t.Fatalf("invalid names accepted: %q", previous)
			}
		case oracleObject(runtime):
			if err != nil {
				t.Fatal(err)
			}
			checkSplice(t, runtime, out, changed, keys)
		case json.Valid(runtime):
			if err == nil {
				t.Fatalf("non-object %q accepted", runtime)
			}
		default:
			checkInvalid(t, runtime, out, changed, err)
		}
	})
}

// FuzzEqual holds Equal, with its shortcuts for the same bytes and the same
// tokens, to what decoding both values gives.
func FuzzEqual(f *testing.F) {
	for _, s := range [][2]string{
		{`{"a":1}`, "{ \"a\" : 1 }"},
		{`{"a":"x y"}`, `{"a":"xy"}`},
		{`"a\" b"`, `"a\"b"`},
		{`"a\\" `, `"a\\"`},
		{`[1 2]`, `[12]`},
		{`tr ue`, `true`},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`},
		{`1.0`, `1`},
		{`"\u0041"`, `"A"`},
		{`{"a":[1,{"b":null}]}`, "{\"a\":[1,\n{\"b\":null}]}\n"},
	} {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		want := false
		if va, ok := decode(trimSpace(a)); ok {
			if vb, ok := decode(trimSpace(b)); ok {
				want = equalValue(va, vb)
			}
		}
		if got := Equal(a, b); got != want {
			t.Fatalf("Equal(%q, %q) = %v, decoding both says %v", a, b, got, want)
		}
	})
}
