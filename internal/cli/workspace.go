package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/launch"
)

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
	name = f.named(d)
	if name == Auto {
		name, err = pickAuto(d, false)
		return name, nil, err == nil, err
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

// named is the account the user named: --account, else $CLAUDE_ACCOUNT,
// else the program name (claudemax); "" when none does.
func (f AccountFlags) named(d *Deps) string {
	if f.Account != "" {
		return f.Account
	}
	if name := d.Env.Get("CLAUDE_ACCOUNT"); name != "" {
		return name
	}
	name, _ := launcherAccount(d.Prog)
	return name
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
	known   int // accounts there are
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
		if e.known > 0 {
			return e.NotFoundError.Error() + " (" + accountsHint + ")"
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
	known := binding.KnownAccounts(d.Env)
	e := &accountNotFound{NotFoundError: nf, nearest: binding.Nearest(nf.Name, known), known: len(known), from: from}
	if from != nil {
		e.file = binding.Path(d.Env)
		if from.Declared {
			e.file = binding.DeclaredPath(d.Env)
		}
		e.dir = d.Env.ShellPath(binding.Expand(d.Env, from.Dir))
	}
	return e
}

// checkAccountName is account.ValidateName as a usage error, with the
// account the user most likely meant (binding.Nearest: the same name in
// lower case, or a near miss), else, for a name in the wrong case, that
// names are lower case.
func checkAccountName(d *Deps, name string) error {
	err := account.ValidateName(name)
	if err == nil {
		return nil
	}
	if near := binding.Nearest(name, binding.KnownAccounts(d.Env)); near != "" {
		return UsageError{fmt.Errorf("%w; did you mean %q?", err, near)}
	}
	if lower := strings.ToLower(name); lower != name && account.ValidateName(lower) == nil {
		return UsageError{fmt.Errorf("%w; account names are lower case, and there is no account %q either (list them with 'claude-account accounts')", err, lower)}
	}
	return UsageError{err}
}

// loadAccount loads the account name from dir, or ("") from where a launch
// finds it: the directory home-manager declared for it, else ~/.claude-NAME.
func loadAccount(d *Deps, name, dir string) (*account.Account, error) {
	return loadAccountFrom(d, name, dir, nil)
}

// loadAccountFrom is loadAccount for an account a binding (from) named, for
// the error to say so.
func loadAccountFrom(d *Deps, name, dir string, from *binding.Binding) (*account.Account, error) {
	var err error
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
	return a, nil
}

// load resolves the account (accountName) and opens its workspace in the
// working directory (launch.Open).
func (f AccountFlags) load(d *Deps) (*launch.Workspace, error) {
	name, from, ok, err := f.account(d)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, UsageError{errors.New("no account given: pass --account NAME (" + accountsHint + "), set CLAUDE_ACCOUNT, run as claudeNAME, or bind this directory with 'claude-account bind NAME'")}
	}
	if err := checkAccountName(d, name); err != nil {
		return nil, err
	}
	dir := f.AccountDir
	if dir == "" {
		dir = d.Env.Get("CLAUDE_ACCOUNT_DIR")
	}
	a, err := loadAccountFrom(d, name, dir, from)
	if err != nil {
		return nil, err
	}
	ws, err := launch.Open(a, d.Dir, d.Env, d.Now)
	if ws != nil {
		ws.Accounts = func() []conversation.Account { return withAccount(d, a) }
	}
	return ws, err
}

// withAccount is every account the launcher finds, with a among them (by
// its dir: it may be one given by --account-dir).
func withAccount(d *Deps, a *account.Account) []conversation.Account {
	all, _ := accountsToSearch(d, "", "")
	for _, o := range all {
		if o.Name == a.Name && o.Dir == a.Dir {
			return all
		}
	}
	out := []conversation.Account{{Name: a.Name, Dir: a.Dir}}
	for _, o := range all {
		if o.Name != a.Name {
			out = append(out, o)
		}
	}
	return out
}
