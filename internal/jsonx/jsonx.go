// Package jsonx writes the launcher's own small JSON files without
// encoding/json's reflection: the first json.Marshal of a struct type costs
// about 200 µs in a fresh process, which the launch path pays on every start.
// Strings are still quoted by encoding/json (cheap for a plain string), so
// the output is exactly what json.Marshal would produce.
package jsonx

import (
	"encoding/json"
	"strconv"
)

// Field is one member of an object: a name and its already-encoded value.
type Field struct {
	Name  string
	Value []byte
}

// String encodes s as a JSON string.
func String(s string) []byte {
	b, _ := json.Marshal(s) // a string always encodes
	return b
}

// Int encodes n.
func Int(n int) []byte { return strconv.AppendInt(nil, int64(n), 10) }

// Object lays out fields as json.MarshalIndent(v, "", "  ") would with a
// trailing newline, or compact as json.Marshal would when indent is false.
func Object(indent bool, fields ...Field) []byte {
	out := []byte{'{'}
	for i, f := range fields {
		if i > 0 {
			out = append(out, ',')
		}
		if indent {
			out = append(out, "\n  "...)
		}
		out = append(out, String(f.Name)...)
		out = append(out, ':')
		if indent {
			out = append(out, ' ')
		}
		out = append(out, f.Value...)
	}
	if indent && len(fields) > 0 {
		out = append(out, '\n')
	}
	out = append(out, '}')
	if indent {
		out = append(out, '\n')
	}
	return out
}
