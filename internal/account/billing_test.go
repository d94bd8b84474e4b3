package account

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/env"
)

// TestBilledBy: a token or an API key bills instead of the recorded login,
// so the verdict is never a mismatch then.
func TestBilledBy(t *testing.T) {
	dir := t.TempDir()
	a := &Account{Name: "max", Dir: dir, Config: Config{Identity: &Identity{Email: "me@example.com"}}}
	other := Recorded{Email: "someone@example.com"}
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, settings string
		e              env.Env
		rec            Recorded
		login          string
		verdict        Verdict
	}{
		{"recorded someone", "{}", env.Env{}, other, "subscription", Mismatch},
		{"key in env", "{}", env.Env{"ANTHROPIC_API_KEY": "k"}, other, "api-key", Unknown},
		{"auth token in env", "{}", env.Env{"ANTHROPIC_AUTH_TOKEN": "k"}, other, "api-key", Unknown},
		{"oauth token", "{}", env.Env{"CLAUDE_CODE_OAUTH_TOKEN": "t", "ANTHROPIC_API_KEY": "k"}, other, "token", Unknown},
		{"settings env", `{"env": {"ANTHROPIC_API_KEY": "k"}}`, env.Env{}, other, "api-key", Unknown},
		{"settings env, last of two", `{"env": {"ANTHROPIC_API_KEY": "k"}, "env": {}}`, env.Env{}, other, "subscription", Mismatch},
		{"apiKeyHelper", `{"apiKeyHelper": "echo k"}`, env.Env{}, other, "api-key", Unknown},
		{"empty apiKeyHelper", `{"apiKeyHelper": ""}`, env.Env{}, other, "subscription", Mismatch},
		{"console key", "{}", env.Env{}, Recorded{APIKey: true}, "api-key", Unknown},
		{"nothing", "{}", env.Env{}, Recorded{}, "none", Unknown},
	} {
		write("settings.json", tc.settings)
		b := a.BilledBy(tc.e, tc.rec, true)
		if b.Login != tc.login || b.Verdict != tc.verdict {
			t.Errorf("%s: %+v; want login %s, verdict %s", tc.name, b, tc.login, tc.verdict)
		}
	}
	// Interactive, a key declined ("Do you want to use this API key?"):
	// the login bills and is checked; approved or not asked yet, the key.
	key := env.Env{"ANTHROPIC_API_KEY": "sk-ant-api03-0123456789abcdefghij"}
	write("settings.json", "{}")
	declined := Recorded{Email: "someone@example.com", Rejected: []string{"0123456789abcdefghij"}}
	if b := a.BilledBy(key, declined, false); b.Login != "subscription" || b.Verdict != Mismatch {
		t.Errorf("interactive, key declined: %+v; want subscription, mismatch", b)
	}
	if b := a.BilledBy(key, declined, true); b.Login != "api-key" || b.Verdict != Unknown {
		t.Errorf("-p, key declined: %+v; want api-key, unknown", b)
	}
	if b := a.BilledBy(key, other, false); b.Login != "api-key" || !b.Ask {
		t.Errorf("interactive, not answered: %+v; want api-key, ask", b)
	}
	approved := Recorded{Email: "someone@example.com", Approved: []string{"0123456789abcdefghij"}}
	if b := a.BilledBy(key, approved, false); b.Login != "api-key" || b.Ask {
		t.Errorf("interactive, approved: %+v; want api-key, no ask", b)
	}
	write(".credentials.json", `{"claudeAiOauth": {}}`)
	if b := a.BilledBy(env.Env{}, Recorded{}, false); b.Login != "subscription" || b.Verdict != Unknown {
		t.Errorf("credentials, no identity recorded: %+v; want subscription, unknown", b)
	}
}

// FuzzKeyBills: whatever the account's settings.json holds, reading the key
// that bills neither panics nor names one the file does not.
func FuzzKeyBills(f *testing.F) {
	f.Add([]byte(`{"env": {"ANTHROPIC_API_KEY": "k"}}`))
	f.Add([]byte(`{"env": {"ANTHROPIC_API_KEY": "k"}, "env": null, "apiKeyHelper": "x"}`))
	f.Add([]byte(`{"apiKeyHelper": 1}`))
	dir := f.TempDir()
	a := &Account{Name: "max", Dir: dir}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, "settings.json"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		why, key := a.keyBills(env.Env{})
		switch {
		case why == "" && key != "":
			t.Fatalf("a key without a reason: %q", key)
		case strings.HasPrefix(why, "apiKeyHelper") && !strings.Contains(string(data), "apiKeyHelper"):
			t.Fatalf("a helper from nowhere: %q", why)
		case key != "" && !strings.Contains(string(data), "ANTHROPIC_API_KEY") && !strings.Contains(string(data), `\u`):
			t.Fatalf("a key from nowhere: %q", key)
		}
	})
}
