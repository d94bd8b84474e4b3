package coalesce

import "bytes"

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
