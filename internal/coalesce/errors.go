package coalesce

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// A SyntaxError reports invalid JSON at a position a person can find in an
// editor: Line and Column are 1-based, and Column counts characters (UTF-8
// sequences), not bytes.
type SyntaxError struct {
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// syntaxError describes why doc is not valid JSON. It runs encoding/json's
// scanner over doc, so it belongs on error paths only.
func syntaxError(doc []byte) error {
	if bytes.HasPrefix(doc, []byte("\xef\xbb\xbf")) {
		// Some Windows editors start a UTF-8 file with one; JSON.parse and
		// encoding/json both refuse it, as "invalid character 'ï'".
		return &SyntaxError{Line: 1, Column: 1, Msg: "the file starts with a UTF-8 byte order mark (BOM), which JSON does not allow; save it as UTF-8 without BOM"}
	}
	var v struct{}
	err := json.Unmarshal(doc, &v)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		// encoding/json accepts what our validator or scanner rejected. This
		// does not happen for any input we know of.
		return &SyntaxError{Line: 1, Column: 1, Msg: "invalid JSON, or nested more than 10000 levels deep"}
	}
	// Offset counts the bytes read, the offending one included, except at
	// the end of the input, where it is the length of the input.
	pos := int(se.Offset) - 1
	if se.Error() == "unexpected end of JSON input" || pos < 0 {
		pos = int(se.Offset)
	}
	pos = min(pos, len(doc))
	line := 1 + bytes.Count(doc[:pos], []byte{'\n'})
	start := bytes.LastIndexByte(doc[:pos], '\n') + 1
	return &SyntaxError{
		Line:   line,
		Column: 1 + utf8.RuneCount(doc[start:pos]),
		Msg:    se.Error(),
	}
}

// notObjectError explains why doc, whose first non-space byte is not '{', is
// not an object: invalid JSON, or another type of value.
func notObjectError(doc []byte) error {
	if !json.Valid(doc) { // not gjson: it recurses, without a depth limit
		return syntaxError(doc)
	}
	return fmt.Errorf("top-level value is %s, want an object", typeName(doc[skipSpace(doc, 0)]))
}

// typeName names the type of the JSON value starting with c, with its article.
func typeName(c byte) string {
	switch c {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// TypeName names the type of a valid JSON value with its article, as error
// messages use it: "an object", "an array", "a string", "a number", "a
// boolean", "null".
func TypeName(raw []byte) string {
	i := skipSpace(raw, 0)
	if i == len(raw) {
		return "nothing"
	}
	return typeName(raw[i])
}
