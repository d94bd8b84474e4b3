package cli

import (
	"errors"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/lock"
)

// workspace is what every account command starts from: detect, then plan.
type workspace struct {
	account *account.Account
	context gitctx.Context
	layout  configdir.Layout
}

// accountName names the account a command is for: --account, else
// $CLAUDE_ACCOUNT, else the program name (claudemax), else the binding of the
// working directory. ok is false when none of them names one.
func (f AccountFlags) accountName(d *Deps) (name string, ok bool, err error) {
	name = f.Account
	if name == "" {
		name = d.Env.Get("CLAUDE_ACCOUNT")
	}
	if name == "" {
		name, _ = launcherAccount(d.Prog)
	}
	if name != "" {
		return name, true, nil
	}
	b, ok, err := binding.Lookup(d.Env, d.Dir)
	if err != nil || !ok {
		return "", false, err
	}
	return b.Account, true, nil
}

// load resolves the account (accountName) and detects the git context of the
// working directory.
func (f AccountFlags) load(d *Deps) (*workspace, error) {
	name, ok, err := f.accountName(d)
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
		return nil, err
	}
	ctx, err := gitctx.Detect(d.Dir, d.Env.Get)
	if err != nil {
		return nil, err
	}
	return &workspace{account: a, context: ctx, layout: configdir.Locate(a, ctx, d.Env)}, nil
}

// inWorkTree reports whether the context has a work tree of its own, so that
// it gets a runtime, a lock and a task list per workspace.
func (w *workspace) inWorkTree() bool {
	return w.context.Kind != gitctx.NotGit && w.context.Kind != gitctx.Bare
}

// lockKey is the instance lock's key (lock.Key).
func (w *workspace) lockKey() string {
	if !w.inWorkTree() {
		return lock.Key(w.account.Name, "")
	}
	return lock.Key(w.account.Name, w.context.Fingerprint)
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
		Trust: trustStore(d), Exe: executable(), Now: d.Now()}
}
