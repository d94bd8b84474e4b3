package launch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/session"
)

// TestTakeNextExpires: a request left behind (resume --next interrupted
// between writing it and closing the session) does not make a later
// ordinary exit of that session hand its conversation over.
func TestTakeNextExpires(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(session.StateDir(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	const id, token = "max-0123456789abcdef", "1-2"
	put := func(at time.Time) {
		data, _ := json.Marshal(Next{Token: token, ID: "77777777-7777-4777-8777-777777777777", Account: "work", At: at})
		if err := os.WriteFile(filepath.Join(session.StateDir(dir), id+".next"), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	put(time.Now().Add(-2 * nextExpiry))
	if n := takeNext(dir, id, token); n != nil {
		t.Errorf("takeNext of a stale request = %+v; want nil", n)
	}
	if _, err := os.Lstat(filepath.Join(session.StateDir(dir), id+".next")); err == nil {
		t.Error("a stale request was left in place")
	}
	put(time.Now())
	if n := takeNext(dir, id, token); n == nil || n.Account != "work" {
		t.Errorf("takeNext of a fresh request = %+v; want work's", n)
	}
	put(time.Now())
	if n := takeNext(dir, id, "3-4"); n != nil {
		t.Errorf("takeNext of another holder's request = %+v; want nil", n)
	}
}
