// Package coalesce sets the top-level keys an account owns in JSON files that
// Claude Code also writes (settings.json, .claude.json), keeping every other
// byte as Claude left it: the account owns the keys it declares, Claude owns
// the rest.
//
// .claude.json can be 100 MB of prompt history, so documents are never decoded
// whole. One pass over the top level locates its members; only the managed
// values are decoded and compared. Only when something must change is the whole
// document validated and the output built, by splicing bytes, in one
// allocation. The package does no file IO.
//
// Values compare as JSON.parse sees them (see [Equal]): a file that Claude
// re-indented, or whose objects list their members in another order, is in
// sync and is not rewritten.
//
// A top-level name given twice is read as JSON.parse reads it: the last value
// wins, at the position of the first. Splice leaves duplicates of keys it does
// not manage alone, byte for byte, and collapses a managed key given twice into
// one member at the first position, so that every reader, whichever occurrence
// it takes, sees the managed value.
//
// Invalid JSON is reported as a *SyntaxError and never rewritten. A document
// is validated in full only when it is about to be rewritten: an invalid
// document whose managed keys already hold their values is reported in sync,
// and left alone. An empty or all-whitespace document counts as {}.
package coalesce

import (
	"bytes"
	"fmt"
)

// A Key is one managed top-level key and the raw JSON value it must have;
// Raw == nil means the key must be absent (it was managed before and no longer
// is).
type Key struct {
	Name string
	Raw  []byte
}

// Splice returns doc with every key set to its Raw value and every other byte
// of doc unchanged: other keys, their order and their spacing.
//
// A key that exists has its value replaced whole, in place; one that does not
// is appended at the end of the top-level object; one whose Raw is nil is
// removed with its comma. Inserted values are laid out like the document:
// indented one level (with the document's own indentation) when the document
// is pretty-printed, compact when it is compact. A value that is already equal
// (see [Equal]) is not touched, even if formatted differently.
//
// changed is false, and out is doc itself, when every managed key already holds
// its value. Otherwise out is a new slice: doc is never modified. An empty or
// all-whitespace doc counts as {}; when keys are added to it, out is a
// pretty-printed object ending in a newline.
//
// Errors: a *SyntaxError for invalid JSON, an error naming the type for a
// top-level value that is not an object, and errors for keys whose name is
// not valid UTF-8, is given twice, or whose Raw is not one valid JSON value.
func Splice(doc []byte, keys []Key) (out []byte, changed bool, err error) {
	if err := checkKeys(keys); err != nil {
		return nil, false, err
	}
	if isBlank(doc) {
		return spliceBlank(doc, keys)
	}
	obj, err := scanObject(doc)
	if err != nil {
		return nil, false, err
	}

	p := locate(doc, obj, keys)
	if !p.changed {
		return doc, false, nil
	}
	if !valid(doc) {
		return nil, false, syntaxError(doc)
	}
	return join(build(doc, obj, keys, p)), true, nil
}

// SplicePieces is Splice without the final copy and without the full
// validation: pieces is the new document, most of it slices of doc, in order
// (nil when nothing changes), so a large file is never assembled in memory a
// second time. check validates the whole of doc — the one pass over a large
// file that costs more than everything else — and must return nil before the
// pieces are used; the caller may run it on another core while it writes the
// pieces to a temporary file.
func SplicePieces(doc []byte, keys []Key) (pieces [][]byte, check func() error, err error) {
	d, err := Scan(doc)
	if err != nil {
		if e := checkKeys(keys); e != nil {
			return nil, nil, e
		}
		return nil, nil, err
	}
	return d.SplicePieces(keys)
}

// Doc is a document scanned once, for lookups and a splice that would
// otherwise each scan a large file again.
type Doc struct {
	doc   []byte
	obj   object
	blank bool
}

// Scan scans doc's top level (see Lookup for the errors).
func Scan(doc []byte) (*Doc, error) {
	if isBlank(doc) {
		return &Doc{doc: doc, blank: true}, nil
	}
	obj, err := scanObject(doc)
	if err != nil {
		return nil, err
	}
	return &Doc{doc: doc, obj: obj}, nil
}

// Lookup is the package's Lookup on the scanned document.
func (d *Doc) Lookup(name string) (raw []byte, ok bool, err error) {
	if d.blank {
		return nil, false, nil
	}
	for i := len(d.obj.members) - 1; i >= 0; i-- {
		m := d.obj.members[i]
		if m.is(d.doc, name) {
			v := d.doc[m.val:m.end]
			if !valid(v) {
				return nil, false, syntaxError(d.doc)
			}
			return bytes.Clone(v), true, nil
		}
	}
	return nil, false, nil
}

// SplicePieces is the package's SplicePieces on the scanned document.
func (d *Doc) SplicePieces(keys []Key) (pieces [][]byte, check func() error, err error) {
	if err := checkKeys(keys); err != nil {
		return nil, nil, err
	}
	doc := d.doc
	if d.blank {
		out, changed, err := spliceBlank(doc, keys)
		if !changed || err != nil {
			return nil, nil, err
		}
		return [][]byte{out}, func() error { return nil }, nil
	}
	p := locate(doc, d.obj, keys)
	if !p.changed {
		return nil, nil, nil
	}
	check = func() error {
		if !valid(doc) {
			return syntaxError(doc)
		}
		return nil
	}
	return build(doc, d.obj, keys, p), check, nil
}

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

// Get returns a copy of the value of the top-level key name in doc, as
// JSON.parse reads it (the last one if the name is given twice). ok is false if
// doc has no such key, is not an object, or the value is not valid JSON. Like
// Splice, Get does not validate the rest of doc.
func Get(doc []byte, name string) (raw []byte, ok bool) {
	if isBlank(doc) {
		return nil, false
	}
	obj, err := scanObject(doc)
	if err != nil {
		return nil, false
	}
	for i := len(obj.members) - 1; i >= 0; i-- {
		m := obj.members[i]
		if m.is(doc, name) {
			v := doc[m.val:m.end]
			if !valid(v) {
				return nil, false
			}
			return bytes.Clone(v), true
		}
	}
	return nil, false
}

// Validate checks that doc is a valid JSON object, or blank. It returns a
// *SyntaxError for invalid JSON and an error naming the type of any other
// top-level value.
func Validate(doc []byte) error {
	if isBlank(doc) {
		return nil
	}
	// Scan first: it rejects hostile nesting before the full pass.
	if _, err := scanObject(doc); err != nil {
		return err
	}
	if !valid(doc) {
		return syntaxError(doc)
	}
	return nil
}

// TopLevelKeys validates doc (see [Validate]) and returns its top-level names
// in order, each once, at the position of its first occurrence, as
// Object.keys(JSON.parse(doc)) lists them.
func TopLevelKeys(doc []byte) ([]string, error) {
	if err := Validate(doc); err != nil || isBlank(doc) {
		return nil, err
	}
	obj, err := scanObject(doc)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(obj.members))
	seen := make(map[string]bool, len(obj.members))
	for _, m := range obj.members {
		name, ok := m.name(doc)
		if !ok {
			return nil, syntaxError(doc)
		}
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	return names, nil
}

// Settings coalesces settings.json: every top-level key of declared (the
// account's settings) is set in runtime (the file Claude writes), replaced
// whole; the keys of previouslyDeclared that declared no longer has are
// removed; every other key of runtime, those Claude wrote itself (model,
// effortLevel…), is kept. Blank runtime or declared count as {}.
//
// Errors in runtime are returned as Splice returns them; errors in declared are
// wrapped with "declared settings: ".
func Settings(runtime, declared []byte, previouslyDeclared []string) (out []byte, changed bool, err error) {
	keys, err := declaredKeys(declared)
	if err != nil {
		return nil, false, fmt.Errorf("declared settings: %w", err)
	}
	for _, name := range previouslyDeclared {
		if !hasKey(keys, name) {
			keys = append(keys, Key{Name: name})
		}
	}
	return Splice(runtime, keys)
}

// declaredKeys returns the top-level members of declared as keys, in order,
// each once with its last value, as JSON.parse reads them.
func declaredKeys(declared []byte) ([]Key, error) {
	if err := Validate(declared); err != nil || isBlank(declared) {
		return nil, err
	}
	obj, err := scanObject(declared)
	if err != nil {
		return nil, err
	}
	keys := make([]Key, 0, len(obj.members))
	index := make(map[string]int, len(obj.members))
	for _, m := range obj.members {
		name, ok := m.name(declared)
		if !ok {
			return nil, syntaxError(declared)
		}
		raw := declared[m.val:m.end]
		if i, dup := index[name]; dup {
			keys[i].Raw = raw
			continue
		}
		index[name] = len(keys)
		keys = append(keys, Key{Name: name, Raw: raw})
	}
	return keys, nil
}

func hasKey(keys []Key, name string) bool {
	for _, k := range keys {
		if k.Name == name {
			return true
		}
	}
	return false
}

// Lookup is Get for callers that must tell a missing key from a document
// they cannot read: a blank doc has no keys; a doc that is not a JSON object
// (or whose value for name is damaged) is an error, with the line and column
// where one can be found. Like Get, it does not validate the rest of doc.
func Lookup(doc []byte, name string) (raw []byte, ok bool, err error) {
	if isBlank(doc) {
		return nil, false, nil
	}
	obj, err := scanObject(doc)
	if err != nil {
		return nil, false, err
	}
	for i := len(obj.members) - 1; i >= 0; i-- {
		m := obj.members[i]
		if m.is(doc, name) {
			v := doc[m.val:m.end]
			if !valid(v) {
				return nil, false, syntaxError(doc)
			}
			return bytes.Clone(v), true, nil
		}
	}
	return nil, false, nil
}

// Path is Lookup through nested objects: the value at doc[names[0]][names[1]]…,
// found by scanning alone. Only the value found is validated and copied, so a
// small value deep in a large "projects" costs one scan, not a copy of it.
// ok is false when a name is missing or a value on the way is not an object.
func Path(doc []byte, names ...string) (raw []byte, ok bool, err error) {
	cur := doc
	for i, name := range names {
		if isBlank(cur) {
			return nil, false, nil
		}
		obj, err := scanObject(cur)
		if err != nil {
			if i == 0 {
				return nil, false, err
			}
			return nil, false, nil // not an object on the way: no such value
		}
		found := false
		for j := len(obj.members) - 1; j >= 0; j-- {
			if m := obj.members[j]; m.is(cur, name) {
				cur, found = cur[m.val:m.end], true
				break
			}
		}
		if !found {
			return nil, false, nil
		}
	}
	if !valid(cur) {
		return nil, false, syntaxError(doc)
	}
	return bytes.Clone(cur), true, nil
}
