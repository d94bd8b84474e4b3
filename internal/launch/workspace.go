package launch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/runtimes"
	"github.com/claude-account/claude-account/internal/trust"
)

// Workspace is one account in one directory: where Claude runs, with which
// config dir, and which Claude. Every account command starts from it.
type Workspace struct {
	Account *account.Account
	Context gitctx.Context
	Layout  configdir.Layout
	// Claude is the binary this workspace runs and its release; set by
	// FindClaude.
	Claude claudever.Binary
	// Unclean: the last Claude in this runtime ended without its launcher,
	// which was last known alive then (lock.Unclean, Unix nanoseconds; 0
	// when it ended with it); read before this process takes the lock.
	Unclean int64
	// Bring is a conversation to put where this session's Claude finds it
	// before it starts (bring), chosen by 'claude-account resume'.
	Bring *conversation.Conversation
	// Resend is the turn a usage limit refused in Bring, which this
	// session sends again ('claude-account resume --next'): this account's
	// copy is put where Claude finds it without it (the other account's
	// copy is never changed).
	Resend *conversation.Refusal
	// Next is what 'claude-account resume --next' asked of this session
	// while it ran (RequestNext), read once its Claude exited; nil when
	// nothing was asked.
	Next *Next
	// Wrote is the conversation this session's Claude wrote last (its
	// session id), read once it exited; "" when it wrote none.
	Wrote string
	// Accounts are the accounts whose copies of a conversation resumed by
	// id (claude --resume ID) are compared with this one's, this one among
	// them (the command sets it: every account it finds); nil: this one's
	// alone. Called only for a --resume ID.
	Accounts func() []conversation.Account
	// Signals are the launcher's handlers when the command started catching
	// them before it opened the workspace (the earlier, the more of their
	// cost overlaps the launch); Session and Command catch their own
	// otherwise.
	Signals *Signals

	// started is when this session's launcher took the instance lock (Unix
	// nanoseconds; 0 outside a session): a transcript changed later was
	// written by its Claude (or its launch), one changed before it and
	// after the runtime was last left alone came from elsewhere.
	started int64

	// Wrapped is the Claude binary a tool named for this session
	// (claude-account wrap: the VS Code panel's claudeProcessWrapper): the
	// one FindClaude takes, instead of the account's.
	Wrapped string
	// Panel: this session is one of a tool's (wrap), which opens several at
	// once in one workspace (the panel's tabs): it takes a slot past the
	// first (lock.AcquireFrom), so tabs do not refuse each other and a
	// terminal session keeps its own.
	Panel bool

	// fleet: the launch is one of Claude's fleet (session.Invocation.Fleet),
	// run with the account dir as its config dir (Fleet).
	fleet bool

	env     env.Env
	dir     string // the working directory
	now     func() time.Time
	lockDir string
}

// IO is where Claude's terminal is, and where the launcher's own notices go.
type IO struct {
	Stdin          *os.File
	Stdout, Stderr io.Writer
	// Note prints one notice line for the user (prefixed, kept on one line).
	Note func(string)
	// Attended: stdin and stdout are terminals, so a person is at this
	// session (unless it is -p): only then may its hooks notify.
	Attended bool
}

// Open detects the workspace of dir for the account a: its git context (the
// fallback matrix), the config dir Claude will use, and whether the last
// Claude there ended without its launcher.
func Open(a *account.Account, dir string, e env.Env, now func() time.Time) (*Workspace, error) {
	ctx, err := gitctx.Detect(dir, e.Get)
	if err != nil {
		return nil, err
	}
	w := &Workspace{Account: a, Context: ctx, Layout: configdir.Locate(a, ctx, e),
		env: e, dir: dir, now: now, lockDir: lock.Dir(e)}
	if w.Layout.IsRuntime {
		// Every slot: a panel's sessions (wrap) take those past the first
		// even where the account allows one instance.
		w.Unclean = lock.Unclean(w.lockDir, w.LockKey(), lock.Slots(false))
	}
	return w, nil
}

// Dir is the working directory Claude starts in.
func (w *Workspace) Dir() string { return w.dir }

// LockDir is the per-user dir of the instance locks and session states.
func (w *Workspace) LockDir() string { return w.lockDir }

// FindClaude finds the Claude Code binary this workspace runs (account.toml,
// $CLAUDE_ACCOUNT_CLAUDE, PATH) and which release it is.
func (w *Workspace) FindClaude() (claudever.Binary, error) {
	return w.FindClaudeWith(claudever.Options{})
}

// FindClaudeWith is FindClaude with claudever's options (doctor probes).
func (w *Workspace) FindClaudeWith(o claudever.Options) (claudever.Binary, error) {
	path, err := FindClaude(w.candidates(), w.env)
	if err != nil {
		return claudever.Binary{}, err
	}
	o.Cache, o.Env, o.Dir = VersionsCache(w.env), w.env.List(), w.dir
	w.Claude = claudever.IdentifyWith(path, o)
	return w.Claude, nil
}

// Launchable refuses what no launch may start Claude with, whatever else
// holds: on macOS, an account dir that is ~/.claude itself
// (configdir.KeychainDefaultDir: naming it selects another keychain login
// than plain claude's). Session, Command and DryRun start with it, so every
// command that starts Claude (run, resume, …) refuses alike; doctor reports
// it. FindClaude has run: the decision is on the Claude binary's OS.
func (w *Workspace) Launchable() error {
	return configdir.KeychainDefaultDir(w.Account.Dir, w.env.Home(), w.Claude)
}

// VersionsCache is where the launcher keeps what it learned of Claude
// binaries' releases (claudever.IdentifyWith, claudever.Learn).
func VersionsCache(e env.Env) string {
	return filepath.Join(e.CacheHome(), "claude-account", "claude-versions.json")
}

// candidates lists where the Claude binary may come from, in order.
func (w *Workspace) candidates() []Candidate {
	if w.Wrapped != "" {
		return []Candidate{{Source: "the Claude to wrap", Name: w.Wrapped}}
	}
	return Candidates(w.Account, w.env)
}

// Candidates lists where the account's Claude binary may come from, in order.
func Candidates(a *account.Account, e env.Env) []Candidate {
	return []Candidate{
		{Source: "claude in " + e.TildePath(filepath.Join(a.Dir, account.FileName)), Name: e.ExpandHome(a.Config.Claude)},
		{Source: "$CLAUDE_ACCOUNT_CLAUDE", Name: e.Get("CLAUDE_ACCOUNT_CLAUDE")},
		{Source: "PATH", Name: "claude"}, // the last resort is always set
	}
}

// InWorkTree reports whether the context has a work tree of its own, so that
// it gets a runtime, a lock and a task list per workspace.
func (w *Workspace) InWorkTree() bool {
	return w.Context.Kind != gitctx.NotGit && w.Context.Kind != gitctx.Bare
}

// Toplevel is the work tree the workspace is, "" outside one (not in git,
// or in a bare repository): what close suggestions name.
func (w *Workspace) Toplevel() string {
	if !w.InWorkTree() {
		return ""
	}
	return w.Context.Toplevel
}

// Where names the workspace in messages.
func (w *Workspace) Where() string {
	if !w.InWorkTree() || w.fleet {
		return "a directory outside any git work tree"
	}
	return w.env.TildePath(w.Context.Toplevel)
}

// LockKey is the instance lock's key (lock.Key): one per config dir. Two
// work trees can share one git dir (GIT_WORK_TREE, a .git file naming
// another repository's git dir), and so one runtime: they take one lock.
func (w *Workspace) LockKey() string {
	if !w.InWorkTree() || w.fleet {
		return lock.Key(w.Account.Name, "")
	}
	return lock.Key(w.Account.Name, gitctx.Fingerprint(w.Layout.ConfigDir))
}

// slots is how many instances may run at once in the workspace (lock.Slots).
func (w *Workspace) slots() int { return lock.Slots(w.Account.SingleInstance()) }

// Holders lists the launchers that hold this workspace's instance lock now.
func (w *Workspace) Holders() ([]lock.Held, error) {
	key := w.LockKey()
	return lock.List(w.lockDir, func(k string) bool { return k == key })
}

// Acquire takes the workspace's instance lock. Refused, it names where the
// holder runs, which can be another work tree sharing this git dir.
func (w *Workspace) Acquire() (*lock.Lock, error) {
	h := lock.Holder{PID: os.Getpid(), Account: w.Account.Name, Workspace: w.Context.Toplevel,
		ConfigDir: w.Layout.ConfigDir, Started: w.now().UTC()}
	if tmux, pane := w.env.Get("TMUX"), w.env.Get("TMUX_PANE"); tmux != "" && lock.ValidPane(pane) {
		// Where 'ps' shows the session and 'jump' goes: Claude runs in the
		// launcher's terminal, so in its pane.
		h.Tmux, h.Pane = tmux, pane
	}
	from, slots := 0, w.slots()
	if w.Panel {
		from, slots = 1, lock.Slots(false)
	}
	held, err := lock.AcquireFrom(w.lockDir, w.LockKey(), from, slots, h, w.Where())
	var running *lock.AlreadyRunningError
	if errors.As(err, &running) && running.Holder.Workspace != "" {
		running.Where = w.env.TildePath(running.Holder.Workspace)
	}
	return held, err
}

// notInUse fails when a Claude other than ours (held) runs with this
// workspace's config dir.
func (w *Workspace) notInUse(held *lock.Lock) error {
	others, err := w.Holders()
	if err != nil {
		return err
	}
	for _, h := range others {
		if h.Path != held.Path {
			return fmt.Errorf("%s is in use by claude (%s) in %s as PID %d; it is not rebound to %s while that runs",
				w.Layout.ConfigDir, h.Account, w.env.TildePath(h.Workspace), h.PID, w.env.TildePath(w.Context.Toplevel))
		}
	}
	return nil
}

// Leave records that the launcher left the runtime alone now, unless another
// Claude of the account still runs in it (runtimes.MarkQuiet). The caller
// holds the account's lock.
func (w *Workspace) Leave() error {
	if !w.Layout.IsRuntime {
		return nil
	}
	others, err := w.Holders()
	if err != nil {
		return nil
	}
	for _, h := range others {
		if h.PID != os.Getpid() {
			return nil
		}
	}
	return runtimes.MarkQuiet(runtimes.Path(w.Account.Dir), w.Layout.ConfigDir, time.Now(), w.untouched)
}

// leftAlone reports, without the account's lock, whether Leave would write
// nothing (runtimes.LeftAlone).
func (w *Workspace) leftAlone() bool { return w.leftAloneIn(nil) }

// leftAloneIn is leftAlone, asking rec (the record as read already; nil:
// read it now).
func (w *Workspace) leftAloneIn(rec *runtimes.Record) bool {
	if !w.Layout.IsRuntime {
		return true
	}
	if rec != nil {
		return rec.LeftAlone(w.Layout.ConfigDir, w.untouched)
	}
	ok, err := runtimes.LeftAlone(runtimes.Path(w.Account.Dir), w.Layout.ConfigDir, w.untouched)
	return err == nil && ok
}

// untouched reports whether nothing a launch would take from the config dir
// changed after quiet (configdir.Untouched).
func (w *Workspace) untouched(quiet int64) bool {
	return configdir.Untouched(w.Layout.ConfigDir, quiet)
}

// Input is what the config dir's plan is made from: one place, so run,
// doctor and status plan alike.
func (w *Workspace) Input() configdir.Input {
	ctx := w.Context
	if w.fleet {
		// The account dir, planned as outside git: no worktree's overlay
		// goes into what every background session of the account reads.
		ctx = gitctx.Context{Kind: gitctx.NotGit, Dir: w.dir}
	}
	in := configdir.Input{Account: w.Account, Context: ctx, Layout: w.Layout,
		Trust: TrustStore(w.env), Now: w.now(), Claude: w.Claude, Unclean: w.Unclean, Home: w.env.Home()}
	if w.fleet && w.InWorkTree() {
		in.Trusting = w.Context
	}
	return in
}

// TrustStore is where `claude-account trust` keeps its approvals: data, not
// config (direnv's rule).
func TrustStore(e env.Env) trust.Store {
	return trust.Store{Dir: filepath.Join(e.DataHome(), "claude-account", "trust")}
}
