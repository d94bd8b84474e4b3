package coalesce

import "fmt"

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
