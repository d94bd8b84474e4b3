package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/doctor"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/usage"
)

// AccountsCmd is `claude-account accounts`.
type AccountsCmd struct {
	JSON bool `help:"Print JSON: an array of {name, dir, loggedIn, plan, email, claude, running, waiting, usage, problem?}; see below."`
}

// Help is shown under the command's usage.
func (c *AccountsCmd) Help() string {
	return `Lists every account the launcher can find: those home-manager declares (in
$XDG_CONFIG_HOME/claude-account/accounts.declared, or at their default place) and those
'claude-account init' made as ~/.claude-NAME. A ~/.claude-NAME directory is an account only
with an account.toml in it (init and home-manager write one): any other, such as a backup
or ~/.claude-code-router, is named on stderr as skipped, and never picked by --account auto.
An account 'init --dir' made elsewhere is found only by --account-dir. For each: its directory, whether it is logged in (with the plan
and email Claude recorded), its sessions running and waiting, its five-hour and weekly usage
as its sessions last reported them (with the reset times and the age of the figure), and the
Claude Code it runs. Nothing is started: the release is what Claude's files (or what the
launcher learned before) tell, else unknown.

An account that declares who it must be ([identity] email and/or organization in
account.toml) shows "as declared", ": NOT as declared (…), sessions refused", or
"(identity not checkable)" (no identity recorded yet, or a key or token bills) after its
login.

JSON fields, one object an account (more may be added; none is removed):
  name      the account name
  dir       its directory
  loggedIn  true when the account dir holds Claude's login (.credentials.json); false
            when not (Claude asks once, for the whole account); null where Claude keeps
            the login in the macOS keychain, which is not read
  claude    the Claude Code binary the account runs, null when none is found:
            {path, target?, version ("" when unknown), versionFrom, problem?}
  plan      the subscription of the login (claudeAiOauth.subscriptionType in
            .credentials.json: "pro", "max"…), null when Claude recorded none
  email     the login's address as Claude last recorded it (oauthAccount.emailAddress;
            identity.recorded.email), or null
  identity  who the login is and whether it is who the account must be:
              {login: "subscription" | "api-key" | "token" | "none",
               recorded: {email?, organizationName?, organizationUuid?, accountUuid?,
                          displayName?} or null (Claude's oauthAccount),
               declared: {email?, organization?} or null ([identity] in account.toml),
               verdict: "match" | "mismatch" | "unknown" | "not-declared",
               billedBy?, fix?, problem?}
            a launch of an account whose verdict is "mismatch" is refused. "api-key": a
            key in the environment or in the env of the account's settings, an
            apiKeyHelper, or a Console login's key bills (billedBy names it); it carries
            no identity, so the verdict is "unknown", never "mismatch". "subscription"
            with recorded null: a login whose identity Claude has not recorded yet (fix
            names the login command that records it)
  running   how many of its sessions run now (as 'ps' lists them)
  waiting   how many of those wait for you
  usage     its rate limits as its sessions last reported them (Claude Code 2.1.80
            or later, a subscriber's login), each field null where unknown:
              {fiveHour: {usedPercent, resetsAt}, sevenDay: {usedPercent, resetsAt},
               updatedAt, state}
            usedPercent is 0–100 as reported (a window past its resetsAt is unused
            again; one whose reset is further ahead than the window is long, plus
            an hour, is not believed: null); resetsAt and updatedAt are RFC 3339 times;
            state is "current", "old" (the five-hour window reported has reset
            since, or the figures are five hours old: the table shows them as they
            were and since when no session reported) or "unknown" (none ever).
            Only interactive sessions report: Claude runs no status line for -p.
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
	Plan     *string           `json:"plan"`
	Email    *string           `json:"email"`
	Claude   *claudever.Binary `json:"claude"`
	Running  int               `json:"running"`
	Waiting  int               `json:"waiting"`
	Usage    json.RawMessage   `json:"usage"`
	Identity *doctor.Identity  `json:"identity"`
	Problem  string            `json:"problem,omitempty"`

	used usage.Usage
}

// Run lists the accounts.
func (c *AccountsCmd) Run(d *Deps) error {
	list, skipped := listAccounts(d)
	// On stderr, also with --json: the JSON is an array of accounts, which
	// has no place for what is none without breaking its readers.
	noteSkipped(d, skipped)
	if c.JSON {
		return d.stdout().JSON(list)
	}
	if len(list) == 0 {
		d.stdout().Line("no account yet; make one with 'claude-account init NAME' (with '--from ~/.claude' to take in the setup you have), or declare it in home-manager")
		return nil
	}
	tb := d.stdout().Table()
	tb.Row("NAME", "DIR", "LOGGED IN", "CLAUDE", "SESSIONS", "USAGE")
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
		if a.LoggedIn != nil && *a.LoggedIn && (a.Plan != nil || a.Email != nil) {
			var who []string
			for _, p := range []*string{a.Plan, a.Email} {
				if p != nil {
					who = append(who, *p)
				}
			}
			login += " (" + strings.Join(who, ", ") + ")"
		}
		login += identityWords(a.Identity)
		sessions := "-"
		if a.Running > 0 {
			sessions = fmt.Sprintf("%d running, %d waiting", a.Running, a.Waiting)
		}
		used := a.used.Long(d.Now())
		if a.Claude != nil && a.Claude.Known && !a.Claude.Has(claudever.RateLimitsInStatus) && !a.used.Known() {
			// Not a guess either: this release never reports.
			used += " (Claude " + a.Claude.Version.String() + " reports none; " + claudever.RateLimitsInStatus.String() + " and later do)"
		}
		tb.Row(a.Name, d.Env.TildePath(a.Dir), login, cl, sessions, used)
	}
	return tb.Flush()
}

// listAccounts is every account binding.FindAccounts finds, loaded as a
// launch loads it, in name order; one that does not load is listed with
// its problem. skipped are the ~/.claude-* directories that are no account.
func listAccounts(d *Deps) (list []AccountJSON, skipped []binding.Skipped) {
	out := []AccountJSON{}
	running, _ := session.List(lock.Dir(d.Env))
	names, skipped := binding.FindAccounts(d.Env)
	for _, name := range names {
		dir, _ := binding.AccountDir(d.Env, name)
		aj := AccountJSON{Name: name, Dir: dir, Usage: usage.Usage{}.ReportJSON(d.Now())}
		for _, r := range running {
			if r.Lock.Account == name {
				aj.Running++
				if r.State != nil && r.State.State == session.Waiting {
					aj.Waiting++
				}
			}
		}
		a, err := loadAccount(d, name, "")
		if err != nil {
			aj.Problem = err.Error()
			out = append(out, aj)
			continue
		}
		aj.Dir = a.Dir
		aj.used, _ = usage.Read(a.Dir, d.Now())
		aj.Usage = aj.used.ReportJSON(d.Now())
		id := doctor.IdentityOf(a, d.Env)
		aj.Identity = &id
		aj.Plan, aj.Email = whoIsLoggedIn(a.Dir, id)
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
	return out, skipped
}

// noteSkipped says, one line each, which ~/.claude-* directories were not
// taken for accounts, why, and how to make one an account if it is one.
func noteSkipped(d *Deps, skipped []binding.Skipped) {
	for _, s := range skipped {
		d.notef("skipped %s: %s", d.Env.TildePath(s.Dir), skippedWhy(d, s))
	}
}

// skippedWhy is why a directory is no account, with the fix.
func skippedWhy(d *Deps, s binding.Skipped) string {
	if s.Reason == binding.BadName {
		return fmt.Sprintf("%q is not a valid account name, so it is no account (if it is one, rename it ~/.claude-NAME, NAME of lower-case letters, digits, '-' and '_')", s.Name)
	}
	return fmt.Sprintf("it has no account.toml, so it is no account (if it is one, run: echo 'name = %q' > %s)",
		s.Name, d.Env.ShellPath(filepath.Join(s.Dir, account.FileName)))
}

// whoIsLoggedIn is the plan and the email Claude recorded for the account's
// login: the subscription in .credentials.json, the address as Claude last
// recorded it (id, oauthAccount); nil where it recorded none (an API key,
// the keychain).
func whoIsLoggedIn(dir string, id doctor.Identity) (plan, email *string) {
	if data, err := fsx.ReadFile(filepath.Join(dir, configdir.Credentials)); err == nil {
		if v := gjson.GetBytes(data, "claudeAiOauth.subscriptionType"); v.Type == gjson.String && v.Str != "" {
			plan = &v.Str
		}
	}
	if id.Recorded != nil && id.Recorded.Email != "" {
		email = &id.Recorded.Email
	}
	return plan, email
}

// accountsHint points at the list, for errors about an account.
const accountsHint = "'claude-account accounts' lists them"
