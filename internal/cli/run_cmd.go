package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/shell"
	"github.com/claude-account/claude-account/internal/worktree"
)

// RunCmd is `claude-account run`: detect → plan → apply → launch.
type RunCmd struct {
	AccountFlags
	Worktree  string   `placeholder:"NAME" help:"Run in this worktree of the current repository, making it first if needed (see 'worktree new')."`
	Ephemeral bool     `help:"With --worktree: remove the worktree after Claude exits if it holds no work, its conversations archived first."`
	DryRun    bool     `help:"Print what would change and the command that would start, then stop."`
	Args      []string `arg:"" optional:"" passthrough:"" name:"claude-args" help:"Arguments for Claude, passed verbatim ('--' before them is optional)."`
}

// Help is shown under the command's usage.
func (c *RunCmd) Help() string {
	return `In a git worktree, Claude runs with CLAUDE_CONFIG_DIR=$GIT_DIR/claude-runtime/<account>,
that worktree's own sessions and .claude.json. Its settings.json, commands/,
agents/, skills/ and CLAUDE.md link to the account dir. The login and plugins
are the account's, and memory the repository's, kept in the account dir, through
CLAUDE_SECURESTORAGE_CONFIG_DIR, CLAUDE_CODE_PLUGIN_CACHE_DIR and
CLAUDE_CODE_REMOTE_MEMORY_DIR (unless you set them).
Outside git and in bare repositories it runs with the account dir itself.
With no --account, CLAUDE_ACCOUNT or claude<name> program name, the directory's
binding names the account (see 'bind').

A session (interactive, or -p) takes the workspace's lock and gets the launcher's
hooks for 'ps' as flag settings (claude --settings). Claude's own commands (mcp,
plugin, auth, doctor, --version, --help …, those its release has) are not
sessions: they run beside one.
Claude's fleet (--bg, --background, agents, attach, logs, stop, kill, rm, respawn,
daemon; Claude Code 2.1.141 and later) runs with the account dir as its config dir
from any directory, in that directory: the account has one supervisor, and every
worktree sees and acts on all of its background sessions.
Flags after Claude's arguments are Claude's: put --account before them. A word
there that Claude has no flag for and that is within two edits of a launcher flag
(--worktre, --acount), or a launcher flag Claude does not have (-p hi --dry-run),
is refused with the flag it is near, before Claude starts; after '--' every word
goes to Claude as it is (run --account max -- --worktre).

Examples:
  claude-account run --account max
  claude-account run --account max -- -p "summarise this repository"
  claude-account run --dry-run --account max`
}

// Run builds the config dir and starts Claude.
func (c *RunCmd) Run(d *Deps) error {
	if c.Ephemeral && c.Worktree == "" {
		return UsageError{errors.New("--ephemeral goes with --worktree NAME")}
	}
	if err := c.checkFlags(d); err != nil {
		return err
	}
	picked, err := c.autoAccount(d)
	if err != nil {
		return err
	}
	if c.Worktree != "" && c.Account == "" {
		// The account is the one of the directory run was called in: a
		// worktree may live outside the bound directory ([worktree] dir).
		name, ok, err := c.accountName(d)
		if err != nil {
			return err
		}
		if ok {
			c.Account = name
		}
	}
	if c.Worktree != "" && c.DryRun {
		// A dry run changes nothing: no worktree, no branch.
		done, err := c.dryRunWorktree(d)
		if err != nil || done {
			return err
		}
	}
	args := c.Args
	if len(args) > 0 && args[0] == "--" {
		// kong keeps the separator; it was ours, not Claude's.
		args = args[1:]
	}
	if c.Worktree != "" && !c.DryRun {
		if err := c.identityFirst(d, args); err != nil {
			return err
		}
		res, _, err := newWorktree(d, c.AccountFlags, c.Worktree, "", c.Ephemeral)
		if err != nil {
			return err
		}
		for _, n := range res.Notes {
			d.notef("%s", n)
		}
		in := *d
		in.Dir = res.Path
		d = &in
	}
	ws, err := c.load(d)
	if err != nil {
		var ue UsageError
		if errors.As(err, &ue) && c.Account == "" && strings.HasPrefix(ue.Error(), "no account given") {
			if hint := accountAmongClaudeArgs(args); hint != "" {
				return UsageError{errors.New("no account given: " + hint)}
			}
		}
		return err
	}
	bin, err := ws.FindClaude()
	if err != nil {
		return err
	}
	if !c.DryRun {
		// Once Claude is found, not before: Ctrl-C while git makes a
		// worktree, or while 'claude --version' tells an unknown release,
		// still ends the launcher at once. Installing the handlers takes a
		// thread round trip per signal; in the background, it overlaps the
		// rest of the preparation.
		ws.Signals = launch.CatchSignals()
	}
	io := launchIO(d)
	// Which words are Claude's commands depends on its release ("auth" is a
	// prompt on 2.0.77): FindClaude has just identified it.
	inv := session.Classify(args, bin)
	if picked == "" && inv.Session && !c.DryRun {
		suggestRoom(d, ws.Account.Name, ws.Account.Dir, c.suggestion(args), false, "")
	}
	switch {
	case c.DryRun:
		lines, err := ws.DryRun(args, inv, io)
		for _, l := range lines {
			d.stdout().Line(l)
		}
		return withLogin(d, ws, err)
	case inv.Fleet:
		st, err := ws.Fleet(args, inv.Starts, io)
		return exitStatus(st, withLogin(d, ws, err))
	case !inv.Session:
		return exitStatus(ws.Command(args, io))
	}
	st, err := ws.Session(args, io)
	if ws.Next != nil {
		// 'claude-account resume --next' closed this Claude to continue
		// its conversation on another account: here, in this terminal.
		return continueNext(d, ws.Next, args)
	}
	exitHint(d, ws, inv, st, err)
	if err == nil && !inv.Print {
		// Claude's full screen erased what was said before it: say it
		// again, with the figures its session reported.
		suggestRoom(d, ws.Account.Name, ws.Account.Dir, c.suggestion(args), true, ws.Wrote)
	}
	return exitStatus(st, withLogin(d, ws, withBeside(ws, withStop(d, ws, err))))
}

// launchIO is the terminal Claude gets, and where the launcher's notices go.
func launchIO(d *Deps) launch.IO {
	return launch.IO{Stdin: d.Stdin, Stdout: d.Stdout, Stderr: d.Stderr, Note: func(n string) { d.notef("%s", n) },
		Attended: attended(d)}
}

// exitStatus is how Claude ended, as the launcher's own.
func exitStatus(st launch.Status, err error) error {
	switch {
	case err != nil:
		return err
	case st.Signal != 0:
		return SignalError{st}
	case st.Code != 0:
		return ExitCodeError(st.Code)
	}
	return nil
}

// accountAmongClaudeArgs explains an --account that came after Claude's
// arguments, where it is Claude's: kong hands everything after the first of
// them to Claude.
func accountAmongClaudeArgs(args []string) string {
	for i, a := range args {
		name, rest := "", []string(nil)
		switch {
		case (a == "--account" || a == "-a") && i+1 < len(args):
			name, rest = args[i+1], append(slices.Clone(args[:i]), args[i+2:]...)
		case strings.HasPrefix(a, "--account="):
			name, rest = strings.TrimPrefix(a, "--account="), append(slices.Clone(args[:i]), args[i+1:]...)
		default:
			continue
		}
		return fmt.Sprintf("%s after Claude's arguments goes to Claude; put it before them: claude-account run --account %s -- %s",
			strings.SplitN(a, "=", 2)[0], shell.Quote(name), shell.Join(rest))
	}
	return ""
}

// dryRunWorktree handles --dry-run --worktree: an existing worktree is
// planned like any other (d moves into it); a missing one is described, and
// nothing more can be planned for a directory that does not exist yet.
func (c *RunCmd) dryRunWorktree(d *Deps) (done bool, err error) {
	if err := worktree.ValidateSlug(c.Worktree); err != nil {
		return true, UsageError{err}
	}
	r, _, _, err := repoFor(d, c.AccountFlags)
	if err != nil {
		return true, err
	}
	path := r.PathFor(c.Worktree)
	if e, err := r.Find(path); err == nil && e != nil {
		d.Dir = path
		return false, nil
	}
	d.stdout().Linef("would create worktree %s on branch %s (claude-account worktree new %s), then build its runtime and start Claude there",
		path, worktree.Branch(c.Worktree), c.Worktree)
	return true, nil
}

// checkFlags refuses, among the arguments kong handed to Claude, a word
// before the first "--" that names a flag of the launcher's rather than of
// Claude's: one within two edits of a launcher flag (--worktre, --acount)
// that Claude does not have either, or a launcher flag Claude has not put
// after Claude's arguments (-p hi --dry-run). Claude would stop at either
// with an error of its own, and for --worktre suggest its own --worktree,
// which is not the launcher's. Claude's own options (session.IsOption) pass,
// and after "--" every word is Claude's as it is: the way to give Claude a
// newer flag of its own that is near one of the launcher's.
func (c *RunCmd) checkFlags(d *Deps) error {
	// claude<name> hands Claude everything but a leading --worktree and
	// --ephemeral: only those are the launcher's there.
	ours := []string{"account", "account-dir", "worktree", "ephemeral", "dry-run"}
	prog := "claude-account run"
	if _, ok := launcherAccount(d.Prog); ok {
		ours, prog = []string{"worktree", "ephemeral"}, d.Prog
	}
	positional := false
	for _, a := range c.Args {
		if a == "--" {
			return nil
		}
		if !positional && !strings.HasPrefix(a, "-") {
			positional = true
			if _, ok := session.Commands[a]; ok {
				// Claude's command (purge, import, mcp …): what follows is
				// its own, --dry-run among them.
				return nil
			}
		}
		name, _, _ := strings.Cut(a, "=")
		bare, ok := strings.CutPrefix(name, "--")
		if !ok || bare == "" || session.IsOption(name) {
			continue
		}
		switch {
		case bare == "account" && c.Account == "":
			continue // accountAmongClaudeArgs says it with the command that works
		case slices.Contains(ours, bare):
			if bare == "account" {
				if hint := accountAmongClaudeArgs(c.Args); hint != "" {
					return UsageError{errors.New(hint)}
				}
			}
			return UsageError{fmt.Errorf("%s after Claude's arguments goes to Claude, which has no such flag; put it before them", name)}
		}
		if near := binding.Nearest(bare, ours); near != "" {
			return UsageError{fmt.Errorf("%s is no flag of the launcher's or of Claude's: did you mean --%s? To give it to Claude as it is, put it after --: %s -- %s",
				name, near, c.command(prog), shell.Join(c.Args))}
		}
	}
	return nil
}

// command is prog with the launcher flags given to it, for a suggestion.
func (c *RunCmd) command(prog string) string {
	words := []string{prog}
	if c.Account != "" && prog == "claude-account run" {
		words = append(words, "--account", shell.Quote(c.Account))
	}
	if c.AccountDir != "" {
		words = append(words, "--account-dir", shell.Quote(c.AccountDir))
	}
	if c.Worktree != "" {
		words = append(words, "--worktree", shell.Quote(c.Worktree))
	}
	if c.Ephemeral {
		words = append(words, "--ephemeral")
	}
	if c.DryRun {
		words = append(words, "--dry-run")
	}
	return strings.Join(words, " ")
}

// autoAccount picks the account with the most headroom when the user asks
// for it (--account auto, CLAUDE_ACCOUNT=auto) or when no account is named
// and the directory is bound to several; it says which in one line and
// returns it, or "" when the account is named or bound alone.
func (c *RunCmd) autoAccount(d *Deps) (string, error) {
	name := c.named(d)
	if name == "" {
		b, ok, err := lookupBinding(d.Env, d.Dir)
		if err != nil || !ok {
			return "", err
		}
		if all, err := binding.Accounts(d.Env, b); err != nil || len(all) < 2 {
			return "", err
		}
		name = Auto
	}
	if name != Auto {
		return "", nil
	}
	picked, err := pickAuto(d, true)
	if err == nil {
		c.Account = picked
	}
	return picked, err
}
