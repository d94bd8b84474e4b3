package conversation

import (
	"errors"
	"strings"
	"testing"
)

func TestPick(t *testing.T) {
	all := []Conversation{
		{ID: "11111111-aaaa", Account: "work"}, // newest first, as Find sorts
		{ID: "11111111-aaaa", Account: "max"},
		{ID: "11112222-bbbb", Account: "max"},
	}
	for _, c := range []struct {
		id, account, want, err string
		ambiguous              bool
	}{
		{id: "11111111-aaaa", want: "work"},
		{id: "11111111", account: "max", want: "max"},
		{id: "11111111", account: "other", want: "work"},
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
