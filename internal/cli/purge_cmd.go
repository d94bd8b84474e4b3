package cli

import (
	"time"

	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/worktree"
)

// PurgeCmd is `claude-account purge`.
type PurgeCmd struct {
	Account    string `short:"a" placeholder:"NAME" help:"Only this account's copies. Default: every account's."`
	AccountDir string `placeholder:"DIR" help:"The account's directory, when it is not where a launch finds it (init --dir)."`
	OlderThan  string `placeholder:"AGE" help:"Only copies untouched for longer than this: 30d, 12h, 90m; 0 for all. Default: as long as Claude keeps transcripts (cleanupPeriodDays, 30d)."`
	Live       bool   `help:"Also a copy that is the only one left of a conversation of a worktree still there, or holds turns the worktree's transcript of it lacks."`
	DryRun     bool   `help:"Say what would go; remove nothing."`
	JSON       bool   `help:"Print JSON: {removed: [...], left: [...]}, each {account, id, worktree, updated, path, inWorktree, why}."`
}

// Help is shown under the command's usage.
func (c *PurgeCmd) Help() string {
	return `The account keeps its own copy of every conversation a Claude it started wrote in a
worktree, in <account dir>/archive/<repository>/<worktree>/kept-<…>/: a hard link to the
transcript (no disk used; it follows each turn), or a copy where the account dir is on
another file system. So 'rm -rf' of a worktree and 'git worktree prune' (which 'git gc'
runs) lose no conversation: 'claude-account sessions --all' lists it as removed, and
'claude-account resume ID' makes the worktree again and continues it.

Those copies follow Claude's own retention: one untouched for longer than
cleanupPeriodDays (settings.json; 30 days by default, 0 keeps them forever) goes after
the account's next session that wrote a conversation, as Claude's cleanup deletes the
worktree's own at its next start. purge removes them sooner: those untouched for longer
than --older-than (default: that same period). It removes only the account's copies,
never a worktree's transcript; and it leaves a copy that is the only one left of a
conversation of a worktree that is still there (Claude's cleanup or you deleted the
worktree's own) unless --live. A conversation in a worktree stays resumable there.

A hard-linked copy is the transcript itself until the transcript is replaced. An
older backup restored over it with tar, rsync or mv (a new file) leaves the copy
holding the turns after the backup: purge leaves that copy unless --live, and once
the restored transcript is continued, the copy is set aside beside it
(kept-<…>-diverged-<time>/), where 'sessions' lists the conversation as diverged and 'resume'
names both. A restore with plain cp, or anything else that rewrites the transcript in
place, changes the account's copy too: it is the same file. Keep your own backup of
a transcript, and restore it with tar, rsync or mv, never by writing over it.

Examples:
  claude-account purge --dry-run
  claude-account purge --older-than 7d --account max
  claude-account purge --older-than 0 --json`
}

// purgedRow is one copy in purge's JSON.
type purgedRow struct {
	Account string `json:"account"`
	worktree.Purged
}

// Run removes the copies.
func (c *PurgeCmd) Run(d *Deps) error {
	accts, err := accountsToSearch(d, c.Account, c.AccountDir)
	if err != nil {
		return err
	}
	var older time.Duration
	if c.OlderThan != "" && c.OlderThan != "0" {
		if older, err = parseAge(c.OlderThan); err != nil {
			return UsageError{err}
		}
	}
	removed, left := []purgedRow{}, []purgedRow{}
	for _, a := range accts {
		o := worktree.PurgeOptions{OlderThan: older, Now: d.Now(), DryRun: c.DryRun, Live: c.Live}
		if c.OlderThan == "" {
			o.OlderThan = conversation.Keep(a.Dir)
			if o.OlderThan == 0 {
				// cleanupPeriodDays 0: Claude keeps every transcript, and
				// so does the account, until told an age.
				continue
			}
		}
		release, err := lock.Account(lock.Dir(d.Env), a.Name)
		if err != nil {
			return err
		}
		rm, l, err := worktree.PurgeCopies(a.Dir, o)
		release()
		for _, p := range rm {
			removed = append(removed, purgedRow{a.Name, p})
		}
		for _, p := range l {
			left = append(left, purgedRow{a.Name, p})
		}
		if err != nil {
			return err
		}
	}
	if c.JSON {
		return d.stdout().JSON(map[string][]purgedRow{"removed": removed, "left": left})
	}
	verb := "removed"
	if c.DryRun {
		verb = "would remove"
	}
	for _, p := range removed {
		also := ""
		if p.Also {
			also = " (its worktree keeps it)"
		}
		d.stdout().Linef("%s %s's copy of conversation %s of %s, untouched for %s%s", verb, p.Account, p.ID, orDash(d.Env.TildePath(p.Worktree)), age(d.Now(), p.Updated), also)
	}
	for _, p := range left {
		d.stdout().Linef("left %s's copy of conversation %s: %s", p.Account, p.ID, p.Why)
	}
	if len(removed) == 0 && len(left) == 0 {
		d.stdout().Line("no copy of a conversation to purge")
	}
	return nil
}
