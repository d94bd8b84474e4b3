package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/worktree"
)

// ResumeCmd is `claude-account resume`.
type ResumeCmd struct {
	ID         string   `arg:"" optional:"" help:"The conversation's id, as 'sessions' lists it (a prefix of 8 or more characters that names one will do); with --next, default: the newest conversation a usage limit stopped."`
	Next       bool     `help:"Hand a conversation a usage limit stopped to the allowed account with the most headroom and send the refused turn again there, in the terminal it ran in when its session still runs (see below)."`
	Account    string   `short:"a" placeholder:"NAME" help:"Continue it on this account, with its login, settings and servers (a handoff, when it is another account's; that account's copy stays). Default: the account of its newest copy."`
	Copy       string   `placeholder:"ACCOUNT|PATH" help:"Continue this copy of it: the account that holds it, or its transcript's path (when its copies were continued apart, the error names them)."`
	Fork       bool     `help:"Continue a copy of its own, under a new session id (Claude's --fork-session): for a conversation another session runs now."`
	AccountDir string   `placeholder:"DIR" help:"The account's directory, when it is not where a launch finds it."`
	Here       bool     `help:"Continue it in the current directory's worktree, not in the one it ran in."`
	Unverified bool     `help:"Resume a conversation from a runtime set aside, which claude-account cannot prove is yours (it may have come with the repository, and says what it says to Claude)."`
	Args       []string `arg:"" optional:"" passthrough:"" name:"claude-args" help:"More arguments for Claude, after --."`
}

// Help is shown under the command's usage.
func (c *ResumeCmd) Help() string {
	return `Finds the conversation wherever it is kept (a worktree's runtime, the archive of removed
worktrees, the account dir, a runtime set aside) and continues it with claude --resume:
in the worktree it ran in, made again from its branch and the uncommitted work 'worktree
rm --force' saved when it was removed, or in the current directory's with --here. Its
transcript is put where that Claude looks for it: copied (brought back, from the account's
own archive), never written over.

With --account B it continues on account B, B's login and configuration: a handoff, when
A reaches its limit. A's copy stays; one line says which of A's MCP servers and plugins
B lacks.

One conversation, one history: whichever account continues it continues its newest turns.
Of its copies (each account's, each worktree's), the newest is the one whose messages hold
all the others'; handed back to an account whose copy is older, the newer comes along and
the older is kept beside it (<id>.jsonl.replaced-<time>). Copies continued apart, each with
turns the other lacks, are both kept: resume names them and continues the one --copy picks
(an account, or a transcript's path). A conversation running in another session now is
refused, naming that session; 'claude-account close' stops it, or --fork continues a copy
of its own under a new id.

'claudemax --resume ID' in any worktree of the repository finds it the same way, and
brings the newest of every account's copies.

At a usage limit, --next carries on in one step: the conversation ID, or with no ID the
newest one whose last turn a limit refused (Claude's "You've hit your … limit"), goes to
the account with the most headroom of those allowed where it ran (as run --account auto
weighs them; one line says which and why), in the worktree it ran in, and the refused
prompt is sent again as that Claude's first prompt. That account's copy is put where its
Claude looks without the refused turn; the limited account's copy stays as it was. When
the limited session still runs under a launcher (typed in another terminal, or as
'! claude-account resume --next' inside it), that launcher is asked to do it and its
Claude is closed as 'claude-account close' does: the conversation goes on in the same
terminal, and the limited Claude, gone, cannot continue it again when its limit resets
(2.1.234's automatic continue). When no allowed account has headroom it says when the
first resets. A background session (--bg) at a limit is not handed over while its
supervisor runs it: stop it first ('claude-account close ID').

Examples:
  claude-account resume 7c0f3a2e
  claude-account resume 7c0f3a2e --account work
  claude-account resume 7c0f3a2e --copy max
  claude-account resume 7c0f3a2e --fork
  claude-account resume 7c0f3a2e --here -- --model opus
  claude-account resume --next
  claude-account resume --next 7c0f3a2e
  claude-account resume --next -- --permission-mode plan`
}

// Run finds the conversation and starts Claude on it.
func (c *ResumeCmd) Run(d *Deps) error {
	if c.Next {
		return c.runNext(d)
	}
	if c.ID == "" {
		return UsageError{errors.New("resume needs the conversation's id ('claude-account sessions --all' lists them), or --next for the newest one a usage limit stopped")}
	}
	if len(c.ID) < 8 {
		return UsageError{fmt.Errorf("%q is too short to name a conversation: give 8 or more characters of its id ('claude-account sessions --all' lists them)", c.ID)}
	}
	accts, err := accountsToSearch(d, "", "")
	if err != nil {
		return err
	}
	if c.Account != "" && c.AccountDir != "" {
		a, err := loadAccount(d, c.Account, c.AccountDir)
		if err != nil {
			return err
		}
		accts = append(accts, conversation.Account{Name: a.Name, Dir: a.Dir})
	}
	conv, err := conversation.Pick(conversation.Find(accts), c.ID, c.Copy)
	var amb *conversation.AmbiguousError
	if errors.As(err, &amb) {
		return UsageError{err}
	}
	if err != nil {
		return err
	}
	if !conv.Verified && !c.Unverified {
		return fmt.Errorf("conversation %s is in %s: %s; read it first, then resume it with --unverified", conv.ID, filepath.Dir(filepath.Dir(conv.Transcript)), conv.Why)
	}
	target := c.Account
	switch target {
	case "":
		target = conv.Account
	case Auto:
		// Weighed where the conversation ran (its bindings), and said in
		// one line: the account it goes on with, and why.
		in := *d
		if fi, err := os.Stat(conv.Worktree); conv.Worktree != "" && err == nil && fi.IsDir() {
			in.Dir = conv.Worktree
		}
		if target, err = pickAuto(&in, true); err != nil {
			return err
		}
	}
	return c.launch(d, conv, target, nil)
}

// launch continues conv on account target in the worktree it ran in (or
// here, --here); resend is the turn a usage limit refused, sent again as
// the session's first prompt (resume --next), nil for none.
func (c *ResumeCmd) launch(d *Deps, conv conversation.Conversation, target string, resend *conversation.Refusal) error {
	if err := c.identityFirst(d, target, conv); err != nil {
		return err // before a removed worktree is made again for it
	}
	dir, notes, err := d.Dir, []string(nil), error(nil)
	if !c.Here {
		dir, notes, err = worktree.ResumeDir(conv, d.Dir, d.Env.Get, d.Env.List())
	}
	for _, n := range notes {
		d.notef("%s", n)
	}
	if err != nil {
		return err
	}
	in := *d
	in.Dir = dir
	flags := AccountFlags{Account: target, AccountDir: c.AccountDir}
	if target == conv.Account && c.AccountDir == "" {
		flags.AccountDir = conv.AccountDir
	}
	ws, err := flags.load(&in)
	if err != nil {
		return err
	}
	if _, err := ws.FindClaude(); err != nil {
		return err
	}
	if target != conv.Account {
		if lacks := configdir.HandoffGaps(accountOf(conv), ws.Account).String(); lacks != "" {
			in.notef("handing conversation %s from %s to %s, which lacks %s", conv.ID, conv.Account, target, lacks)
		}
	}
	ws.Bring = &conv
	ws.Resend = resend
	lead := []string{"--resume", conv.ID}
	if c.Fork {
		lead = append(lead, "--fork-session")
	}
	rest := c.Args
	if len(rest) > 0 && rest[0] == "--" {
		rest = rest[1:]
	}
	args := append(lead, rest...)
	if resend != nil {
		// Claude's own options first: --resume ID then ends a variadic
		// one's values (--add-dir A B), which would take the prompt.
		args = append(slices.Clone(rest), lead...)
	}
	if resend != nil && resend.Prompt != "" {
		// Claude's one positional argument is the prompt it submits first
		// (measured: 2.1.90 and 2.1.332 send it with the conversation).
		args = append(args, promptArg(resend.Prompt))
	}
	io := launchIO(&in)
	st, err := ws.Session(args, io)
	if ws.Next != nil {
		return continueNext(&in, ws.Next, args)
	}
	exitHint(&in, ws, session.Classify(args, ws.Claude), st, err)
	return exitStatus(st, withStop(&in, ws, err))
}

// accountOf is the account a conversation belongs to, with its
// account.toml when it reads (for the dir it declares its servers and
// settings in), else the bare account dir.
func accountOf(conv conversation.Conversation) *account.Account {
	if a, err := account.Load(conv.Account, conv.AccountDir); err == nil {
		return a
	}
	return &account.Account{Name: conv.Account, Dir: conv.AccountDir}
}
