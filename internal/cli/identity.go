package cli

import (
	"errors"

	"github.com/claude-account/claude-account/internal/launch"
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
