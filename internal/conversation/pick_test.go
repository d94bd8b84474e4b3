package conversation

import (
	"errors"
	"strings"
	"testing"
)

func TestPick(t *testing.T) {
	// One per id, as Find lists them: the newest copy, the others beside.
	work := Conversation{ID: "11111111-aaaa", Account: "work", Transcript: "/w/1.jsonl"}
	max := Conversation{ID: "11111111-aaaa", Account: "max", Transcript: "/m/1.jsonl"}
	first := merged(work, max)
	apart := merged(Conversation{ID: "33333333-cccc", Account: "work", Transcript: "/w/3.jsonl"}, Conversation{ID: "33333333-cccc", Account: "max", Transcript: "/m/3.jsonl"})
	apart.Diverged = true
	apart.Copies[1].Standing = Apart
	all := []Conversation{first, {ID: "11112222-bbbb", Account: "max"}, apart}
	for _, c := range []struct {
		id, account, want, err string
		ambiguous              bool
	}{
		{id: "11111111-aaaa", want: "work"},
		{id: "11111111", account: "max", want: "max"},
		{id: "11111111", account: "/m/1.jsonl", want: "max"},
		{id: "11111111", account: "other", err: `conversation 11111111-aaaa has no copy "other"; its copies are work, max`},
		{id: "33333333", err: "conversation 33333333-cccc was continued apart, and each copy has turns the other lacks: work's in the account dir (last changed 0001-01-01 00:00:00 UTC, /w/3.jsonl) and max's in the account dir (last changed 0001-01-01 00:00:00 UTC, /m/3.jsonl); pick the one to continue with 'claude-account resume 33333333-cccc --copy work'"},
		{id: "33333333", account: "max", want: "max"},
		{id: "1111", ambiguous: true, err: "1111 names 2 conversations (11111111-aaaa, 11112222-bbbb); give more of the id"},
		{id: "99999999", err: "no conversation 99999999 in any account"},
		{id: "11111111-aaaa-more", err: "no conversation"},
	} {
		got, err := Pick(all, c.id, c.account)
		var amb *AmbiguousError
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("Pick(%q, %q) = %v, want error %q", c.id, c.account, err, c.err)
		case c.err != "" && errors.As(err, &amb) != c.ambiguous:
			t.Errorf("Pick(%q): ambiguous %v, want %v", c.id, !c.ambiguous, c.ambiguous)
		case c.err == "" && (err != nil || got.Account != c.want):
			t.Errorf("Pick(%q, %q) = %s, %v; want %s's copy", c.id, c.account, got.Account, err, c.want)
		}
	}
}

// merged is c with the others as its copies, as merge makes it.
func merged(c Conversation, others ...Conversation) Conversation {
	c.Copies, c.Accounts = []Copy{copyOf(c, Newest)}, []string{c.Account}
	for _, o := range others {
		c.Copies = append(c.Copies, copyOf(o, OlderCopy))
		c.Accounts = append(c.Accounts, o.Account)
		c.others = append(c.others, o)
	}
	return c
}
