package coalesce

import (
	"bytes"
	"encoding/binary"
)

// valid reports whether doc is one JSON value (RFC 8259) with optional
// surrounding whitespace, exactly as encoding/json.Valid does (invalid UTF-8
// inside strings is accepted, as there; nesting deeper than 10000 is not).
//
// Why not gjson.ValidBytes: it validates at about 500 MB/s here, which made
// validation the slowest part of rewriting a 20 MB .claude.json (41 ms
// against 5 ms to find the keys and 6 ms to write). This one skips string
// bodies (most of a .claude.json: history text) eight bytes at a time. The
// fuzz target FuzzValid holds it to encoding/json.Valid.
func valid(doc []byte) bool {
	i := skipWS(doc, 0)
	// stack holds '{' or '[' for every open container.
	stack := make([]byte, 0, 64)
	for {
		// A value starts at i.
		if i >= len(doc) {
			return false
		}
		switch c := doc[i]; c {
		case '{':
			if len(stack) == maxDepth {
				return false
			}
			i = skipWS(doc, i+1)
			if i < len(doc) && doc[i] == '}' {
				i++
				break
			}
			stack = append(stack, '{')
			var ok bool
			if i, ok = objectKey(doc, i); !ok {
				return false
			}
			continue
		case '[':
			if len(stack) == maxDepth {
				return false
			}
			i = skipWS(doc, i+1)
			if i < len(doc) && doc[i] == ']' {
				i++
				break
			}
			stack = append(stack, '[')
			continue
		case '"':
			var ok bool
			if i, ok = validString(doc, i+1); !ok {
				return false
			}
		case 't':
			if !hasWord(doc, i, "true") {
				return false
			}
			i += 4
		case 'f':
			if !hasWord(doc, i, "false") {
				return false
			}
			i += 5
		case 'n':
			if !hasWord(doc, i, "null") {
				return false
			}
			i += 4
		default:
			var ok bool
			if i, ok = skipNumber(doc, i); !ok {
				return false
			}
		}
		// After a value: close containers, or a comma and the next value.
		for {
			i = skipWS(doc, i)
			if len(stack) == 0 {
				return i == len(doc)
			}
			if i >= len(doc) {
				return false
			}
			top := stack[len(stack)-1]
			switch {
			case doc[i] == ',':
				i = skipWS(doc, i+1)
				if top == '{' {
					var ok bool
					if i, ok = objectKey(doc, i); !ok {
						return false
					}
				}
			case top == '{' && doc[i] == '}', top == '[' && doc[i] == ']':
				stack = stack[:len(stack)-1]
				i++
				continue
			default:
				return false
			}
			break
		}
	}
}

// objectKey reads `"name" :` at i and returns where the value starts.
func objectKey(doc []byte, i int) (int, bool) {
	if i >= len(doc) || doc[i] != '"' {
		return i, false
	}
	i, ok := validString(doc, i+1)
	if !ok {
		return i, false
	}
	i = skipWS(doc, i)
	if i >= len(doc) || doc[i] != ':' {
		return i, false
	}
	return skipWS(doc, i+1), true
}

// validString returns the index after the closing quote of a string whose
// body starts at i, checking escapes and control characters on the way. It
// jumps from quote to backslash with bytes.IndexByte (vectorised) and checks
// the plain runs between them for control characters eight bytes at a time.
func validString(doc []byte, i int) (int, bool) {
	for {
		q := bytes.IndexByte(doc[i:], '"')
		if q < 0 {
			return i, false
		}
		q += i
		for {
			b := bytes.IndexByte(doc[i:q], '\\')
			if b < 0 {
				if hasControl(doc[i:q]) {
					return i, false
				}
				return q + 1, true
			}
			b += i
			if hasControl(doc[i:b]) || b+1 >= len(doc) {
				return i, false
			}
			switch doc[b+1] {
			case '"':
				// An escaped quote: it was the candidate end if b+1 == q.
				i = b + 2
				if b+1 == q {
					break
				}
				continue
			case '\\', '/', 'b', 'f', 'n', 'r', 't':
				i = b + 2
				continue
			case 'u':
				if b+6 > len(doc) || !isHex(doc[b+2]) || !isHex(doc[b+3]) || !isHex(doc[b+4]) || !isHex(doc[b+5]) {
					return i, false
				}
				i = b + 6
				if i > q {
					// The "quote" was inside \uXXXX (impossible: hex digits), but
					// stay exact: look for the end again.
					break
				}
				continue
			default:
				return i, false
			}
			break
		}
	}
}

// hasControl reports whether s holds a byte below 0x20, which JSON strings
// may not contain unescaped.
func hasControl(s []byte) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if hasLess(binary.LittleEndian.Uint64(s[i:]), 0x20) != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if s[i] < 0x20 {
			return true
		}
	}
	return false
}

const (
	lo = 0x0101010101010101
	hi = 0x8080808080808080
)

// hasLess sets the high bit of bytes of w below n (n <= 128), with the same
// harmless false positives.
func hasLess(w uint64, n uint64) uint64 { return (w - lo*n) &^ w & hi }

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hasWord(doc []byte, i int, w string) bool {
	return len(doc)-i >= len(w) && string(doc[i:i+len(w)]) == w
}

// skipNumber reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at i.
func skipNumber(doc []byte, i int) (int, bool) {
	if i < len(doc) && doc[i] == '-' {
		i++
	}
	switch {
	case i < len(doc) && doc[i] == '0':
		i++
	case i < len(doc) && doc[i] >= '1' && doc[i] <= '9':
		i = digits(doc, i)
	default:
		return i, false
	}
	if i < len(doc) && doc[i] == '.' {
		j := digits(doc, i+1)
		if j == i+1 {
			return i, false
		}
		i = j
	}
	if i < len(doc) && (doc[i] == 'e' || doc[i] == 'E') {
		i++
		if i < len(doc) && (doc[i] == '+' || doc[i] == '-') {
			i++
		}
		j := digits(doc, i)
		if j == i {
			return i, false
		}
		i = j
	}
	return i, true
}

func digits(doc []byte, i int) int {
	for i < len(doc) && doc[i] >= '0' && doc[i] <= '9' {
		i++
	}
	return i
}

func skipWS(doc []byte, i int) int {
	for i < len(doc) {
		switch doc[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}
