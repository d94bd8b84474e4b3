package launch

import (
	"fmt"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/doctor"
	"github.com/claude-account/claude-account/internal/session"
)

// IdentityError refuses a session whose account declares who it must be
// ([identity] in account.toml) while Claude recorded another login for it:
// the session would be billed to someone else.
type IdentityError struct {
	Account  string
	Declared account.Identity
	Recorded account.Recorded
	// Login is how to log in again on the release that runs, with the
	// launcher's words, quoted: 'claudemax auth login', or 'claudemax
	// /login' where Claude has no auth command (before 2.1.41).
	Login string
	// Where is the file the declaration is in.
	Where string
}

func (e *IdentityError) Error() string {
	return fmt.Sprintf("claude (%s) is logged in as %s, but the account must be %s ([identity] in %s), so Claude was not started; log in again as %s with %s, or change the declaration",
		e.Account, e.Recorded, &e.Declared, e.Where, &e.Declared, e.Login)
}

// LoginCommand is how to log in again on this workspace's release, given
// the launcher's words that start Claude for the account ("claudemax"; ""
// for claude-account run's).
func (w *Workspace) LoginCommand(launcher string) string {
	return doctor.LoginCommand(w.Account, w.Claude, launcher)
}

// isLogin reports whether a session's arguments ask for nothing but /login:
// the way to fix a wrong login on a release without 'claude auth', which a
// refusal must not stand in the way of.
func isLogin(args []string) bool {
	return len(args) == 1 && args[0] == "/login"
}

// checkIdentity refuses a session of an account that declares who it must
// be while Claude recorded someone else's login for the account
// (account.ReadRecorded), before anything is locked or written. When the login cannot be told (none yet,
// an API key, too little recorded) it says so once, and the launch goes on.
// Without a declaration it reads nothing.
func (w *Workspace) checkIdentity(args []string, io IO) error {
	note, err := w.identity(args)
	if err != nil {
		return err
	}
	var found []doctor.Finding
	if note != "" {
		found = []doctor.Finding{{ID: "identity-unknown", Path: w.Account.Dir, Message: note}}
	}
	if w.Account.Config.Identity.Declared() {
		// Once per cause: a login that stays unknown is not repeated at
		// every launch, and the record clears once the login is checked.
		for _, group := range doctor.Unwarned(w.warnedPath(), w.lockDir, doctor.Group{Key: "identity " + w.Account.Dir, Found: found}) {
			for _, f := range group {
				io.Note(f.Message)
			}
		}
	}
	return nil
}

// RefuseIdentity is checkIdentity's refusal alone, for a command that must
// refuse before it makes anything (run --worktree): an *IdentityError, or nil.
func (w *Workspace) RefuseIdentity(args []string) error {
	_, err := w.identity(args)
	return err
}

// identity is checkIdentity's verdict, writing nothing: the refusal, or
// why the login could not be checked ("" when it was, or need not be).
func (w *Workspace) identity(args []string) (note string, err error) {
	decl := w.Account.Config.Identity
	if !decl.Declared() || isLogin(args) {
		return "", nil
	}
	rec, err := account.ReadRecorded(w.Account.Dir)
	if err != nil {
		// Claude reports a damaged .claude.json itself; doctor names it.
		return fmt.Sprintf("the login of %s could not be checked against [identity]: %v", w.Account.Name, err), nil
	}
	// One decision with doctor's and accounts': a token or an API key bills
	// instead of the login Claude recorded, and is never refused for it.
	bill := w.Account.BilledBy(w.ClaudeEnv(), rec, session.Classify(args, w.Claude).Print)
	switch bill.Verdict {
	case account.Mismatch:
		return "", &IdentityError{Account: w.Account.Name, Declared: *decl, Recorded: rec, Login: w.LoginCommand(""),
			Where: w.env.TildePath(filepath.Join(w.Account.Dir, account.FileName))}
	case account.Unknown:
		return w.unknownIdentity(decl, rec, bill), nil
	}
	return "", nil
}

// unknownIdentity says why the login could not be checked.
func (w *Workspace) unknownIdentity(decl *account.Identity, rec account.Recorded, bill account.Billing) string {
	lead := fmt.Sprintf("the login of %s could not be checked against [identity] (%s): ", w.Account.Name, decl)
	switch {
	case bill.Login == "token":
		// Claude bills the token, not the login it recorded, and nothing
		// records whose the token is.
		return lead + "$CLAUDE_CODE_OAUTH_TOKEN bills this session, and nothing records whose that token is"
	case bill.Login == "api-key" && bill.Ask && decl.Check(rec) == account.Mismatch:
		return lead + "an API key bills this session (" + bill.Why + ") once you approve it when Claude asks; it carries no identity. Declined, the login bills, and Claude recorded it as " + rec.String() + ", not " + decl.String()
	case bill.Login == "api-key":
		return lead + "an API key bills this session (" + bill.Why + "); it carries no identity"
	case !rec.Known() && bill.Login == "subscription":
		return lead + "a login exists in " + w.env.TildePath(w.Account.Dir) + ", but Claude has recorded no identity for it yet; log in again with " + w.LoginCommand("") + " to record one"
	case !rec.Known():
		return lead + "Claude has recorded no login in " + w.env.TildePath(w.Account.Dir) + " yet; after you log in, each launch checks it"
	}
	return lead + "Claude recorded " + rec.String() + ", which does not name what the declaration does; each launch checks it again"
}
