package generate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// unknownFieldError carries the field json.Decoder rejected.
type unknownFieldError struct{ field string }

func (e *unknownFieldError) Error() string { return "unknown field " + strconv.Quote(e.field) }

// strictDecode decodes exactly one JSON value: numbers stay json.Number,
// unknown struct fields and trailing data are errors.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			if uq, err2 := strconv.Unquote(f); err2 == nil {
				return &unknownFieldError{field: uq}
			}
		}
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// jsonProblem turns a decode error into "must be X, not Y" or a located
// syntax error.
func jsonProblem(data []byte, err error, want string) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var ue *unknownFieldError
	switch {
	case errors.As(err, &se):
		line, col := lineCol(data, se.Offset)
		return fmt.Sprintf("invalid JSON at line %d, column %d: %v", line, col, se)
	case errors.As(err, &ue):
		return fmt.Sprintf("unknown field %q; must be %s", ue.field, want)
	case errors.As(err, &te):
		got := te.Value
		if te.Field != "" {
			return fmt.Sprintf("field %q must not be %s; must be %s", te.Field, got, want)
		}
		return fmt.Sprintf("must be %s, not %s", want, got)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return "invalid JSON: unexpected end of input"
	default:
		return fmt.Sprintf("must be %s: %v", want, err)
	}
}

// lineCol gives the 1-based line and column of the byte that ended a
// syntax error: Offset counts the bytes read, that byte included.
func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off > 0 {
		off--
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

func isNull(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	default:
		return "an object"
	}
}

// simpleAttr is a lazily compiled pattern: it is only needed to word an
// error, and compiling it at init would cost every launch of the program.
var simpleAttr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_'-]*$`) })

// attrName spells an attribute name as Nix does in an option path.
func attrName(name string) string {
	if simpleAttr().MatchString(name) {
		return name
	}
	return strconv.Quote(name)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
