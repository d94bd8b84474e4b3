package coalesce

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
)

// Equal reports whether two JSON values are the same value to JSON.parse, which
// is how Claude Code reads its files:
//
//   - whitespace and formatting do not count;
//   - strings compare by their unescaped content ("\u0041" equals "A");
//   - numbers compare as IEEE 754 doubles, as JavaScript holds them (1, 1.0 and
//     1e0 are equal);
//   - objects compare by their members, whatever their order; a name given
//     twice takes its last value, as JSON.parse does;
//   - arrays compare element by element, in order.
//
// An invalid value equals nothing.
func Equal(a, b []byte) bool {
	a, b = trimSpace(a), trimSpace(b)
	if bytes.Equal(a, b) {
		return len(a) > 0 && validValue(a)
	}
	if sameTokens(a, b) && validValue(a) && validValue(b) {
		// The same tokens in the same order parse to the same value.
		return true
	}
	va, ok := decode(a)
	if !ok {
		return false
	}
	vb, ok := decode(b)
	if !ok {
		return false
	}
	return equalValue(va, vb)
}

// validValue reports whether raw is one valid JSON value: valid, which
// FuzzValid holds to encoding/json, without decoding it (identical bytes
// are the common case of a launch in sync, where decoding them was about 8%
// of its CPU).
func validValue(raw []byte) bool { return valid(raw) }

// sameTokens reports whether a and b are the same bytes but for whitespace
// outside strings: how one value reads after Claude re-indents it, or in the
// launcher's compact record of it. A launch in sync compares a dozen such
// pairs; decoding both (encoding/json, with its first-use costs in a fresh
// process) was about 40% of the plan's time to Claude's start. Invalid JSON
// may match too, so a true result counts only when both are valid; a false
// one proves nothing (key order, escapes, 1 against 1.0), and Equal then
// decodes.
func sameTokens(a, b []byte) bool {
	i, j := 0, 0
	inString, escaped := false, false
	for {
		if !inString {
			for i < len(a) && isSpace(a[i]) {
				i++
			}
			for j < len(b) && isSpace(b[j]) {
				j++
			}
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		c := a[i]
		if c != b[j] {
			return false
		}
		i, j = i+1, j+1
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		}
	}
}

func trimSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && isSpace(b[i]) {
		i++
	}
	for j > i && isSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

// decode decodes one JSON value, keeping numbers as written.
func decode(raw []byte) (any, bool) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, false
	}
	return v, true
}

func equalValue(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, va := range a {
			vb, ok := b[k]
			if !ok || !equalValue(va, vb) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equalValue(a[i], b[i]) {
				return false
			}
		}
		return true
	case json.Number:
		b, ok := b.(json.Number)
		return ok && equalNumber(a, b)
	case string:
		b, ok := b.(string)
		return ok && a == b
	case bool:
		b, ok := b.(bool)
		return ok && a == b
	case nil:
		return b == nil
	}
	return false
}

// equalNumber compares numbers as doubles; out-of-range numbers are ±Inf, as
// in JavaScript.
func equalNumber(a, b json.Number) bool {
	if a == b {
		return true
	}
	fa, errA := strconv.ParseFloat(string(a), 64)
	fb, errB := strconv.ParseFloat(string(b), 64)
	if (errA != nil && !isRange(errA)) || (errB != nil && !isRange(errB)) {
		return false
	}
	return fa == fb
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
