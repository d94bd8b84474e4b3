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

// Pick is the conversation of all that id (or an unambiguous prefix of
// one) names: account's copy when it has one, else the first (Find sorts
// newest first). A prefix of several is an *AmbiguousError.
func Pick(all []Conversation, id, account string) (Conversation, error) {
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
	for _, cv := range found {
		if cv.Account == account {
			return cv, nil
		}
	}
	return found[0], nil
}
