package configdir

import (
	"slices"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudekeys"
)

// accountKeyNames are the keys of .claude.json the launcher shares between
// the config dirs of account a, both ways (claudekeys.Account): a new runtime
// starts from the account's values, and a change Claude makes in any config
// dir reaches the others at their next launch, the later exit winning. Left
// out: the keys account.toml's coalesce_keys manage (the account dir's value
// is enforced for them). Every other key stays the config dir's own, so per
// worktree. customApiKeyResponses is one of them like any other: a key turned
// off in /config in one worktree is off in all (a union of every config dir's
// answers kept it approved), and answers planted in a runtime while no Claude
// ran reach nothing.
func accountKeyNames(a *account.Account) []string {
	managed := a.ManagedKeys()
	return slices.DeleteFunc(slices.Clone(claudekeys.Account), func(k string) bool {
		return slices.Contains(managed, k)
	})
}
