package conversation

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestMerge(t *testing.T) {
	dir := t.TempDir()
	t1 := line("u1", "null", "T1") + line("a1", `"u1"`, "reply")
	t2 := t1 + line("u2", `"a1"`, "T2")
	t3 := t1 + line("u3", `"a1"`, "T3")
	now := time.Now()
	copyAt := func(account, where, text string, verified bool, age time.Duration) Conversation {
		p := filepath.Join(dir, account+"-"+where+".jsonl")
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return Conversation{ID: "id", Account: account, Where: where, Verified: verified, Transcript: p, Updated: now.Add(-age)}
	}
	standings := func(c Conversation) map[string]string {
		m := map[string]string{}
		for _, cp := range c.Copies {
			m[cp.Account+"/"+cp.Where] = cp.Standing
		}
		return m
	}
	// The older copy is the later by mtime (copies keep their source's, an
	// older one handed back was touched since): content decides.
	older := copyAt("max", InRuntime, t1, true, 0)
	newer := copyAt("work", InRuntime, t2, true, time.Hour)
	c := merge([]Conversation{older, newer})
	if c.Account != "work" || c.Diverged || standings(c)["max/runtime"] != OlderCopy || len(c.Accounts) != 2 {
		t.Errorf("handed back: listed %s's, diverged %v, copies %v, accounts %v; want work's, max's older", c.Account, c.Diverged, standings(c), c.Accounts)
	}
	// Both continued: diverged, the later listed.
	apart := copyAt("max", InArchive, t3, true, 2*time.Hour)
	c = merge([]Conversation{newer, apart})
	if c.Account != "work" || !c.Diverged || standings(c)["max/archive"] != Apart {
		t.Errorf("continued apart: listed %s's, diverged %v, copies %v", c.Account, c.Diverged, standings(c))
	}
	// A copy not proven the account's, newer by mtime and by content, never
	// shadows one that is, and is not compared.
	planted := copyAt("max", SetAside, t2+line("x", `"u2"`, "planted"), false, -time.Hour)
	c = merge([]Conversation{older, planted})
	if c.Where != InRuntime || c.Diverged || standings(c)["max/set-aside"] != Unverified {
		t.Errorf("set aside: listed %s, diverged %v, copies %v", c.Where, c.Diverged, standings(c))
	}
	// --copy max, of max's two copies, is the one with work's turns.
	twin := copyAt("max", InArchive, t2, true, 3*time.Hour)
	c = merge([]Conversation{older, newer, twin})
	if got, err := Choose(c, "max"); err != nil || got.Transcript != twin.Transcript {
		t.Errorf("Choose(max) = %s, %v; want the archive's, the same as work's", got.Transcript, err)
	}
	// The same messages: one listed, the other the same.
	same := copyAt("work", InAccount, t1, true, time.Hour)
	c = merge([]Conversation{same, older})
	if c.Account != "max" || standings(c)["work/account"] != SameAs {
		t.Errorf("same: listed %s's, copies %v", c.Account, standings(c))
	}
}

func TestFindID(t *testing.T) {
	dir := t.TempDir()
	id := "12345678-1234-4234-8234-123456789abc"
	msg := func(uuid, text string) string {
		return `{"parentUuid":null,"type":"user","cwd":"/nowhere","sessionId":"` + id + `","message":{"role":"user","content":"` + text + `"},"uuid":"` + uuid + `"}` + "\n"
	}
	put := func(acct, name, text string) Account {
		a := Account{Name: acct, Dir: filepath.Join(dir, acct)}
		key := filepath.Join(a.Dir, "projects", "-nowhere")
		if err := os.MkdirAll(key, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(key, name+".jsonl"), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return a
	}
	max := put("max", id, msg("u1", "T1"))
	work := put("work", id, msg("u1", "T1")+msg("u2", "T2"))
	put("work", "aaaaaaaa-1234-4234-8234-123456789abc", msg("x", "other"))
	c := FindID([]Account{max, work}, id)
	if c == nil || c.Account != "work" || len(c.Copies) != 2 || c.Copies[1].Standing != OlderCopy {
		t.Fatalf("FindID = %+v, want work's copy, max's older", c)
	}
	for _, bad := range []string{"99999999-1234-4234-8234-123456789abc", "*", "../x", ""} {
		if c := FindID([]Account{max, work}, bad); c != nil {
			t.Errorf("FindID(%q) = %s's, want none", bad, c.Account)
		}
	}
}
