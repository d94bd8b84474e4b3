package conversation

import (
	"fmt"
	"sort"
	"strings"
)

// AmbiguousError is an id prefix that names more than one conversation.
type AmbiguousError struct {
	Prefix string
	IDs    []string // sorted
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%s names %d conversations (%s); give more of the id", e.Prefix, len(e.IDs), strings.Join(e.IDs, ", "))
}

// Pick is the conversation of all (Find's, one per id) that id (or an
// unambiguous prefix of one) names: its newest copy, whichever account holds
// it, or the copy which names (Choose) when which is not "". A prefix of
// several is an *AmbiguousError; copies continued apart, a *DivergedError
// unless which picks one.
func Pick(all []Conversation, id, which string) (Conversation, error) {
	var found []Conversation
	ids := map[string]bool{}
	for _, cv := range all {
		if cv.ID == id || len(id) < len(cv.ID) && strings.HasPrefix(cv.ID, id) {
			found = append(found, cv)
			ids[cv.ID] = true
		}
	}
	switch {
	case len(found) == 0:
		return Conversation{}, fmt.Errorf("no conversation %s in any account ('claude-account sessions --all' lists them)", id)
	case len(ids) > 1:
		e := &AmbiguousError{Prefix: id}
		for n := range ids {
			e.IDs = append(e.IDs, n)
		}
		sort.Strings(e.IDs)
		return Conversation{}, e
	}
	if which != "" {
		return Choose(found[0], which)
	}
	if found[0].Diverged {
		return Conversation{}, &DivergedError{Conv: found[0]}
	}
	return found[0], nil
}
