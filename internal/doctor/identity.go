package doctor

import (
	"fmt"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/shell"
)

// Identity is who the account's login is, as Claude recorded it, and what
// the account declares it must be ('doctor --json' and 'accounts --json').
type Identity struct {
	// Login is what bills the account's sessions: "subscription" (Claude
	// recorded an OAuth login, or its credentials are there while it
	// recorded no identity yet: Recorded null), "api-key" (a key in the
	// environment or the account settings' env, an apiKeyHelper, or a
	// Console login's key: no identity to check, verdict never "mismatch"), "token" (a subscription
	// token in $CLAUDE_CODE_OAUTH_TOKEN, whose owner nothing records),
	// "none" (not logged in).
	Login string `json:"login"`
	// Recorded is Claude's oauthAccount in the account dir's .claude.json;
	// null when it recorded none.
	Recorded *account.Recorded `json:"recorded"`
	// Declared is [identity] in account.toml; null when none.
	Declared *account.Identity `json:"declared"`
	// Verdict: "match", "mismatch" (a session is refused), "unknown" (too
	// little recorded to tell: a session starts and says so once),
	// "not-declared".
	Verdict account.Verdict `json:"verdict"`
	// BilledBy names the token or key that bills instead of a login
	// ("$ANTHROPIC_API_KEY in the environment"); omitted for a login.
	BilledBy string `json:"billedBy,omitempty"`
	// Fix is how to record an identity for a login that has none yet.
	Fix string `json:"fix,omitempty"`
	// Problem: .claude.json could not be read.
	Problem string `json:"problem,omitempty"`
}

// IdentityOf reads the account's recorded login and checks it against its
// declaration; e is the environment Claude gets (an API key there bills).
func IdentityOf(a *account.Account, e env.Env) Identity {
	id := Identity{Login: "none"}
	if a.Config.Identity.Declared() {
		d := *a.Config.Identity
		id.Declared = &d
	}
	rec, err := account.ReadRecorded(a.Dir)
	if err != nil {
		id.Problem = err.Error()
	}
	if rec.Known() {
		id.Recorded = &rec
	}
	// Doctor speaks of the interactive session: a key declined there
	// leaves the login to bill (-p's uses the key).
	bill := a.BilledBy(e, rec, false)
	id.Login, id.Verdict, id.BilledBy = bill.Login, bill.Verdict, bill.Why
	if id.Login == "subscription" && id.Recorded == nil && id.Declared != nil {
		// Claude records who logged in at the login (measured: auth login
		// and /login write oauthAccount), so logging in again records it.
		id.Fix = "log in again with " + LoginCommand(a, claudever.Binary{}, "") + " to record it"
	}
	return id
}

// Describe is the identity in a line of doctor's: who is logged in and
// what the declaration says of it.
func (id Identity) Describe() string {
	who := "no login recorded yet"
	switch {
	case id.Recorded != nil:
		who = id.Recorded.String()
	case id.Login == "subscription":
		who = "a login exists, but Claude has recorded no identity for it yet"
		if id.Fix != "" {
			who += " (" + id.Fix + ")"
		}
	}
	if id.Login == "api-key" {
		who = "an API key (" + id.BilledBy + "), which carries no identity to check"
		if id.Recorded != nil {
			who += " (Claude recorded " + id.Recorded.String() + ")"
		}
	}
	if id.Login == "token" {
		who = "$CLAUDE_CODE_OAUTH_TOKEN, whose owner nothing records (Claude recorded " + who + ")"
	}
	switch id.Verdict {
	case account.Matches:
		return who + ", as declared"
	case account.Mismatch:
		return who + ", but the account must be " + id.Declared.String()
	case account.Unknown:
		return who + "; cannot be checked against the declared " + id.Declared.String()
	}
	return who + " (no [identity] declared)"
}

// identityMismatch is the finding for a login that is someone else than
// the account declares: every session is refused until it is fixed.
func identityMismatch(in Input) *Finding {
	if !in.Account.Config.Identity.Declared() {
		return nil
	}
	id := IdentityOf(in.Account, in.Env)
	if id.Verdict != account.Mismatch {
		return nil
	}
	return &Finding{ID: "identity-mismatch", Path: in.Account.Dir,
		Message: fmt.Sprintf("claude (%s) is logged in as %s, but the account must be %s ([identity] in %s), so every session is refused; log in again as %s with %s, or change the declaration",
			in.Account.Name, id.Recorded, id.Declared, in.Env.TildePath(filepath.Join(in.Account.Dir, account.FileName)), id.Declared, LoginCommand(in.Account, in.Claude, ""))}
}

// AuthLoginSince is the first release with 'claude auth login'
// (session.Commands: 2.1.38 has none); before, /login inside Claude.
var AuthLoginSince = session.Commands["auth"]

// LoginCommand is how to log in again to account a on claude's release,
// quoted for a message, with the launcher's words that start Claude for it
// ("claudemax"; "" for claude-account run's). A launch whose only argument
// is /login is never refused: on a release without 'claude auth' that is
// the way.
func LoginCommand(a *account.Account, claude claudever.Binary, launcher string) string {
	if launcher == "" {
		launcher = "claude-account run --account " + a.Name
		if filepath.Base(a.Dir) != ".claude-"+a.Name {
			launcher += " --account-dir " + shell.Quote(a.Dir)
		}
		launcher += " --"
	}
	switch {
	case claude.Has(AuthLoginSince):
		return "'" + launcher + " auth login'"
	case claude.Known:
		// The first prompt "/login" runs the command (measured on 2.0.77).
		return "'" + launcher + " /login'"
	}
	return "'" + launcher + " auth login' (before Claude Code " + AuthLoginSince.String() + ": '" + launcher + " /login')"
}
