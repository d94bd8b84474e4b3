package coalesce

import (
	"bytes"
	"fmt"
)

// join copies pieces into one allocation of the right size.
func join(pieces [][]byte) []byte {
	size := 0
	for _, piece := range pieces {
		size += len(piece)
	}
	out := make([]byte, 0, size)
	for _, piece := range pieces {
		out = append(out, piece...)
	}
	return out
}

// A plan says what Splice does to each member and key.
type plan struct {
	owner   []int  // owner[i]: the index of the key member i holds, or -1
	first   []int  // first[k]: the first member holding key k, or -1
	same    []bool // same[k]: that member's value equals key k's Raw
	changed bool
}

// locate finds the members that hold managed keys and compares their values.
func locate(doc []byte, obj object, keys []Key) plan {
	p := plan{
		owner: make([]int, len(obj.members)),
		first: make([]int, len(keys)),
		same:  make([]bool, len(keys)),
	}
	for k := range p.first {
		p.first[k] = -1
	}
	count := make([]int, len(keys))
	for i, m := range obj.members {
		p.owner[i] = -1
		for k := range keys {
			if m.is(doc, keys[k].Name) {
				p.owner[i] = k
				count[k]++
				if p.first[k] < 0 {
					p.first[k] = i
				}
				break
			}
		}
	}
	for k, key := range keys {
		if key.Raw != nil && p.first[k] >= 0 {
			m := obj.members[p.first[k]]
			p.same[k] = equalValid(doc[m.val:m.end], key.Raw)
		}
		// In sync: absent and unwanted, or present once with its value.
		inSync := (key.Raw == nil && count[k] == 0) || (count[k] == 1 && p.same[k])
		p.changed = p.changed || !inSync
	}
	return p
}

// equalValid is Equal for a want that is known to be valid.
func equalValid(have, want []byte) bool {
	have, want = trimSpace(have), trimSpace(want)
	return bytes.Equal(have, want) || Equal(have, want)
}

func checkKeys(keys []Key) error {
	for i, key := range keys {
		if !validName(key.Name) {
			return fmt.Errorf("managed key %q: name is not valid UTF-8", key.Name)
		}
		for _, other := range keys[:i] {
			if other.Name == key.Name {
				return fmt.Errorf("managed key %q given twice", key.Name)
			}
		}
		if key.Raw != nil && !validRaw(key.Raw) {
			return fmt.Errorf("managed key %q: invalid value: %w", key.Name, syntaxError(key.Raw))
		}
	}
	return nil
}

// validRaw reports whether raw is one valid JSON value, nested no deeper than
// encoding/json allows.
func validRaw(raw []byte) bool {
	i := skipSpace(raw, 0)
	if i == len(raw) {
		return false
	}
	end := skipValue(raw, i)
	return end >= 0 && skipSpace(raw, end) == len(raw) && valid(raw)
}

// spliceBlank handles a document that counts as {}.
func spliceBlank(doc []byte, keys []Key) ([]byte, bool, error) {
	var out []byte
	st := claudeStyle
	for _, key := range keys {
		if key.Raw == nil {
			continue
		}
		if out == nil {
			out = append(out, '{')
		} else {
			out = append(out, ',')
		}
		out = append(out, st.lead...)
		out = appendQuote(out, key.Name)
		out = append(out, st.colon...)
		out = append(out, st.format(key.Raw)...)
	}
	if out == nil {
		return doc, false, nil
	}
	return append(out, "\n}\n"...), true, nil
}

// build splices the managed keys into doc, a valid object, following p.
func build(doc []byte, obj object, keys []Key, p plan) [][]byte {
	st := styleOf(doc, obj)
	const (
		keep = iota
		replace
		remove
	)
	n := len(obj.members)
	action := make([]uint8, n)
	value := make([][]byte, n)
	for i, k := range p.owner {
		switch {
		case k < 0:
			// Not managed: keep.
		case keys[k].Raw == nil || p.first[k] != i:
			action[i] = remove
		case !p.same[k]:
			action[i] = replace
			value[i] = st.format(keys[k].Raw)
		}
	}

	// Collect the pieces of the output; join copies them when asked.
	comma, closeBrace := []byte{','}, []byte{'}'}
	pieces := make([][]byte, 0, 4*n+5*len(keys)+4)
	pieces = append(pieces, doc[:obj.open+1])
	emitted := 0
	for i, m := range obj.members {
		if action[i] == remove {
			continue
		}
		if emitted > 0 {
			pieces = append(pieces, comma)
		}
		pieces = append(pieces, doc[m.lead:m.val]) // space, key, colon
		if action[i] == replace {
			pieces = append(pieces, value[i])
		} else {
			pieces = append(pieces, doc[m.val:m.end])
		}
		if i != n-1 {
			// Space before the comma. The last member's space before
			// the '}' closes the object below.
			pieces = append(pieces, doc[m.end:m.next])
		}
		emitted++
	}
	for k, key := range keys {
		if p.first[k] >= 0 || key.Raw == nil {
			continue
		}
		if emitted > 0 {
			pieces = append(pieces, comma)
		}
		pieces = append(pieces, st.lead, appendQuote(nil, key.Name), st.colon, st.format(key.Raw))
		emitted++
	}
	switch {
	case emitted == 0:
		// Everything was removed: JSON.stringify writes {} for an
		// empty object, whatever the indentation.
		pieces = append(pieces[:1], closeBrace, doc[obj.close+1:])
	case n == 0:
		pieces = append(pieces, []byte("\n"), doc[obj.close:])
	default:
		pieces = append(pieces, doc[obj.members[n-1].end:])
	}
	return pieces
}
