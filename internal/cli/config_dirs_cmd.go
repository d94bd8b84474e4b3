package cli

import (
	"fmt"

	"github.com/claude-account/claude-account/internal/convdirs"
	"github.com/claude-account/claude-account/internal/conversation"
)

// ConfigDirsCmd is `claude-account config-dirs`.
type ConfigDirsCmd struct {
	Accounts []string `arg:"" optional:"" name:"account" help:"The accounts whose conversations to list. Default: the account $$CLAUDE_ACCOUNT, the program name or the directory's binding names."`
	All      bool     `help:"Every account's conversations."`
	JSON     bool     `help:"Print JSON: {value, dirs: [{path, account, kind, worktree}], left: [{path, account, kind, why, missed}]}; see below."`
}

// Help is shown under the command's usage.
func (c *ConfigDirsCmd) Help() string {
	return `Prints, as one comma-separated line for CLAUDE_CONFIG_DIR, every directory that holds the
account's conversations, so that usage tools that read Claude's transcripts (ccusage and
others that take a comma-separated CLAUDE_CONFIG_DIR) see all of them: the account dir
(sessions outside git), each worktree's runtime, the account's copies of its runtimes'
transcripts, and the archive of removed worktrees. Nothing is written.

Each conversation is counted once: a copy (handed to another account with 'resume
--account', resumed in another worktree, archived by 'worktree rm', or kept by the account)
holds the same messages, and ccusage counts a message once however many dirs hold it
(measured with ccusage 20.0.24). A conversation continued in two worktrees (resumed from
another directory) can show as a session row in each, with the same session id: its tokens
are split between them, not doubled. A copy handed from one account to another holds the
turns made on the first too, so a list of the second alone counts them as well: for a total
over accounts, give them together (or --all), where each turn counts once.

Left out, and named with --json: runtimes the account's record does not vouch for (come with
a repository, or a path that is now another directory), runtimes whose worktree is gone
(their conversations are in the account's copies), the account's copies of a listed
runtime's transcripts when each is the runtime's own file (a hard link), conversations
'worktree rm' kept apart as not proven the account's, a runtime a launch set aside
(<runtime>.moved-<time>: not proven the account's either), and what no CLAUDE_CONFIG_DIR list can
carry: a path with a comma, and the archive of a second removed worktree of the same name
(projects-<time>: usage tools read only a dir named projects). Those the tool then misses
are named on stderr, and so is a list longer than Linux lets one environment variable hold
(128 KiB).

JSON fields: value (the line printed without --json), dirs (each: path, account, kind —
account, runtime, kept or archive — and worktree, where its conversations ran, when known),
left (each: path, account, kind, why, and missed: whether the tool misses conversations
there).

Examples:
  CLAUDE_CONFIG_DIR=$(claude-account config-dirs max) ccusage claude session
  CLAUDE_CONFIG_DIR=$(claude-account config-dirs --all) ccusage daily
  claude-account config-dirs max work --json | jq -r '.dirs[].path'`
}

// configDirsJSON is what --json prints.
type configDirsJSON struct {
	Value string `json:"value"`
	convdirs.List
}

// Run prints the list.
func (c *ConfigDirsCmd) Run(d *Deps) error {
	accts, err := c.accounts(d)
	if err != nil {
		return err
	}
	l := convdirs.Of(accts)
	if c.JSON {
		return d.stdout().JSON(configDirsJSON{Value: l.Value(), List: l})
	}
	for _, lf := range l.Left {
		if lf.Missed {
			d.notef("usage tools do not see the conversations in %s: %s", lf.Path, lf.Why)
		}
	}
	if len(l.Dirs) == 0 {
		d.notef("no conversations of %s yet", accountNames(accts))
		return nil
	}
	v := l.Value()
	if n := len("CLAUDE_CONFIG_DIR=") + len(v) + 1; n > maxEnvString {
		d.notef("the list is %d bytes, more than Linux lets one environment variable hold (%d): a tool started with it fails with \"Argument list too long\"; list fewer accounts at a time", n, maxEnvString)
	}
	d.stdout().Line(v)
	return nil
}

// maxEnvString is the most Linux takes of one environment string
// (NAME=value and its NUL): MAX_ARG_STRLEN, 32 pages of 4 KiB. A longer
// CLAUDE_CONFIG_DIR makes exec fail with E2BIG (measured: a 157 KB list).
const maxEnvString = 32 * 4096

// accounts are the accounts named, every account (--all), or the one a
// launch here would use.
func (c *ConfigDirsCmd) accounts(d *Deps) ([]conversation.Account, error) {
	if c.All {
		if len(c.Accounts) > 0 {
			return nil, UsageError{fmt.Errorf("--all lists every account: name accounts or give --all, not both")}
		}
		return accountsToSearch(d, "", "")
	}
	names := c.Accounts
	if len(names) == 0 {
		name, ok, err := AccountFlags{}.accountName(d)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, UsageError{fmt.Errorf("no account is named: give one ('claude-account config-dirs max') or --all")}
		}
		names = []string{name}
	}
	var out []conversation.Account
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		if err := checkAccountName(d, n); err != nil {
			return nil, err
		}
		a, err := loadAccount(d, n, "")
		if err != nil {
			return nil, err
		}
		out = append(out, conversation.Account{Name: a.Name, Dir: a.Dir})
	}
	return out, nil
}

// accountNames is the accounts' names for a message: "max", "max, work", or
// "any account".
func accountNames(accts []conversation.Account) string {
	if len(accts) == 0 {
		return "any account"
	}
	s := accts[0].Name
	for _, a := range accts[1:] {
		s += ", " + a.Name
	}
	return s
}
