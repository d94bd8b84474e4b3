package coalesce

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// A style is how the document lays out its top-level members, learnt from its
// last member so that inserted members look like their neighbours.
type style struct {
	lead   []byte // whitespace before an inserted key, after the comma: "\n  "
	colon  []byte // between an inserted key and its value: ": "
	pretty bool   // values are indented (lead holds a newline)
	indent string // indentation of top-level members: "  "
	unit   string // one more level of indentation inside values
}

// claudeStyle is JSON.stringify(value, null, 2), what Claude Code writes; it
// is used for documents that have no member to learn from.
var claudeStyle = style{
	lead:   []byte("\n  "),
	colon:  []byte(": "),
	pretty: true,
	indent: "  ",
	unit:   "  ",
}

func styleOf(doc []byte, obj object) style {
	if len(obj.members) == 0 {
		return claudeStyle
	}
	m := obj.members[len(obj.members)-1]
	st := style{lead: doc[m.lead:m.key], colon: doc[m.keyEnd:m.val]}
	if nl := bytes.LastIndexByte(st.lead, '\n'); nl >= 0 {
		st.pretty = true
		st.indent = string(st.lead[nl+1:])
		st.unit = st.indent
		if st.unit == "" {
			st.unit = "  "
		}
	}
	return st
}

// format lays raw, a valid JSON value, out as the value of a top-level
// member in style st.
func (st style) format(raw []byte) []byte {
	raw = trimSpace(raw)
	var buf bytes.Buffer
	buf.Grow(len(raw) + len(raw)/4)
	var err error
	if st.pretty {
		err = json.Indent(&buf, raw, st.indent, st.unit)
	} else {
		err = json.Compact(&buf, raw)
	}
	if err != nil {
		// Valid for gjson, too deep for encoding/json: keep it as given.
		return raw
	}
	return buf.Bytes()
}

// appendQuote appends s as a JSON string, escaping what JSON requires and
// nothing else, as JSON.stringify does. s must be valid UTF-8.
func appendQuote(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// validName reports whether s can be a managed key: JSON strings hold Unicode
// text, and a name that is not valid UTF-8 would never read back equal.
func validName(s string) bool { return utf8.ValidString(s) }
