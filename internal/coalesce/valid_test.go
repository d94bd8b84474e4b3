package coalesce

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for _, doc := range []string{
		``, ` `, `{}`, `[]`, `{"a":1}`, `{"a":1,}`, `[1,]`, `[,1]`, `{"a" 1}`, `{"a":}`, `{,"a":1}`,
		`"abc"`, `"a\"b"`, `"\u00e9"`, `"\u00g0"`, `"\x"`, "\"a\tb\"", `"unterminated`, `"ends in \`,
		`0`, `-0`, `01`, `1.`, `1.5`, `1e5`, `1E+5`, `1e`, `-`, `.5`, `+1`, `tru`, `true`, `truex`, `nul`, `null`,
		`[true,false,null]`, `{"a":{"b":[1,{"c":"d"}]}}`, `{"a":1}}`, `[[]`, `]`, `}`,
		`"12345678abcdefgh\"ijklmnop"`, `"0123456789abcdef0123456789` + "\x01" + `"`,
		`{"k":"` + strings.Repeat("long text ", 100) + `"}`, "\xff", `"\xff\xfe"`,
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001), strings.Repeat("[", 9999) + strings.Repeat("]", 9999),
	} {
		if got, want := valid([]byte(doc)), json.Valid([]byte(doc)); got != want {
			t.Errorf("valid(%.60q) = %v, encoding/json says %v", doc, got, want)
		}
	}
}

// FuzzValid holds valid to encoding/json.Valid on any input.
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5e-3,"x\u0041\n"],"b":{"c":null}}`, `[`, `"\`, `{"a":"12345678\"9"}`, "\"\x1f\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if got, want := valid(doc), json.Valid(doc); got != want {
			t.Fatalf("valid(%q) = %v, encoding/json says %v", doc, got, want)
		}
	})
}

func BenchmarkValid20MB(b *testing.B) {
	doc := genClaudeJSON()
	b.SetBytes(int64(len(doc)))
	for i := 0; i < b.N; i++ {
		if !valid(doc) {
			b.Fatal("invalid")
		}
	}
}
