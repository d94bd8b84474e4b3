package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/runtimes"
)

// workspace is what every account command starts from: detect, then plan.
type workspace struct {
	account *account.Account
	context gitctx.Context
	layout  configdir.Layout
	claude  claudever.Binary // set by findClaude
	// unclean: the last Claude in this runtime ended without its launcher
	// (lock.Unclean); read before this process takes the lock.
	unclean bool
}

// findClaude finds the Claude Code binary this workspace runs (account.toml,
// $CLAUDE_ACCOUNT_CLAUDE, PATH) and which release it is.
func (w *workspace) findClaude(d *Deps) (claudever.Binary, error) {
	return w.findClaudeWith(d, claudever.Options{})
}

// findClaudeWith is findClaude with claudever's options (doctor probes).
func (w *workspace) findClaudeWith(d *Deps, o claudever.Options) (claudever.Binary, error) {
	path, err := launch.FindClaude(claudeCandidates(d, w.account), d.Env)
	if err != nil {
		return claudever.Binary{}, err
	}
	o.Cache, o.Env, o.Dir = versionsCache(d), d.Env.List(), d.Dir
	w.claude = claudever.IdentifyWith(path, o)
	return w.claude, nil
}

// accountName names the account a command is for: --account, else
// $CLAUDE_ACCOUNT, else the program name (claudemax), else the binding of the
// working directory. ok is false when none of them names one.
func (f AccountFlags) accountName(d *Deps) (name string, ok bool, err error) {
	name, _, ok, err = f.account(d)
	return name, ok, err
}

// account is accountName that also returns the binding that named the
// account (nil when the user named it), for errors to point at.
func (f AccountFlags) account(d *Deps) (name string, from *binding.Binding, ok bool, err error) {
	name = f.Account
	if name == "" {
		name = d.Env.Get("CLAUDE_ACCOUNT")
	}
	if name == "" {
		name, _ = launcherAccount(d.Prog)
	}
	if name != "" {
		return name, nil, true, nil
	}
	b, ok, err := lookupBinding(d.Env, d.Dir)
	if err != nil || !ok {
		return "", nil, false, err
	}
	return b.Account, &b, true, nil
}

// lookupBinding finds the binding of dir; in a linked worktree, the
// repository's binding counts too (binding.LookupWorktree), found through
// the common git dir: <main>/.git, or a bare repository itself.
func lookupBinding(e env.Env, dir string) (binding.Binding, bool, error) {
	ctx, err := gitctx.Detect(dir, e.Get)
	if err != nil || ctx.Kind != gitctx.Linked {
		return binding.Lookup(e, dir)
	}
	mainRoot := ctx.CommonDir
	if filepath.Base(mainRoot) == ".git" {
		mainRoot = filepath.Dir(mainRoot)
	}
	return binding.LookupWorktree(e, dir, ctx.Toplevel, mainRoot)
}

// accountNotFound is account.NotFoundError with what helps most: the known
// account the name is nearest to (a typo), and the binding that named it.
type accountNotFound struct {
	*account.NotFoundError
	nearest string
	from    *binding.Binding
	file    string // the bindings file of from
	dir     string // from's directory, for messages
}

func (e *accountNotFound) Unwrap() error { return e.NotFoundError }

func (e *accountNotFound) Error() string {
	msg := fmt.Sprintf("account %q not found: %s does not exist", e.Name, e.Dir)
	if e.from == nil {
		if e.nearest != "" {
			return fmt.Sprintf("%s; did you mean %q? To make %q, run 'claude-account init %s' or declare it in home-manager", msg, e.nearest, e.Name, e.Name)
		}
		return e.NotFoundError.Error()
	}
	msg += fmt.Sprintf(" (named by the binding of %s in %s, line %d)", e.dir, e.file, e.from.Line)
	switch {
	case e.from.Declared:
		return msg + fmt.Sprintf("; run 'claude-account init %s', or change the account's directories in home-manager", e.Name)
	case e.nearest != "":
		return msg + fmt.Sprintf("; did you mean %q? run 'claude-account bind %s %s' (or 'claude-account init %s')", e.nearest, e.nearest, e.dir, e.Name)
	}
	return msg + fmt.Sprintf("; run 'claude-account init %s', or 'claude-account unbind %s'", e.Name, e.dir)
}

// explainNotFound turns a missing account into accountNotFound; other
// errors pass unchanged.
func explainNotFound(d *Deps, err error, from *binding.Binding) error {
	var nf *account.NotFoundError
	if !errors.As(err, &nf) {
		return err
	}
	e := &accountNotFound{NotFoundError: nf, nearest: binding.Nearest(nf.Name, binding.KnownAccounts(d.Env)), from: from}
	if from != nil {
		e.file = binding.Path(d.Env)
		if from.Declared {
			e.file = binding.DeclaredPath(d.Env)
		}
		e.dir = d.Env.ShellPath(binding.Expand(d.Env, from.Dir))
	}
	return e
}

// load resolves the account (accountName) and detects the git context of the
// working directory.
func (f AccountFlags) load(d *Deps) (*workspace, error) {
	name, from, ok, err := f.account(d)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, UsageError{errors.New("no account given: pass --account NAME, set CLAUDE_ACCOUNT, run as claudeNAME, or bind this directory with 'claude-account bind NAME'")}
	}
	if err := account.ValidateName(name); err != nil {
		return nil, UsageError{err}
	}
	dir := f.AccountDir
	if dir == "" {
		dir = d.Env.Get("CLAUDE_ACCOUNT_DIR")
	}
	if dir == "" {
		// An account home-manager keeps elsewhere (configDir), found by
		// directory or named without its launcher.
		if dir, err = binding.DeclaredAccountDir(d.Env, name); err != nil {
			return nil, err
		}
	}
	if dir == "" {
		dir = account.DefaultDir(d.Env, name)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(d.Dir, dir)
	}
	a, err := account.Load(name, dir)
	if err != nil {
		return nil, explainNotFound(d, err, from)
	}
	ctx, err := gitctx.Detect(d.Dir, d.Env.Get)
	if err != nil {
		return nil, err
	}
	w := &workspace{account: a, context: ctx, layout: configdir.Locate(a, ctx, d.Env)}
	if w.layout.IsRuntime {
		w.unclean = lock.Unclean(lock.Dir(d.Env), w.lockKey(), w.slots())
	}
	return w, nil
}

// leave records that the launcher left the runtime alone now, unless another
// Claude of the account still runs in it (runtimes.MarkQuiet). The caller
// holds the account's lock.
func (w *workspace) leave(d *Deps) {
	if !w.layout.IsRuntime {
		return
	}
	others, err := lock.List(lock.Dir(d.Env), func(k string) bool { return k == w.lockKey() })
	if err != nil {
		return
	}
	for _, h := range others {
		if h.PID != os.Getpid() {
			return
		}
	}
	if err := runtimes.MarkQuiet(runtimes.Path(w.account.Dir), w.layout.ConfigDir, time.Now()); err != nil {
		d.notef("%v", err)
	}
}

// inWorkTree reports whether the context has a work tree of its own, so that
// it gets a runtime, a lock and a task list per workspace.
func (w *workspace) inWorkTree() bool {
	return w.context.Kind != gitctx.NotGit && w.context.Kind != gitctx.Bare
}

// toplevel is the work tree the workspace is, "" outside one (not in git,
// or in a bare repository): what close suggestions name.
func (w *workspace) toplevel() string {
	if !w.inWorkTree() {
		return ""
	}
	return w.context.Toplevel
}

// lockKey is the instance lock's key (lock.Key): one per config dir. Two
// work trees can share one git dir (GIT_WORK_TREE, a .git file naming
// another repository's git dir), and so one runtime: they take one lock.
func (w *workspace) lockKey() string {
	if !w.inWorkTree() {
		return lock.Key(w.account.Name, "")
	}
	return lock.Key(w.account.Name, gitctx.Fingerprint(w.layout.ConfigDir))
}

// holder is what this process writes into the instance lock it takes.
func (w *workspace) holder(d *Deps) lock.Holder {
	return lock.Holder{PID: os.Getpid(), Account: w.account.Name, Workspace: w.context.Toplevel,
		ConfigDir: w.layout.ConfigDir, Started: d.Now().UTC()}
}

// acquire takes the workspace's instance lock. Refused, it names where the
// holder runs, which can be another work tree sharing this git dir.
func (w *workspace) acquire(d *Deps) (*lock.Lock, error) {
	held, err := lock.Acquire(lock.Dir(d.Env), w.lockKey(), w.slots(), w.holder(d), w.where(d))
	var running *lock.AlreadyRunningError
	if errors.As(err, &running) && running.Holder.Workspace != "" {
		running.Where = d.Env.TildePath(running.Holder.Workspace)
	}
	return held, err
}

// notInUse fails when a Claude other than ours (held) runs with this
// workspace's config dir.
func (w *workspace) notInUse(d *Deps, held *lock.Lock) error {
	others, err := lock.List(lock.Dir(d.Env), func(k string) bool { return k == w.lockKey() })
	if err != nil {
		return err
	}
	for _, h := range others {
		if h.Path != held.Path {
			return fmt.Errorf("%s is in use by claude (%s) in %s as PID %d; it is not rebound to %s while that runs",
				w.layout.ConfigDir, h.Account, d.Env.TildePath(h.Workspace), h.PID, d.Env.TildePath(w.context.Toplevel))
		}
	}
	return nil
}

// slots is how many instances may run at once in the workspace (lock.Slots).
func (w *workspace) slots() int { return lock.Slots(w.account.SingleInstance()) }

// where names the workspace in messages.
func (w *workspace) where(d *Deps) string {
	if !w.inWorkTree() {
		return "a directory outside any git work tree"
	}
	return d.Env.TildePath(w.context.Toplevel)
}

// input is what the runtime plan of this workspace is made from: one place,
// so run, doctor and status plan alike.
func (w *workspace) input(d *Deps) configdir.Input {
	return configdir.Input{Account: w.account, Context: w.context, Layout: w.layout,
		Trust: trustStore(d), Now: d.Now(), Claude: w.claude, Unclean: w.unclean}
}
