package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/usage"
	"github.com/claude-account/claude-account/internal/worktree"
)

// PsCmd is `claude-account ps`.
type PsCmd struct {
	Account string `short:"a" placeholder:"NAME" help:"Only this account's sessions. Default: every account's."`
	JSON    bool   `help:"Print JSON: an array of sessions (schema in README-CLAUDE-CODE.md); [] when none runs."`
}

// Help is shown under the command's usage.
func (c *PsCmd) Help() string {
	return `Lists every Claude the launcher started on this machine that runs now, of every account and
worktree, the ones that need you most first: its state, since when, the account, the
worktree's name and branch, Claude's PID, its tmux pane (PANE, for a session started in tmux:
where 'claude-account jump' goes) and the worktree's path. A worktree the session made itself
(claude --worktree, agents with isolation: "worktree") shows on a line of its own under it.

The state says why a session waits, from Claude's own hooks, which the launcher passes to
each session (never through settings.json). First to last:
  limit, resets 17:01   a usage limit refused its turn (Claude Code 2.1.78+); the reset
                        time from the account's figures, else as Claude printed it
  permission dialog     Claude asks to run a tool
  question              Claude asks you a question (AskUserQuestion, an MCP elicitation)
  failed (api error)    the API failed its turn
  answer ended          it answered and waits for your next prompt
  just started          no prompt yet (or after /clear)
  working               from a prompt until Claude stops
  starting              Claude has not reported yet
Sessions of one reason list the longest waiting first. Before 2.1.78 Claude reports a
limit as an answer's end. --json gives the code (reason: limit, permission, question,
failed, ended, started, working), reasonText, and at a limit resetsAt and Claude's message.
A session is listed while its launcher holds the workspace's lock, which the kernel frees
when the process dies: a dead session is never listed.

Background sessions (claude --bg, a session sent to the background with ←) are listed
beside them, of every account: their worktree (from the directory they work in), Claude's
short id under PANE/ID (what 'jump', 'close' and 'claude attach' take), Claude's own state
(starting, working, needs input, done, failed) and, under the path, Claude's line on what
it does or needs. One that needs input is listed as a question. They are read from
the files of Claude's supervisor in the account dir and in the runtimes the account's record
vouches for, never from a runtime a repository brought; ps never starts a supervisor. A
background session is listed while its process is a Claude.

Examples:
  claude-account ps
  claude-account ps --account max --json`
}

// Run lists the sessions.
func (c *PsCmd) Run(d *Deps) error {
	if c.Account != "" {
		if err := account.ValidateName(c.Account); err != nil {
			return UsageError{err}
		}
	}
	infos, err := sessions(d, c.Account)
	if err != nil {
		return err
	}
	used := accountsUsage(d, infos)
	if c.JSON {
		rows := make([]psRow, len(infos))
		for i, in := range infos {
			rows[i] = psRow{in, used[in.Account].ReportJSON(d.Now())}
		}
		return writeJSON(d, rows)
	}
	if len(infos) == 0 {
		d.stdout().Line("no Claude session runs")
		return nil
	}
	defer func() {
		// Each account's rate limits under the sessions, as its sessions
		// last reported them.
		names := make([]string, 0, len(used))
		for name := range used {
			names = append(names, name)
		}
		slices.Sort(names)
		d.stdout().Line("")
		tb := d.stdout().Table()
		tb.Row("ACCOUNT", "USAGE")
		for _, name := range names {
			tb.Row(name, used[name].Long(d.Now()))
		}
		_ = tb.Flush()
	}()
	tb := d.stdout().Table()
	tb.Row("STATE", "SINCE", "ACCOUNT", "WORKTREE", "BRANCH", "PID", "PANE/ID", "PATH")
	for _, in := range infos {
		// A background session has no pane: its short id is what jump,
		// close and Claude's own attach take.
		pane := in.Pane
		if in.Kind == session.Background {
			pane = in.ID
		}
		tb.Row(in.ReasonText, since(d.Now(), in.Since), in.Account,
			orDash(worktreeName(in)), orDash(in.Branch), strconv.Itoa(in.PID), orDash(pane), orDash(d.Env.TildePath(in.Path)))
		for _, w := range in.Worktrees {
			tb.Row("", "", "", "└ "+orDash(worktree.Flatten(w.Slug)), orDash(w.Branch), "", "", d.Env.TildePath(w.Path))
		}
		if in.Detail != "" {
			// Under the path, in the last column, which sets no width.
			tb.Row("", "", "", "", "", "", "", "└ "+in.Detail)
		}
	}
	return tb.Flush()
}

// psRow is a session as ps --json prints it: with its account's usage.
type psRow struct {
	session.Info
	Usage json.RawMessage `json:"usage"`
}

// accountsUsage is the usage record of each account among infos; unknown
// where its dir cannot be found or holds none.
func accountsUsage(d *Deps, infos []session.Info) map[string]usage.Usage {
	used := map[string]usage.Usage{}
	for _, in := range infos {
		if _, ok := used[in.Account]; ok {
			continue
		}
		var u usage.Usage
		if dir, err := binding.AccountDir(d.Env, in.Account); err == nil {
			u, _ = usage.Read(dir, d.Now())
		}
		used[in.Account] = u
	}
	return used
}

// sessions are the running sessions (of account, or of all when ""), in the
// order of why they wait (order), the longest waiting first, each with what
// a person reads of why (explain).
func sessions(d *Deps, acct string) ([]session.Info, error) {
	running, err := session.List(lock.Dir(d.Env))
	if err != nil {
		return nil, err
	}
	infos := []session.Info{}
	for _, r := range running {
		if acct != "" && r.Lock.Account != acct {
			continue
		}
		infos = append(infos, session.Describe(r, d.Env.Get))
	}
	infos = append(infos, backgroundSessions(d, acct)...)
	explain(d, infos)
	// Why each waits decides (order): a session at a limit, then one
	// blocked on a dialog, before one that merely started; a background
	// session that needs input ranks as a question.
	sort.SliceStable(infos, func(i, j int) bool {
		a, b := infos[i], infos[j]
		if oa, ob := order(a), order(b); oa != ob {
			return oa < ob
		}
		return a.Since.Before(b.Since)
	})
	return infos, nil
}

// worktreeName is a session's worktree as ps names it: its directory's
// name (the slug flattened, refactor+parser for refactor/parser, as
// 'worktree list' and the status line show it), "main" for a repository's
// main worktree, "" outside git.
func worktreeName(in session.Info) string {
	switch {
	case in.Slug != "":
		return worktree.Flatten(in.Slug)
	case in.Branch != "":
		return "main"
	}
	return ""
}

// since is how long a state has lasted, to the second in its first minute:
// "12s", "3m", "2h".
func since(now, t time.Time) string {
	if d := now.Sub(t); d < time.Minute && !t.IsZero() {
		return fmt.Sprintf("%ds", max(0, int(d.Seconds())))
	}
	return age(now, t)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// sessionsIn gives, for a worktree's top level, the sessions that run there
// or made it from another worktree. For 'worktree list'.
func sessionsIn(d *Deps) func(toplevel string) []session.Info {
	infos, _ := sessions(d, "")
	return func(toplevel string) []session.Info {
		out := []session.Info{}
		canon, err := filepath.EvalSymlinks(toplevel)
		if err != nil {
			return out
		}
		for _, in := range infos {
			made := slices.ContainsFunc(in.Worktrees, func(w session.Worktree) bool { return w.Path == canon })
			if in.Path == canon || made {
				out = append(out, in)
			}
		}
		return out
	}
}

// waitingCount is how many of the account's sessions wait for the user,
// leaving out Claude session self (the one asking).
func waitingCount(d *Deps, acct, self string) int {
	running, err := session.List(lock.Dir(d.Env))
	if err != nil {
		d.notef("%v", err) // the line goes on without the count
		return 0
	}
	n := 0
	for _, r := range running {
		if r.Lock.Account == acct && r.State != nil && r.State.State == session.Waiting && (self == "" || r.State.SessionID != self) {
			n++
		}
	}
	return n
}
