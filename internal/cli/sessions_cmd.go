package cli

import (
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/runtimes"
)

// SessionsCmd is `claude-account sessions`.
type SessionsCmd struct {
	Account    string `short:"a" placeholder:"NAME" help:"Only this account's conversations. Default: every account's."`
	AccountDir string `placeholder:"DIR" help:"The account's directory, when it is not where a launch finds it (init --dir)."`
	All        bool   `help:"Every repository's conversations, not only this one's."`
	JSON       bool   `help:"Print JSON: an array of {id, account, repository, worktree, branch, removed, title, updated, where, verified, transcript, cwd, accounts, diverged, copies}, one per conversation."`
}

// Help is shown under the command's usage.
func (c *SessionsCmd) Help() string {
	return `Lists the conversations the launcher can reach, newest first: in every worktree's
runtime, in runtimes set aside, in the account's archive of removed worktrees, and in the
account dir itself (sessions outside git, and what 'init --from' brought). Without --all,
only those of the repository of the current directory (outside git: those that ran in it
or below). Each is shown with its account, its worktree (or "removed"), its branch, when it
last changed, and its title as Claude's own picker shows it. 'claude-account resume ID'
continues one wherever it is.

One row per conversation: a conversation handed to another account, or resumed in another
worktree, has a copy in each; the row shows its newest copy (the one whose messages hold
all the others') and, under ACCOUNT, every account that holds one ("work+max").
"(diverged)" marks copies continued apart, each with turns the other lacks: 'resume'
names them and continues the one --copy picks.

JSON fields: id (the session id), account, accountDir, repository (the repository's root,
"" outside git), worktree (the work tree it ran in), branch, removed (that work tree is
gone), title, updated (RFC 3339), where (runtime, set-aside, archive or account), verified
(false for a runtime set aside, which may have come with the repository), transcript (the
file), cwd (where it started): all of its newest copy. accounts (those holding a copy, the
newest's first), diverged (copies continued apart), and copies, when it has more than one (each copy:
account, accountDir, worktree, where, verified, updated, transcript, and standing: newest,
same, older, diverged, or unverified for one set aside, never compared).

Examples:
  claude-account sessions
  claude-account sessions --all --account max
  claude-account sessions --json | jq -r '.[0].id'`
}

// Run lists the conversations.
func (c *SessionsCmd) Run(d *Deps) error {
	accts, err := accountsToSearch(d, c.Account, c.AccountDir)
	if err != nil {
		return err
	}
	convs := conversation.Find(accts)
	if !c.All {
		convs = here(d, convs, accts)
	}
	if c.JSON {
		if convs == nil {
			convs = []conversation.Conversation{}
		}
		return d.stdout().JSON(convs)
	}
	if len(convs) == 0 {
		scope := "of this repository"
		if c.All {
			scope = "anywhere"
		}
		d.stdout().Linef("no conversation %s%s", scope, map[bool]string{true: "; 'claude-account sessions --all' lists every repository's", false: ""}[!c.All])
		return nil
	}
	tb := d.stdout().Table()
	tb.Row("UPDATED", "ACCOUNT", "WORKTREE", "BRANCH", "ID", "TITLE")
	for _, cv := range convs {
		wt := filepath.Base(cv.Worktree)
		switch {
		case cv.Removed:
			wt = "removed: " + wt
		case cv.Where == conversation.SetAside:
			wt += " (set aside)"
		}
		if c.All && cv.Repository != "" && cv.Repository != cv.Worktree {
			wt = filepath.Base(cv.Repository) + "/" + wt
		}
		who := strings.Join(cv.Accounts, "+")
		if who == "" {
			who = cv.Account
		}
		if cv.Diverged {
			who += " (diverged)"
		}
		tb.Row(age(d.Now(), cv.Updated), who, wt, orDash(cv.Branch), cv.ID, cv.Title)
	}
	return tb.Flush()
}

// here keeps the conversations of the current directory's repository; in no
// repository, those that ran in the current directory or below. A
// repository moved whole (mv) in which no launch has run since is its own
// too: its runtime, proven moved (runtimes.MovedFrom), names the common git
// dir its conversations were recorded under.
func here(d *Deps, convs []conversation.Conversation, accts []conversation.Account) []conversation.Conversation {
	ctx, _ := gitctx.Detect(d.Dir, d.Env.Get)
	ours := map[string]bool{ctx.CommonDir: true}
	if ctx.GitDir != "" {
		for _, a := range accts {
			if was, ok := runtimes.MovedFrom(a.Dir, filepath.Join(ctx.GitDir, configdir.DirName, a.Name)); ok {
				ours[was.CommonDir] = true
			}
		}
	}
	var out []conversation.Conversation
	for _, c := range convs {
		switch {
		case ctx.CommonDir != "":
			if ours[c.CommonDir] {
				out = append(out, c)
			}
		case c.CommonDir == "" && (c.Cwd == ctx.Dir || strings.HasPrefix(c.Cwd, ctx.Dir+string(filepath.Separator))):
			out = append(out, c)
		}
	}
	return out
}

// accountsToSearch is the one account named (with its dir as a launch finds
// it), or every account the launcher can find.
func accountsToSearch(d *Deps, name, dir string) ([]conversation.Account, error) {
	if name != "" {
		if err := checkAccountName(d, name); err != nil {
			return nil, err
		}
		a, err := loadAccount(d, name, dir)
		if err != nil {
			return nil, err
		}
		return []conversation.Account{{Name: a.Name, Dir: a.Dir}}, nil
	}
	var out []conversation.Account
	for _, n := range binding.KnownAccounts(d.Env) {
		if a, err := loadAccount(d, n, ""); err == nil {
			out = append(out, conversation.Account{Name: a.Name, Dir: a.Dir})
		}
	}
	return out, nil
}
