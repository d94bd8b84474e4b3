package cli

import (
	"os"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/launch"
)

// AccountsCmd is `claude-account accounts`.
type AccountsCmd struct {
	JSON bool `help:"Print JSON: an array of {name, dir, loggedIn, claude, problem?}; see below."`
}

// Help is shown under the command's usage.
func (c *AccountsCmd) Help() string {
	return `Lists every account the launcher can find: those home-manager declares (in
$XDG_CONFIG_HOME/claude-account/accounts.declared, or at their default place) and those
'claude-account init' made as ~/.claude-NAME. An account 'init --dir' made elsewhere is
found only by --account-dir. For each: its directory, whether it is logged in, and the
Claude Code it runs. Nothing is started: the release is what Claude's files (or what the
launcher learned before) tell, else unknown.

JSON fields, one object an account (more may be added; none is removed):
  name      the account name
  dir       its directory
  loggedIn  true when the account dir holds Claude's login (.credentials.json); false
            when not (Claude asks once, for the whole account); null where Claude keeps
            the login in the macOS keychain, which is not read
  claude    the Claude Code binary the account runs, null when none is found:
            {path, target?, version ("" when unknown), versionFrom, problem?}
  problem   present when the account cannot be loaded (its account.toml), with the fix

Examples:
  claude-account accounts
  claude-account accounts --json | jq -r '.[] | select(.loggedIn == false) | .name'`
}

// AccountJSON is one account of `accounts --json`. Fields are only ever
// added (issue 29 adds usage and sessions).
type AccountJSON struct {
	Name     string            `json:"name"`
	Dir      string            `json:"dir"`
	LoggedIn *bool             `json:"loggedIn"`
	Claude   *claudever.Binary `json:"claude"`
	Problem  string            `json:"problem,omitempty"`
}

// Run lists the accounts.
func (c *AccountsCmd) Run(d *Deps) error {
	list := listAccounts(d)
	if c.JSON {
		return d.stdout().JSON(list)
	}
	if len(list) == 0 {
		d.stdout().Line("no account yet; make one with 'claude-account init NAME' (with '--from ~/.claude' to take in the setup you have), or declare it in home-manager")
		return nil
	}
	tb := d.stdout().Table()
	tb.Row("NAME", "DIR", "LOGGED IN", "CLAUDE")
	for _, a := range list {
		login := "keychain"
		if a.LoggedIn != nil {
			login = map[bool]string{true: "yes", false: "no"}[*a.LoggedIn]
		}
		cl := "not found"
		if a.Claude != nil {
			cl = d.Env.TildePath(a.Claude.Path)
			if a.Claude.Known {
				cl = a.Claude.Version.String() + " (" + cl + ")"
			}
		}
		if a.Problem != "" {
			login, cl = "?", "problem: "+a.Problem
		}
		tb.Row(a.Name, d.Env.TildePath(a.Dir), login, cl)
	}
	return tb.Flush()
}

// listAccounts is every account binding.KnownAccounts finds, loaded as a
// launch loads it, in name order; one that does not load is listed with
// its problem.
func listAccounts(d *Deps) []AccountJSON {
	out := []AccountJSON{}
	for _, name := range binding.KnownAccounts(d.Env) {
		dir, _ := binding.AccountDir(d.Env, name)
		aj := AccountJSON{Name: name, Dir: dir}
		a, err := loadAccount(d, name, "")
		if err != nil {
			aj.Problem = err.Error()
			out = append(out, aj)
			continue
		}
		aj.Dir = a.Dir
		if path, err := launch.FindClaude(launch.Candidates(a, d.Env), d.Env); err == nil {
			b := claudever.IdentifyWith(path, claudever.Options{Cache: launch.VersionsCache(d.Env), NoAsk: true})
			aj.Claude = &b
		}
		if !(aj.Claude != nil && aj.Claude.Keychain() || aj.Claude == nil && claudever.Host == "darwin") {
			_, err := os.Lstat(filepath.Join(a.Dir, configdir.Credentials))
			in := err == nil
			aj.LoggedIn = &in
		}
		out = append(out, aj)
	}
	return out
}

// accountsHint points at the list, for errors about an account.
const accountsHint = "'claude-account accounts' lists them"
