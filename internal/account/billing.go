package account

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/fsx"
)

// Billing is what bills a session of the account, as far as the launcher
// can tell before Claude starts: the one decision launch's identity check,
// doctor and accounts all read, so that none refuses as someone else's a
// session that an API key bills.
type Billing struct {
	// Login: "token" ($CLAUDE_CODE_OAUTH_TOKEN, whose owner nothing
	// records), "api-key" (a key in the environment, in the env of the
	// account's settings, an apiKeyHelper, or a Console login's key: no
	// identity), "subscription" (an OAuth login: Claude recorded it, or its
	// credentials are there), "none".
	Login string
	// Why names what bills when it is no subscription login: "$ANTHROPIC_API_KEY
	// in the environment", "apiKeyHelper in ~/.claude-max/settings.json".
	Why string
	// Ask: Claude will ask whether to use the key (an interactive session,
	// not answered yet); declined, the recorded login bills.
	Ask bool
	// Verdict is the declared identity's of the recorded one: Unknown
	// whenever a token or key bills, whoever Claude recorded.
	Verdict Verdict
}

// keyVars are the variables by which an API key or a bearer token bills a
// session instead of the login (Claude reads them before its own login).
var keyVars = []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"}

// BilledBy decides what bills a session of a run with environment e (the
// environment Claude gets), given the login Claude recorded (ReadRecorded);
// print: the session is -p's. An ANTHROPIC_API_KEY bills -p always; an
// interactive session asks whether to use it, and one declined leaves the
// login to bill, which is then checked (measured on 2.1.332: the requests
// carried the login's token). Not answered yet, it is the user's answer that
// decides: the key is taken to bill, and Ask says so.
func (a *Account) BilledBy(e env.Env, rec Recorded, print bool) Billing {
	b := Billing{Login: "none", Verdict: a.Config.Identity.Check(rec)}
	why, key := a.keyBills(e)
	if key != "" && !print && rec.Known() {
		tail := key[max(0, len(key)-20):]
		switch {
		case slices.Contains(rec.Rejected, tail):
			why = "" // declined: the login bills
		case !slices.Contains(rec.Approved, tail):
			b.Ask = true
		}
	}
	switch {
	case e.Get("CLAUDE_CODE_OAUTH_TOKEN") != "":
		b.Login, b.Why, b.Ask = "token", "$CLAUDE_CODE_OAUTH_TOKEN", false
	case why != "":
		b.Login, b.Why = "api-key", why
	case rec.Known():
		b.Login = "subscription"
	case rec.APIKey:
		b.Login, b.Why = "api-key", "the key of a Console login Claude keeps in "+ClaudeJSON
	case a.HasCredentials():
		b.Login = "subscription"
	}
	if (b.Login == "token" || b.Login == "api-key") && b.Verdict != NotDeclared {
		b.Verdict = Unknown
	}
	return b
}

// HasCredentials reports whether the account dir holds an OAuth login's
// credentials (.credentials.json; on macOS they are a keychain item, which
// this does not see).
func (a *Account) HasCredentials() bool {
	fi, err := os.Lstat(filepath.Join(a.Dir, ".credentials.json"))
	return err == nil && fi.Mode().IsRegular() && fi.Size() > 0
}

// keyBills names the API key that bills the account's sessions instead of
// its login: one in the environment, or one its settings give Claude (their
// env, or an apiKeyHelper); "" when none does. Both the account dir's
// settings.json and the declared one are read: a launch makes the declared
// keys the account's.
// key is the ANTHROPIC_API_KEY that does, the one an interactive Claude
// asks about; "" for any other.
func (a *Account) keyBills(e env.Env) (why, key string) {
	keyOf := func(v, val string) string {
		if v == "ANTHROPIC_API_KEY" {
			return val
		}
		return ""
	}
	for _, v := range keyVars {
		if val := e.Get(v); val != "" {
			return "$" + v + " in the environment", keyOf(v, val)
		}
	}
	for _, dir := range []string{a.Dir, a.DeclaredDir()} {
		path := filepath.Join(dir, "settings.json")
		data, err := fsx.ReadFile(path)
		if err != nil {
			continue
		}
		// As Claude's JSON.parse reads them: the last of a key given twice.
		envs, _ := coalesce.Get(data, "env")
		for _, v := range keyVars {
			if raw, ok := coalesce.Get(envs, v); ok && nonEmptyString(raw) {
				return v + " in the env of " + e.TildePath(path), keyOf(v, gjson.ParseBytes(raw).Str)
			}
		}
		if raw, ok := coalesce.Get(data, "apiKeyHelper"); ok && nonEmptyString(raw) {
			return "apiKeyHelper in " + e.TildePath(path), ""
		}
	}
	return "", ""
}

func nonEmptyString(raw []byte) bool {
	v := gjson.ParseBytes(raw)
	return v.Type == gjson.String && v.Str != ""
}
