package configdir

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/runtimes"
	"github.com/claude-account/claude-account/internal/trust"
)

// Op is what a Step does.
type Op string

const (
	Mkdir  Op = "mkdir"
	Link   Op = "link"
	Unlink Op = "unlink"
	Write  Op = "write"
	Move   Op = "move"
	// Register records Path in the account's record of the runtimes the
	// launcher made (Target: the record's file), once Path exists, with
	// where it belongs (Place).
	Register Op = "register"
	// Copy copies the file at Path to Target, keeping its mode and time.
	Copy Op = "copy"
)

// Step is one change to the file system. A plan is a list of them, so it can
// be printed and tested without touching disk.
type Step struct {
	Op     Op
	Path   string
	Target string   // Link: the link's target; Move, Copy: the new path
	Data   []byte   // Write
	Pieces [][]byte // Write, instead of Data: written one after the other
	// Check, with Pieces: validates the input the pieces were cut from. It
	// runs while the pieces are written to a temporary file, and the step
	// (and every other) is applied only if it passes.
	Check   func() error
	Mode    fs.FileMode
	Secret  bool           // Write: 0600 from the first byte
	Replace bool           // Link: replaces a file that is not a link, atomically
	Place   runtimes.Place // Register: where the runtime belongs
	Why     string
}

func (s Step) String() string {
	switch s.Op {
	case Link:
		return fmt.Sprintf("link  %s -> %s (%s)", s.Path, s.Target, s.Why)
	case Move:
		return fmt.Sprintf("move  %s -> %s (%s)", s.Path, s.Target, s.Why)
	case Copy:
		return fmt.Sprintf("copy  %s -> %s (%s)", s.Path, s.Target, s.Why)
	case Register:
		return fmt.Sprintf("register %s in %s (%s)", s.Path, s.Target, s.Why)
	default:
		return fmt.Sprintf("%-5s %s (%s)", s.Op, s.Path, s.Why)
	}
}

// Plan is everything a launch must change before Claude starts.
type Plan struct {
	Layout
	Steps []Step
	Notes []string // one-line notices for the user
	// SetsAside: the plan moves the existing runtime dir aside (it belongs
	// to another workspace, or is not the launcher's). No other Claude may
	// be using it then.
	SetsAside bool
	// quiet is when the launcher last left the runtime alone: a file it
	// would take into the account that changed later did not come from a
	// Claude it started (runtimes.ChangedSince); 0 when that is not known.
	quiet    int64
	releases []func() // unmap what was mapped; see Close
	scanned  int      // config dirs' .claude.json read (SyncStamp spares it)
}

// Close releases the files the plan mapped. The plan's steps read from them:
// call it after Apply, or when the plan is not applied. Unmapping a large
// file takes milliseconds (its page tables torn down), and nothing reads it
// any more: it is done on another thread while the launch goes on to start
// Claude.
func (p *Plan) Close() {
	if p == nil || len(p.releases) == 0 {
		return
	}
	releases := p.releases
	p.releases = nil
	go func() {
		for _, r := range releases {
			r()
		}
	}()
}

// Input is what a plan is made from.
type Input struct {
	Account *account.Account
	Context gitctx.Context
	Layout  Layout
	Trust   trust.Store
	Now     time.Time
	// Claude is the Claude Code the config dir is made for: what it can
	// share with the account depends on its release (SharedVia).
	Claude claudever.Binary
	// Unclean: the last Claude in this config dir ended without the
	// launcher (it was killed), which was last known alive at this time
	// (Unix nanoseconds; lock.Unclean): what changed in it until then may be
	// that Claude's, what changed later is not. 0: it ended with it.
	Unclean int64
	// Trusting, outside a runtime, is the work tree whose repository's
	// trust the account dir takes from the ledger (a launch of Claude's
	// fleet from it: the background session runs with the account dir, and
	// claude --bg refuses a workspace it does not find trusted there); the
	// zero Context for none.
	Trusting gitctx.Context
	// Home is the user's home, whose .claude/ide the config dir's ide links
	// to (planIDE); "" plans no ide.
	Home string
}

// MakePlan reads the current state and lists the steps that bring it to the
// wanted one. Nothing is listed for what is already right, so a second launch
// plans nothing.
func MakePlan(in Input) (*Plan, error) {
	p := &Plan{Layout: in.Layout}
	if in.Layout.ReadOnly != "" {
		p.Notes = append(p.Notes, fmt.Sprintf("%s is read-only; this workspace's runtime is %s", in.Layout.ReadOnly, in.Layout.ConfigDir))
	}
	if in.Layout.Stranger != "" {
		note := fmt.Sprintf("%s reaches the git dir %s, which git records as %s's; that checkout keeps its runtime, and this work tree runs with its own, %s",
			in.Context.Toplevel, in.Context.GitDir, in.Layout.Stranger, in.Layout.ConfigDir)
		if !exists(in.Layout.Stranger) {
			note = fmt.Sprintf("git records %s as the checkout of the git dir %s, and it is gone; if this work tree moved from there, run 'git worktree repair' in it, and it keeps its runtime and conversations; until then it runs with its own, %s",
				in.Layout.Stranger, in.Context.GitDir, in.Layout.ConfigDir)
		}
		p.Notes = append(p.Notes, note)
	}
	if !in.Layout.IsRuntime {
		// The account dir is its own config dir: only its state is coalesced.
		if err := p.planState(in, false); err != nil {
			return nil, err
		}
		p.planIDE(in, false)
		p.sweepTemps(in.Account.Dir, false)
		return p, nil
	}
	dir := in.Layout.ConfigDir
	facts, err := observeRuntime(in)
	if err != nil {
		return nil, err
	}
	rt, err := decideRuntime(facts, in)
	if err != nil {
		return nil, err
	}
	p.Steps, p.Notes = append(p.Steps, rt.Steps...), append(p.Notes, rt.Notes...)
	fresh := rt.Fresh
	p.SetsAside, p.quiet = rt.SetsAside, rt.Quiet

	for _, name := range Linked {
		p.link(in, name, fresh)
	}
	p.planLogin(in, fresh)
	p.planIDE(in, fresh)
	if !fresh {
		p.setAsideStrayLinks(in)
		// What an older Claude kept in this runtime moves to the account
		// once the Claude in use reads it from there; before that, moving it
		// would lose it to Claude.
		if in.Claude.Has(claudever.RemoteMemoryDir) {
			p.migrateMemory(in)
		}
		if in.Claude.Has(claudever.PluginCacheDir) {
			p.migratePlugins(in)
		}
	}

	if err := p.planState(in, fresh); err != nil {
		return nil, err
	}

	if rt.Binding != nil {
		p.Steps = append(p.Steps, Step{Op: Write, Path: filepath.Join(dir, WorkspaceFile), Data: rt.Binding, Mode: 0o600, Why: "workspace binding"})
	}
	// A fresh runtime has no temporary files of ours (a dir set aside may
	// have any: it is kept as it is).
	p.sweepTemps(in.Account.Dir, !fresh)
	return p, nil
}

// untouched reports whether path did not change since the launcher last left
// the runtime alone, so that it may be taken into the account.
func (p *Plan) untouched(path string) bool { return !runtimes.ChangedSince(path, p.quiet) }

// Lines renders the plan for --dry-run, a line for the config dir and one
// for each step.
func (p *Plan) Lines() []string {
	lines := []string{"config dir " + p.ConfigDir}
	for _, s := range p.Steps {
		lines = append(lines, s.String())
	}
	return lines
}
