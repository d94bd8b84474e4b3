package coalesce

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// A member is one top-level member of the document's object, as byte offsets
// into the document:
//
//	{  "name"  :  value  ,
//	 ^lead       ^val   ^next
//	   ^key  ^keyEnd   ^end
type member struct {
	lead   int  // first byte after the '{' or ',' before the member
	key    int  // the key's opening quote
	keyEnd int  // first byte after the key's closing quote
	val    int  // first byte of the value
	end    int  // first byte after the value
	next   int  // the ',' or '}' after the member
	plain  bool // the key is ASCII without escapes: its name is its bytes
}

// An object is the top level of a document.
type object struct {
	open, close int // the '{' and the '}'
	members     []member
}

// name returns the member's key as JSON.parse sees it: unescaped, invalid
// UTF-8 replaced by U+FFFD. ok is false if the key is not a valid string.
func (m member) name(doc []byte) (name string, ok bool) {
	if m.plain {
		return string(doc[m.key+1 : m.keyEnd-1]), true
	}
	if err := json.Unmarshal(doc[m.key:m.keyEnd], &name); err != nil {
		return "", false
	}
	return name, true
}

// is reports whether the member's key is name, without allocating for plain keys.
func (m member) is(doc []byte, name string) bool {
	if m.plain {
		return string(doc[m.key+1:m.keyEnd-1]) == name
	}
	n, ok := m.name(doc)
	return ok && n == name
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

func skipSpace(doc []byte, i int) int {
	for i < len(doc) && isSpace(doc[i]) {
		i++
	}
	return i
}

// isBlank reports whether doc is empty or JSON whitespace only.
func isBlank(doc []byte) bool { return skipSpace(doc, 0) == len(doc) }

// scanObject locates the members of the top-level object of doc in one pass.
// It checks the top level strictly (braces, keys, colons, commas, nothing after
// the object) but nested values only loosely: strings must end and brackets must
// balance. Callers that write validate the whole document first.
//
// On failure it returns a *SyntaxError or, for a valid non-object, an error
// naming the type; both are computed on this error path only.
func scanObject(doc []byte) (object, error) {
	var obj object
	n := len(doc)
	i := skipSpace(doc, 0)
	if i == n || doc[i] != '{' {
		return obj, notObjectError(doc)
	}
	obj.open = i
	i++
	lead := i
	i = skipSpace(doc, i)
	if i < n && doc[i] == '}' {
		obj.close = i
		return obj, trailer(doc, i+1)
	}
	members := make([]member, 0, 32)
	for {
		if i >= n || doc[i] != '"' {
			return obj, syntaxError(doc)
		}
		m := member{lead: lead, key: i}
		m.keyEnd, m.plain = scanKey(doc, i)
		if m.keyEnd < 0 {
			return obj, syntaxError(doc)
		}
		i = skipSpace(doc, m.keyEnd)
		if i >= n || doc[i] != ':' {
			return obj, syntaxError(doc)
		}
		i = skipSpace(doc, i+1)
		m.val = i
		m.end = skipValue(doc, i)
		if m.end < 0 {
			return obj, syntaxError(doc)
		}
		i = skipSpace(doc, m.end)
		if i >= n {
			return obj, syntaxError(doc)
		}
		m.next = i
		members = append(members, m)
		if doc[i] == '}' {
			obj.close = i
			obj.members = members
			return obj, trailer(doc, i+1)
		}
		if doc[i] != ',' {
			return obj, syntaxError(doc)
		}
		i++
		lead = i
		i = skipSpace(doc, i)
	}
}

// trailer checks that only whitespace follows the object.
func trailer(doc []byte, i int) error {
	if skipSpace(doc, i) != len(doc) {
		return syntaxError(doc)
	}
	return nil
}

// scanKey returns the end of the string starting at doc[i] (a quote) and
// whether it is plain: ASCII without escapes. end is -1 if the string does not end
// or holds a control character.
func scanKey(doc []byte, i int) (end int, plain bool) {
	plain = true
	for j := i + 1; j < len(doc); j++ {
		switch c := doc[j]; {
		case c == '"':
			return j + 1, plain
		case c == '\\':
			plain = false
			j++
		case c < 0x20:
			return -1, false
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	return -1, false
}

// skipValue returns the end of the value starting at doc[i], or -1.
func skipValue(doc []byte, i int) int {
	if i >= len(doc) {
		return -1
	}
	switch c := doc[i]; c {
	case '{', '[':
		return skipContainer(doc, i)
	case '"':
		return skipString(doc, i)
	case 't':
		return skipLiteral(doc, i, "true")
	case 'f':
		return skipLiteral(doc, i, "false")
	case 'n':
		return skipLiteral(doc, i, "null")
	default:
		if c != '-' && (c < '0' || c > '9') {
			return -1
		}
		i++
		for i < len(doc) && numberByte[doc[i]] {
			i++
		}
		return i
	}
}

var numberByte = [256]bool{
	'0': true, '1': true, '2': true, '3': true, '4': true,
	'5': true, '6': true, '7': true, '8': true, '9': true,
	'.': true, 'e': true, 'E': true, '+': true, '-': true,
}

func skipLiteral(doc []byte, i int, lit string) int {
	if !bytes.HasPrefix(doc[i:], []byte(lit)) {
		return -1
	}
	return i + len(lit)
}

// skipString returns the end of the string starting at doc[i] (a quote), or -1.
// It finds quotes with bytes.IndexByte, which is vectorised: most of a large
// .claude.json is string content (prompt history).
func skipString(doc []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(doc[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		// The quote ends the string unless an odd number of backslashes
		// precedes it. doc[i] is a quote, so the walk back stops there.
		p := j - 1
		for doc[p] == '\\' {
			p--
		}
		if (j-1-p)%2 == 0 {
			return j + 1
		}
		j++
	}
}

// structural classifies the bytes that matter when skipping a container.
var structural = [256]uint8{'"': 1, '{': 2, '[': 2, '}': 3, ']': 3}

// maxDepth is encoding/json's limit on nesting, counting the top-level
// object. Enforcing it here keeps the validators and
// encoding/json's formatting within bounds on hostile input.
const maxDepth = 10000

// skipContainer returns the end of the object or array starting at doc[i],
// a member of the top-level object, or -1 if it does not end or nests deeper
// than maxDepth. Only strings and bracket depth are tracked.
func skipContainer(doc []byte, i int) int {
	depth := 0
	n := len(doc)
	for i < n {
		// Skip uninteresting bytes (whitespace, numbers, literals, ':' and ','),
		// eight at a time while possible.
		for i+8 <= n {
			b := doc[i : i+8 : i+8]
			if structural[b[0]]|structural[b[1]]|structural[b[2]]|structural[b[3]]|
				structural[b[4]]|structural[b[5]]|structural[b[6]]|structural[b[7]] != 0 {
				break
			}
			i += 8
		}
		for i < n && structural[doc[i]] == 0 {
			i++
		}
		if i == n {
			return -1
		}
		switch structural[doc[i]] {
		case 1:
			i = skipString(doc, i)
			if i < 0 {
				return -1
			}
		case 2:
			depth++
			i++
			if depth >= maxDepth {
				return -1
			}
		case 3:
			depth--
			i++
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
