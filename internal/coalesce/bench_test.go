package coalesce

import (
	"bytes"
	"testing"
)

// The managed keys of a typical launch: the merged MCP servers and the
// identity seed.
func benchKeys(doc []byte) []Key {
	ident, _ := Get(doc, "oauthAccount")
	return []Key{
		{Name: "mcpServers", Raw: genServersJSON()},
		{Name: "oauthAccount", Raw: ident},
		{Name: "hasCompletedOnboarding", Raw: []byte("true")},
	}
}

// BenchmarkSpliceInSync20MB is the common launch: nothing to change. It must
// not validate or copy the document.
func BenchmarkSpliceInSync20MB(b *testing.B) {
	doc := genClaudeJSON()
	keys := benchKeys(doc)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, changed, err := Splice(doc, keys)
		if err != nil || changed || len(out) != len(doc) {
			b.Fatal(changed, err)
		}
	}
}

// BenchmarkSpliceWrite20MB changes mcpServers: validate, splice, one copy.
func BenchmarkSpliceWrite20MB(b *testing.B) {
	doc := genClaudeJSON()
	keys := benchKeys(doc)
	keys[0].Raw = []byte(`{"only":{"command":"x"}}`)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, changed, err := Splice(doc, keys)
		if err != nil || !changed {
			b.Fatal(changed, err)
		}
	}
}

// BenchmarkCopy20MB is the floor of any write: one allocation and copy of the
// document.
func BenchmarkCopy20MB(b *testing.B) {
	doc := genClaudeJSON()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out := bytes.Clone(doc)
		if len(out) != len(doc) {
			b.Fatal("short copy")
		}
	}
}

// BenchmarkValidate20MB is the full validation that a write pays for, and
// the in-sync path does not.
func BenchmarkValidate20MB(b *testing.B) {
	doc := genClaudeJSON()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := Validate(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEqualSame is what a launch in sync compares most: a server or an
// account key whose bytes are what the launcher last wrote.
func BenchmarkEqualSame(b *testing.B) {
	v := []byte(`{"type":"stdio","command":"/bin/true","args":["--n","3"],"env":{"K":"3"}}`)
	w := bytes.Clone(v)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if !Equal(v, w) {
			b.Fatal("not equal")
		}
	}
}

// BenchmarkEqualReformatted is the other common pair of a launch in sync: a
// server as Claude indents it against the launcher's compact record of it.
func BenchmarkEqualReformatted(b *testing.B) {
	v := []byte(`{"type":"stdio","command":"/bin/true","args":["--n","3"],"env":{"K":"3"}}`)
	w := []byte("{\n      \"type\": \"stdio\",\n      \"command\": \"/bin/true\",\n      \"args\": [\n        \"--n\",\n        \"3\"\n      ],\n      \"env\": {\n        \"K\": \"3\"\n      }\n    }")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if !Equal(v, w) {
			b.Fatal("not equal")
		}
	}
}
