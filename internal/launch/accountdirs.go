package launch

import (
	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/env"
)

// AccountDirs finds the dir of the account a worktree's runtime is named for
// (claude-runtime/<name>) as a launch of that account finds it: a, the
// account of this command, with the dir it was loaded from (--account-dir
// included); any other in the dir the Nix module declared for it, else its
// default one, when an account is there. Removing a worktree (rm, gc, an
// ephemeral one after its session) archives a runtime's transcripts there,
// and only when that account's record says the launcher made the runtime:
// what the runtime's own files name is never asked.
func AccountDirs(e env.Env, a *account.Account) func(string) string {
	return func(name string) string {
		if a != nil && name == a.Name {
			return a.Dir
		}
		dir, err := binding.DeclaredAccountDir(e, name)
		if err != nil {
			return ""
		}
		if dir == "" {
			dir = account.DefaultDir(e, name)
		}
		if _, err := account.Load(name, dir); err != nil {
			return ""
		}
		return dir
	}
}
