package conversation

import (
	"fmt"
	"sort"
	"strings"

	"github.com/claude-account/claude-account/internal/fsx"
)

// Standings of a copy (Copy.Standing).
const (
	Newest     = "newest"
	SameAs     = "same"
	OlderCopy  = "older"
	Apart      = "diverged"
	Unverified = "unverified"
)

// byID keeps one conversation per id, newest first: of its copies (every
// account's, every place's), the one that holds every turn of the others
// (merge). Transcripts are compared only for an id kept in more than one
// place, so a list of conversations never handed over reads no more than
// before.
func byID(convs []Conversation) []Conversation {
	first := make(map[string]int, len(convs)) // id → its first copy's index
	var more map[string][]Conversation        // id → every copy, of ids with several
	for i, c := range convs {
		j, ok := first[c.ID]
		if !ok {
			first[c.ID] = i
			continue
		}
		if more == nil {
			more = map[string][]Conversation{}
		}
		if more[c.ID] == nil {
			more[c.ID] = []Conversation{convs[j]}
		}
		more[c.ID] = append(more[c.ID], c)
	}
	// One backing array for the accounts of those with one copy: a
	// thousand conversations, one allocation (and no Copies: sessions
	// --json stays as short as it was).
	accts := make([]string, len(convs))
	out := convs[:0]
	for i, c := range convs {
		if first[c.ID] != i {
			continue // a later copy: merged with the first
		}
		if group := more[c.ID]; group != nil {
			out = append(out, merge(group))
			continue
		}
		accts[i] = c.Account
		c.Accounts = accts[i : i+1 : i+1]
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out
}

// whereRank orders places for ties: the account's own runtimes before its
// archive and account dir, a runtime set aside last.
var whereRank = map[string]int{InRuntime: 0, InArchive: 1, InAccount: 2, SetAside: 3}

// merge is the conversation of the copies of one id: the newest copy, which
// holds every message of the others (Compare); when several hold turns the
// others lack, the latest of them, Diverged. Only copies proven the
// account's are compared: one not proven (it may have come with a
// repository) is listed only when there is no other, and never shadows one
// that is.
func merge(copies []Conversation) Conversation {
	sort.SliceStable(copies, func(i, j int) bool {
		a, b := copies[i], copies[j]
		switch {
		case a.Verified != b.Verified:
			return a.Verified
		case !a.Updated.Equal(b.Updated):
			return a.Updated.After(b.Updated)
		case own(a) != own(b):
			// Of copies equally new, the one in the runtime of the
			// worktree it ran in, while it is there: a copied
			// repository's (cp -a keeps times and bytes) never shadows
			// the original's.
			return own(a)
		case whereRank[a.Where] != whereRank[b.Where]:
			return whereRank[a.Where] < whereRank[b.Where]
		}
		return a.Transcript < b.Transcript
	})
	n := 0
	for n < len(copies) && copies[n].Verified {
		n++
	}
	if n == 0 {
		n = len(copies)
	}
	standing := make([]string, len(copies))
	for i := n; i < len(copies); i++ {
		standing[i] = Unverified
	}
	first := 0
	if n > 1 {
		ord := make([][]Order, n)
		for i := range ord {
			ord[i] = make([]Order, n)
		}
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				o := compareCopies(copies[i], copies[j])
				ord[i][j], ord[j][i] = o, mirror(o)
			}
		}
		dominated := make([]bool, n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if ord[j][i] == Newer {
					dominated[i] = true
				}
			}
		}
		for first < n && dominated[first] {
			first++
		}
		if first == n {
			first = 0 // no copy undominated: transcripts Claude did not write
		}
		for i := 0; i < n; i++ {
			switch {
			case i == first:
			case dominated[i]:
				standing[i] = OlderCopy
			case ord[first][i] == Same:
				standing[i] = SameAs
			default:
				standing[i] = Apart
			}
		}
	}
	standing[first] = Newest
	c := copies[first]
	c.Copies = append(c.Copies, copyOf(c, Newest))
	c.Accounts = append(c.Accounts, c.Account)
	for i, o := range copies {
		if i == first {
			continue
		}
		c.Diverged = c.Diverged || standing[i] == Apart
		c.Copies = append(c.Copies, copyOf(o, standing[i]))
		c.others = append(c.others, o)
		if !contains1(c.Accounts, o.Account) {
			c.Accounts = append(c.Accounts, o.Account)
		}
	}
	return c
}

// own reports whether c's transcript says it ran in the worktree whose
// runtime keeps it, and that worktree is there: a copy is one whose
// original still exists, so the copy of a repository moved across file
// systems (its original gone, its conversations brought along by the
// launch, configdir's bring) is the one its copies are continued in.
// Bytes compared: both are paths as the system gives them.
func own(c Conversation) bool {
	return c.Worktree != "" && !c.Removed && fsx.WithinAs(c.Cwd, c.Worktree, false, nil)
}

// compareCopies is how a stands to b; by modification time when one cannot
// be read whole (it is listed: its head and tail read).
func compareCopies(a, b Conversation) Order {
	o, err := CompareFiles(a.Transcript, b.Transcript)
	if err == nil {
		return o
	}
	switch {
	case a.Updated.After(b.Updated):
		return Newer
	case b.Updated.After(a.Updated):
		return Older
	}
	return Same
}

func mirror(o Order) Order {
	switch o {
	case Newer:
		return Older
	case Older:
		return Newer
	}
	return o
}

func contains1(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func copyOf(c Conversation, standing string) Copy {
	return Copy{Account: c.Account, AccountDir: c.AccountDir, Worktree: c.Worktree, Where: c.Where, Verified: c.Verified,
		Updated: c.Updated, Transcript: c.Transcript, Standing: standing}
}

// DivergedError is a conversation whose copies were continued apart: the
// launcher does not pick one.
type DivergedError struct {
	Conv Conversation
}

func (e *DivergedError) Error() string {
	var named []string
	var pick string
	for _, cp := range e.Conv.Copies {
		if cp.Standing != Newest && cp.Standing != Apart {
			continue
		}
		named = append(named, fmt.Sprintf("%s's in %s (last changed %s, %s)", cp.Account, placeName(cp), cp.Updated.UTC().Format("2006-01-02 15:04:05 UTC"), cp.Transcript))
		if pick == "" {
			pick = CopyName(e.Conv, cp)
		}
	}
	return fmt.Sprintf("conversation %s was continued apart, and each copy has turns the other lacks: %s; pick the one to continue with 'claude-account resume %s --copy %s' (the other stays as it is)",
		e.Conv.ID, strings.Join(named, " and "), e.Conv.ID, pick)
}

// placeName says where a copy is kept, for a message.
func placeName(cp Copy) string {
	switch cp.Where {
	case InRuntime:
		return "the runtime of " + cp.Worktree
	case SetAside:
		return "a runtime set aside of " + cp.Worktree
	case InArchive:
		return "the archive of " + cp.Worktree
	}
	return "the account dir"
}

// CopyName is what --copy takes to name cp: its account, when no other
// copy of that account's was continued apart from it, else its
// transcript's path.
func CopyName(c Conversation, cp Copy) string {
	top := func(st string) bool { return st == Newest || st == Apart }
	for _, o := range c.Copies {
		if o.Account == cp.Account && o.Transcript != cp.Transcript && top(o.Standing) && top(cp.Standing) {
			return cp.Transcript
		}
	}
	return cp.Account
}

// Choose is the copy of c that which names (an account that holds one copy,
// or a transcript's path), as a conversation of its own.
func Choose(c Conversation, which string) (Conversation, error) {
	all := append([]Conversation{c}, c.others...)
	var found []Conversation
	for _, o := range all {
		if o.Transcript == which || o.Account == which {
			found = append(found, o)
		}
	}
	names := []string{c.Account}
	if len(c.Copies) > 0 {
		names = names[:0]
	}
	for _, cp := range c.Copies {
		names = append(names, CopyName(c, cp))
	}
	// Of an account's copies, the one that holds the others' turns; two
	// continued apart are for the user to tell apart.
	standing := map[string]string{}
	for _, cp := range c.Copies {
		standing[cp.Transcript] = cp.Standing
	}
	var tops []Conversation
	for _, o := range found {
		if st := standing[o.Transcript]; st == "" || st == Newest || st == Apart {
			tops = append(tops, o)
		}
	}
	switch {
	case len(found) == 0:
		return Conversation{}, fmt.Errorf("conversation %s has no copy %q; its copies are %s", c.ID, which, strings.Join(names, ", "))
	case len(tops) > 1:
		return Conversation{}, fmt.Errorf("account %s holds %d copies of conversation %s continued apart: give the transcript's path to --copy (%s)", which, len(tops), c.ID, strings.Join(names, ", "))
	case len(tops) == 1:
		found = tops
	}
	// Else the one with the most turns: the same as the newest before an
	// older one.
	rank := map[string]int{Newest: 0, SameAs: 1, Apart: 2, OlderCopy: 3, Unverified: 4}
	sort.SliceStable(found, func(i, j int) bool { return rank[standing[found[i].Transcript]] < rank[standing[found[j].Transcript]] })
	o := found[0]
	o.Copies, o.Accounts, o.Diverged = c.Copies, c.Accounts, false
	return o, nil
}
