package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudeproc"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/worktree"
)

// WorktreeCmd groups the worktree commands.
type WorktreeCmd struct {
	New   WorktreeNewCmd   `cmd:"" help:"Make a worktree for a parallel session (or reuse the one that exists)."`
	List  WorktreeListCmd  `cmd:"" help:"List every worktree with its state and any running Claude."`
	Diff  WorktreeDiffCmd  `cmd:"" help:"Show what a worktree changed against its base, committed or not."`
	Merge WorktreeMergeCmd `cmd:"" help:"Land a worktree's commits on its local base branch (merge, rebase or squash), then remove it."`
	Rm    WorktreeRmCmd    `cmd:"" help:"Remove worktrees without losing work."`
	Gc    WorktreeGCCmd    `cmd:"" name:"gc" help:"Remove stale ephemeral worktrees (and, with --merged, merged ones)."`
}

// Help is shown under the command's usage.
func (WorktreeCmd) Help() string {
	return `Worktrees live in .claude/worktrees/<name> (account.toml [worktree] dir moves them;
in a bare repository app.git they go to the sibling app.worktrees/<name>) on branch
worktree-<name>; '/' in a name becomes '+'.

Examples:
  claude-account worktree new fix-login
  claude-account run --account max --worktree fix-login
  claude-account worktree list --json
  claude-account worktree diff fix-login --stat
  claude-account worktree merge fix-login --strategy squash
  claude-account worktree rm fix-login
  claude-account worktree gc --older-than 7d --dry-run
  claude-account worktree gc --merged`
}

// repoFor opens the repository of the working directory, with the
// account's worktree settings when an account is named or bound, so that
// `worktree new x` and `run --worktree x` agree on where x lives.
func repoFor(d *Deps, f AccountFlags) (*worktree.Repo, *account.Account, gitctx.Context, error) {
	var a *account.Account
	if _, named, err := f.accountName(d); err != nil {
		return nil, nil, gitctx.Context{}, err
	} else if named {
		ws, err := f.load(d)
		if err != nil {
			return nil, nil, gitctx.Context{}, err
		}
		a = ws.Account
	}
	ctx, err := gitctx.Detect(d.Dir, d.Env.Get)
	if err != nil {
		return nil, nil, ctx, err
	}
	dir := ""
	if a != nil {
		dir = a.WorktreeDir(d.Env)
	}
	r, err := worktree.Open(ctx, dir, d.Env.List())
	return r, a, ctx, err
}

// accountDirs is launch.AccountDirs for the account named on the command
// line or bound here (a): rm and gc archive a runtime's transcripts where a
// launch of its account finds that account.
func accountDirs(d *Deps, a *account.Account) func(string) string {
	return launch.AccountDirs(d.Env, a)
}

// runningIn is lock.RunningIn on the lock dir, saying on stderr why it
// lists none where it refuses the dir: the command goes on, as no Claude of
// ours runs off such a dir.
func runningIn(d *Deps) func(string) []string {
	return lock.RunningIn(lock.Dir(d.Env), func(err error) { d.notef("%v", err) })
}

// claudesIn gives the PIDs of live Claude processes working in a worktree,
// however they were started, or why it cannot tell; the process table is
// read once, on first use.
func claudesIn() func(string) ([]int, error) {
	var once sync.Once
	var snap *claudeproc.Snapshot
	return func(path string) ([]int, error) {
		once.Do(func() { snap = claudeproc.Current() })
		return snap.In(path)
	}
}

// WorktreeNewCmd is `claude-account worktree new`.
type WorktreeNewCmd struct {
	AccountFlags
	Slug      string `arg:"" name:"name" help:"The worktree's name, e.g. fix-login or me/feature."`
	Base      string `placeholder:"REF" help:"Start from this ref. Default: the remote's default branch, else HEAD."`
	Ephemeral bool   `help:"Remove it after 'run --worktree' when it holds no work, and let 'worktree gc' sweep it."`
	JSON      bool   `help:"Print JSON: {path, branch, created, notes}."`
}

// Run makes the worktree and prints its path last.
func (c *WorktreeNewCmd) Run(d *Deps) error {
	res, _, err := newWorktree(d, c.AccountFlags, c.Slug, c.Base, c.Ephemeral)
	if err != nil {
		return err
	}
	if c.JSON {
		return writeJSON(d, map[string]any{"path": res.Path, "branch": res.Branch, "created": res.Created, "notes": nonNil(res.Notes)})
	}
	for _, n := range res.Notes {
		d.stdout().Line(n)
	}
	d.stdout().Line(res.Path)
	return nil
}

func newWorktree(d *Deps, f AccountFlags, slug, base string, ephemeral bool) (*worktree.Result, *worktree.Repo, error) {
	if err := worktree.ValidateSlug(slug); err != nil {
		return nil, nil, UsageError{err}
	}
	r, a, _, err := repoFor(d, f)
	if err != nil {
		return nil, nil, err
	}
	o := worktree.Options{Slug: slug, Base: base, Ephemeral: ephemeral, Now: d.Now(), Background: fleetKeeping(d, a), Alive: aliveFn()}
	if a != nil {
		o.SymlinkDirs, o.SparsePaths = a.Config.Worktree.SymlinkDirs, a.Config.Worktree.SparsePaths
	}
	res, err := r.New(o)
	return res, r, err
}

// WorktreeListCmd is `claude-account worktree list`.
type WorktreeListCmd struct {
	AccountFlags
	JSON bool `help:"Print JSON: an array of worktrees (schema in README-CLAUDE-CODE.md)."`
}

// Run lists.
func (c *WorktreeListCmd) Run(d *Deps) error {
	r, _, _, err := repoFor(d, c.AccountFlags)
	if err != nil {
		return err
	}
	infos, err := r.List(runningIn(d))
	if err != nil {
		return err
	}
	// Each worktree's sessions, as 'ps' shows them.
	sessionsOf := sessionsIn(d)
	if c.JSON {
		type withSessions struct {
			worktree.Info
			Sessions []session.Info `json:"sessions"`
		}
		out := make([]withSessions, len(infos))
		for i, wt := range infos {
			out[i] = withSessions{wt, sessionsOf(wt.Path)}
		}
		return writeJSON(d, out)
	}
	tb := d.stdout().Table()
	tb.Row("PATH", "BRANCH", "STATE", "AGE", "RUNTIME", "RUNNING")
	for _, in := range infos {
		state := []string{}
		if in.Dirty > 0 {
			state = append(state, fmt.Sprintf("%d changed", in.Dirty))
		}
		if in.Ahead > 0 {
			state = append(state, fmt.Sprintf("%d ahead", in.Ahead))
		}
		if in.Behind > 0 {
			state = append(state, fmt.Sprintf("%d behind", in.Behind))
		}
		if in.Merged && in.Ahead > 0 {
			state = append(state, "merged") // its commits are on the base already (squash-merged)
		}
		if in.Ephemeral {
			state = append(state, "ephemeral")
		}
		if len(state) == 0 {
			state = append(state, "clean")
		}
		branch := in.Branch
		if branch == "" {
			branch = "(detached)"
		}
		var states []string
		for _, s := range sessionsOf(in.Path) {
			if s.Kind == session.Background {
				// Its short id: what attach, stop and jump take.
				states = append(states, s.Account+" "+s.ID+" "+s.State)
				continue
			}
			states = append(states, s.Account+" "+s.State)
		}
		running := strings.Join(states, ", ")
		if running == "" {
			running = "-"
		}
		tb.Row(d.Env.TildePath(in.Path), branch, strings.Join(state, ", "),
			age(d.Now(), in.Created), size(in.RuntimeBytes), running)
	}
	return tb.Flush()
}

// WorktreeRmCmd is `claude-account worktree rm`.
type WorktreeRmCmd struct {
	AccountFlags
	Names []string `arg:"" name:"name" help:"The worktrees: each a name, path or branch."`
	Force bool     `help:"Remove even with uncommitted changes (saved first under refs/claude-account/wip/<name>) or unmerged commits (their branch is kept)."`
	JSON  bool     `help:"Print JSON: [{name, path, removed, notes, error, reason}], one for each name, refused or not."`
}

// rmResult is what rm did with one name.
type rmResult struct {
	Name    string   `json:"name"`
	Path    string   `json:"path"`
	Removed bool     `json:"removed"`
	Notes   []string `json:"notes"`
	Error   string   `json:"error,omitempty"`
	Reason  string   `json:"reason,omitempty"` // a refusal's reason: running, uncommitted, commits...
}

// Run removes every worktree named, or none: each is checked before any is
// removed, so that a script's "rm a b c" never leaves half of them.
func (c *WorktreeRmCmd) Run(d *Deps) error {
	for _, n := range c.Names {
		if strings.TrimSpace(n) == "" {
			return UsageError{fmt.Errorf("worktree rm: %w", worktree.ErrEmptyName)}
		}
	}
	r, a, _, err := repoFor(d, c.AccountFlags)
	if err != nil {
		return err
	}
	o := worktree.RemoveOptions{Force: c.Force, Running: runningIn(d), Claudes: claudesIn(),
		Background: fleetKeeping(d, a), Alive: aliveFn(), AccountDir: accountDirs(d, a), Now: d.Now()}
	results := make([]rmResult, 0, len(c.Names))
	var entries []*worktree.Entry
	seen := map[string]bool{}
	var refused []error
	for _, n := range c.Names {
		res := rmResult{Name: n, Notes: []string{}}
		e, err := r.Resolve(n)
		if err == nil && seen[e.Path] {
			continue // named twice (by name and by path): removed once
		}
		if err == nil {
			seen[e.Path] = true
			res.Path = e.Path
			err = r.CheckRemoval(e, o)
		}
		if err != nil {
			res.Error = err.Error()
			var ref *worktree.Refusal
			if errors.As(err, &ref) {
				res.Reason = ref.Reason.String()
			}
			refused = append(refused, err)
		}
		results, entries = append(results, res), append(entries, e)
	}
	if len(refused) > 0 {
		if c.JSON {
			if err := writeJSON(d, results); err != nil {
				return err
			}
		}
		if len(results) == 1 {
			return refused[0]
		}
		if !c.JSON {
			for _, res := range results {
				if res.Error != "" {
					d.notef("%s: %s", res.Name, res.Error)
				}
			}
		}
		return fmt.Errorf("removed none of the %d worktrees: %d refused (said above); deal with those, or name only the others", len(results), len(refused))
	}
	var failed error
	for i, e := range entries {
		res := &results[i]
		if failed != nil {
			res.Error = "not removed: the removal of an earlier one failed"
			continue
		}
		// Asked before the removal: afterwards the working directory is gone.
		inside := standsIn(d.Dir, e.Path)
		rm, err := r.Remove(e, o)
		if err != nil {
			res.Error, failed = err.Error(), err
			continue
		}
		res.Removed, res.Notes = true, nonNil(rm.Notes)
		if !c.JSON {
			for _, n := range rm.Notes {
				d.stdout().Line(n)
			}
			d.stdout().Linef("removed %s", d.Env.TildePath(rm.Path))
		}
		if inside {
			// The shell that ran rm still stands in the deleted directory, where
			// git and every launch fail: say where to go, apart from the output.
			d.notef("you were in %s, which is gone now; go to the main worktree: cd %s", d.Env.TildePath(rm.Path), d.Env.ShellPath(r.Root))
		}
	}
	if c.JSON {
		if err := writeJSON(d, results); err != nil {
			return err
		}
	}
	if failed != nil && len(results) > 1 {
		var done []string
		for _, res := range results {
			if res.Removed {
				done = append(done, res.Name)
			}
		}
		return fmt.Errorf("removed %d of the %d worktrees (%s); then: %w", len(done), len(results), strings.Join(done, ", "), failed)
	}
	return failed
}

// standsIn reports whether dir is root or below it, links resolved, as the
// file system names them (a mis-cased cd on macOS stands in it too).
func standsIn(dir, root string) bool {
	c, err1 := filepath.EvalSymlinks(dir)
	t, err2 := filepath.EvalSymlinks(root)
	return err1 == nil && err2 == nil && fsx.Within(c, t)
}

// WorktreeGCCmd is `claude-account worktree gc`.
type WorktreeGCCmd struct {
	AccountFlags
	OlderThan string `default:"30d" placeholder:"AGE" help:"Only ephemeral worktrees older than this: 30d, 12h, 90m."`
	Merged    bool   `help:"Also remove named worktrees, whatever their age, that are clean and whose commits are all in their base (merged or squash-merged)."`
	DryRun    bool   `help:"Say what would be removed, remove nothing."`
	JSON      bool   `help:"Print JSON: [{path, removed, why, notes}]."`
}

// Run sweeps.
func (c *WorktreeGCCmd) Run(d *Deps) error {
	age, err := parseAge(c.OlderThan)
	if err != nil {
		return UsageError{err}
	}
	r, a, _, err := repoFor(d, c.AccountFlags)
	if err != nil {
		return err
	}
	vs, err := r.GC(worktree.GCOptions{OlderThan: age, Merged: c.Merged, DryRun: c.DryRun, Running: runningIn(d), Claudes: claudesIn(),
		Background: fleetKeeping(d, a), Alive: aliveFn(), AccountDir: accountDirs(d, a), Now: d.Now()})
	if err != nil {
		return err
	}
	if c.JSON {
		if vs == nil {
			vs = []worktree.Verdict{}
		}
		return writeJSON(d, vs)
	}
	verb := "removed"
	if c.DryRun {
		verb = "would remove"
	}
	for _, v := range vs {
		if v.Removed {
			d.stdout().Linef("%s %s: %s", verb, d.Env.TildePath(v.Path), v.Why)
			// What rm says of it: where its transcripts went, the work
			// it kept. Indented under the worktree it belongs to.
			for _, n := range v.Notes {
				d.stdout().Line("  " + n)
			}
		} else {
			d.stdout().Linef("kept %s: %s", d.Env.TildePath(v.Path), v.Why)
		}
	}
	return nil
}

// parseAge reads 30d, 12h, 90m (and anything time.ParseDuration takes).
func parseAge(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		var days int
		if _, err := fmt.Sscanf(n, "%d", &days); err == nil && days >= 0 && fmt.Sprint(days) == n {
			return time.Duration(days) * 24 * time.Hour, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, errors.New("--older-than " + s + " is not an age; use e.g. 30d, 12h or 90m")
	}
	return d, nil
}

func age(now, t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	d := now.Sub(t)
	switch {
	case d < -time.Minute:
		// A time ahead of the clock (a skewed clock, a file from another
		// machine) has no age to give: "-59m" reads as nonsense.
		return "future"
	case d < time.Hour:
		d = max(d, 0)
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

func size(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%dB", n)
	case n < 1<<20:
		return fmt.Sprintf("%.0fK", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1fM", float64(n)/(1<<20))
}

func writeJSON(d *Deps, v any) error { return d.stdout().JSON(v) }

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Help is shown under the command's usage.
func (c *WorktreeNewCmd) Help() string {
	return `Makes .claude/worktrees/<name> on branch worktree-<name> ('/' becomes '+'), or reuses
the one that exists; an existing worktree-<name> branch is checked out as it is, never
reset. Uncommitted work 'worktree rm --force' saved of a worktree of that name comes
back, uncommitted, and its ref is dropped; saved on another commit than the new
worktree starts on, it makes nothing and names the choices. The path is the last line
printed.

Examples:
  claude-account worktree new fix-login
  cd "$(claude-account worktree new me/feature --base origin/release | tail -1)"`
}

// Help is shown under the command's usage.
func (c *WorktreeListCmd) Help() string {
	return `Shows every worktree git knows of: branch, uncommitted changes, commits ahead of and
behind its base, whether its commits are merged (squash merges included), age, the size
of its runtime and which accounts run Claude there (a background session, which Claude's
supervisor hosts, with its short id: "max 1a2b3c4d needs input").

Examples:
  claude-account worktree list
  claude-account worktree list --json | jq -r '.[] | select(.dirty > 0) | .path'`
}

// Help is shown under the command's usage.
func (c *WorktreeRmCmd) Help() string {
	return `Several names are removed all or none: each is checked before any is removed,
and a refusal of one says why and removes none (--json gives one result each).
Refuses uncommitted changes (edits git status hides under --skip-worktree or
--assume-unchanged included), commits found on no other branch or remote, a git
repository inside the worktree that holds work, and any Claude working there: a
background session of Claude's fleet (of any account) working in it, or a supervisor
running in its runtime, is named with Claude's command that stops it. --force
first commits uncommitted work under refs/claude-account/wip/<name> (a retry reuses
the ref that holds the same work) and keeps an unmerged branch; it lifts the git lock
Claude left for a session whose process is gone, and still refuses a nested
repository's work, a working Claude and any other lock, which it cannot save or judge. The worktree is found by name, path, branch or directory name.
Only a merged branch 'worktree new' made is deleted (or 'resume', making a removed
worktree again on that branch). Claude's transcripts move to
<account dir>/archive first, and come back to a worktree made again with the name.
Removing the worktree you stand in ends with a line on stderr saying where to go
(cd to the main worktree).

Examples:
  claude-account worktree rm fix-login
  claude-account worktree rm --force spike
  claude-account worktree rm a b c     # all of them, or none (each is checked first)`
}

// Help is shown under the command's usage.
func (c *WorktreeGCCmd) Help() string {
	return `Removes ephemeral worktrees (agent-a<7 or 16 hex> or made with --ephemeral) older than the age
that are clean, merged or pushed and not running (no background session of Claude's
fleet working there, no supervisor in their runtime), and worktrees whose directory is gone,
archiving their conversations as rm does, then runs git worktree prune (never on a worktree
it kept whose git dir holds a runtime). Says where each removed worktree's conversations
went, and why it kept each of the others.

--merged also removes the named worktrees claude-account made, whatever their age, that
are clean, have commits of their own and hold nothing their base lacks: merged (their
commits are in it) or squash-merged (their changes are). Never one with uncommitted or
untracked work, a Claude working there, or commits the base lacks; a worktree still on
the commit it was made from is kept.

Examples:
  claude-account worktree gc --dry-run
  claude-account worktree gc --older-than 7d
  claude-account worktree gc --merged`
}
