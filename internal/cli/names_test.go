package cli

import (
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/session"
)

// TestAccountNameLimit: the longest account name gives session ids the state
// hook takes, in every slot; one more character would not (the limit is
// tight, not a guess).
func TestAccountNameLimit(t *testing.T) {
	fp := gitctx.Fingerprint("/src/app")
	id := func(name string, slot int) string {
		return strings.TrimSuffix(lock.Name(lock.Key(name, fp), slot), ".lock")
	}
	last := lock.Slots(false) - 1
	longest := strings.Repeat("a", account.MaxNameLen)
	if err := account.ValidateName(longest); err != nil {
		t.Fatal(err)
	}
	for _, slot := range []int{0, last} {
		if err := session.ValidID(id(longest, slot)); err != nil {
			t.Errorf("slot %d: %v", slot, err)
		}
	}
	if session.ValidID(id(longest+"a", last)) == nil {
		t.Errorf("a name of %d characters would still fit: the limit is not tight", account.MaxNameLen+1)
	}
	if err := account.ValidateName(longest + "a"); err == nil || !strings.Contains(err.Error(), "the limit is 180") {
		t.Errorf("one more character: %v", err)
	}
}

func FuzzValidateName(f *testing.F) {
	for _, s := range []string{"max", "work-2", "a_b", "", "-x", "Max", "../x", strings.Repeat("a", 181)} {
		f.Add(s)
	}
	fp := gitctx.Fingerprint("/src/app")
	f.Fuzz(func(t *testing.T, name string) {
		if account.ValidateName(name) != nil {
			return
		}
		// What a valid name becomes: a directory, a program, a lock, a
		// session id the state hook takes.
		if strings.ContainsAny(name, "/.\x00") || len(".claude-"+name) > 255 {
			t.Fatalf("%q is valid but cannot be a file name", name)
		}
		if err := session.ValidID(strings.TrimSuffix(lock.Name(lock.Key(name, fp), lock.Slots(false)-1), ".lock")); err != nil {
			t.Fatalf("%q is valid but its session id is not: %v", name, err)
		}
	})
}
