package coalesce

import "bytes"

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
