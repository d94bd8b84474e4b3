package cli

import (
	"errors"
	"strings"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/doctor"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/session"
)

// withLogin names, in a refusal of a login that is someone else
// (*launch.IdentityError), the command that logs in again in the words the
// user typed: claudemax's when the launcher runs as claudemax.
func withLogin(d *Deps, ws *launch.Workspace, err error) error {
	var ie *launch.IdentityError
	if errors.As(err, &ie) {
		if name, ok := launcherAccount(d.Prog); ok && name == ws.Account.Name {
			ie.Login = ws.LoginCommand(d.Prog)
		}
	}
	return err
}

// identityFirst refuses, before --worktree makes a worktree, a session that
// the launch in it would refuse for its login (*launch.IdentityError): a
// launch that cannot start makes nothing. Only an account that declares an
// identity pays for finding its Claude here.
func (c *RunCmd) identityFirst(d *Deps, args []string) error {
	ws, err := c.load(d)
	if err != nil || !ws.Account.Config.Identity.Declared() {
		return nil // the launch in the worktree says what is wrong
	}
	bin, err := ws.FindClaude()
	if err != nil {
		return nil
	}
	if inv := session.Classify(args, bin); !inv.Session && !inv.Starts {
		return nil
	}
	return withLogin(d, ws, ws.RefuseIdentity(args))
}

// identityFirst refuses, before resume makes a removed worktree again, a
// resumption the launch would refuse for the target account's login, as
// run --worktree's does.
func (c *ResumeCmd) identityFirst(d *Deps, target string, conv conversation.Conversation) error {
	flags := AccountFlags{Account: target, AccountDir: c.AccountDir}
	if target == conv.Account && c.AccountDir == "" {
		flags.AccountDir = conv.AccountDir
	}
	ws, err := flags.load(d)
	if err != nil || !ws.Account.Config.Identity.Declared() {
		return nil // the launch says what is wrong
	}
	if _, err := ws.FindClaude(); err != nil {
		return nil
	}
	return withLogin(d, ws, ws.RefuseIdentity([]string{"--resume", conv.ID}))
}

// identityWords is what 'accounts' adds after an account's login when it
// declares who it must be: whether the login is that one. "" without a
// declaration.
func identityWords(id *doctor.Identity) string {
	if id == nil || id.Declared == nil {
		return ""
	}
	switch id.Verdict {
	case account.Matches:
		return " as declared"
	case account.Mismatch:
		// Short: the row already names who Claude recorded; 'doctor' says
		// the rest.
		short := id.Declared.Email
		if o := id.Declared.Organization; o != "" {
			short = strings.TrimPrefix(short+", "+o, ", ")
		}
		return ": NOT as declared (" + short + "), sessions refused"
	}
	return " (identity not checkable)"
}
