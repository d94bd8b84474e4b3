package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/gitctx"
)

// byDirCmds are the commands of accounts by directory, embedded in CLI.
type byDirCmds struct {
	Bind       BindCmd       `cmd:"" help:"Use an account in a directory and below, with no flags (or --list the bindings)."`
	Unbind     UnbindCmd     `cmd:"" help:"Remove a directory's account binding."`
	Statusline StatuslineCmd `cmd:"" help:"Claude Code's statusLine command: account, worktree, git state, model."`
}

// BindCmd is `claude-account bind ACCOUNT [DIR]` and `bind --list`.
type BindCmd struct {
	Account string `arg:"" optional:"" placeholder:"ACCOUNT" help:"The account to use in DIR and below."`
	Dir     string `arg:"" optional:"" placeholder:"DIR" help:"The directory. Default: this worktree's top level, else the current directory."`
	List    bool   `help:"List every binding, declared (Nix) and your own."`
	JSON    bool   `help:"With --list, print JSON (schema in README-CLAUDE-CODE.md)."`
	Force   bool   `help:"Bind even an account that does not exist yet (made later by init or home-manager)."`
	Also    bool   `help:"Bind ACCOUNT beside the accounts DIR is bound to already, instead of in their place: a launch there with no account named picks the one with the most headroom."`
}

// Help is shown under the command's usage.
func (c *BindCmd) Help() string {
	return `With no --account, $CLAUDE_ACCOUNT or claude<name> program name, every command
uses the account bound to the longest enclosing directory (symlinks resolved).

Examples:
  claude-account bind work ~/work      # in ~/work and below, use the account work
  claude-account bind max              # this worktree uses max
  claude-account bind max ~/work --also  # in ~/work, run picks work or max, by headroom
  claude-account bind --list --json

A directory bound to several accounts: 'claude-account run' (and claude-here) with
no account named picks among them the one with the most headroom, the five-hour
window first, then the weekly one ('claude-account accounts' shows the figures),
and says which in one line; every other command uses the first bound.`
}

// UnbindCmd is `claude-account unbind [DIR]`.
type UnbindCmd struct {
	Dir string `arg:"" optional:"" placeholder:"DIR" help:"The directory. Default: this worktree's top level, else the current directory."`
}

// Help is shown under the command's usage.
func (c *UnbindCmd) Help() string {
	return `Example:
  claude-account unbind ~/work         # ~/work falls back to an enclosing binding, if any`
}

// BindingJSON is one element of `bind --list --json`; a stable interface.
type BindingJSON struct {
	Directory string `json:"directory"` // absolute, ~ expanded, as written
	Canonical string `json:"canonical"` // symlinks resolved: what is matched
	Account   string `json:"account"`
	Declared  bool   `json:"declared"` // from the Nix module's bindings.declared
	File      string `json:"file"`
}

// Run binds, or lists.
func (c *BindCmd) Run(d *Deps) error {
	if c.List {
		if c.Account != "" {
			return UsageError{errors.New("bind --list takes no ACCOUNT")}
		}
		return c.list(d)
	}
	if c.JSON {
		return UsageError{errors.New("--json goes with --list")}
	}
	if c.Account == "" {
		return UsageError{errors.New("bind needs an ACCOUNT (or --list)")}
	}
	dir, err := bindDir(d, c.Dir)
	if err != nil {
		return err
	}
	if !c.Force {
		if err := accountExists(d, c.Account); err != nil {
			return err
		}
	}
	if c.Also {
		return c.also(d, dir)
	}
	prev, err := binding.Bind(d.Env, dir, c.Account)
	if err != nil {
		return err
	}
	switch prev {
	case c.Account:
		d.stdout().Linef("%s is already bound to %s", d.Env.TildePath(dir), c.Account)
	case "":
		d.stdout().Linef("bound %s to %s", d.Env.TildePath(dir), c.Account)
	default:
		d.stdout().Linef("bound %s to %s (was %s)", d.Env.TildePath(dir), c.Account, prev)
	}
	return nil
}

// also binds beside the accounts dir is bound to.
func (c *BindCmd) also(d *Deps, dir string) error {
	before, _, err := binding.Lookup(d.Env, dir)
	if err != nil {
		return err
	}
	added, err := binding.Also(d.Env, dir, c.Account)
	if err != nil {
		return err
	}
	switch {
	case !added:
		d.stdout().Linef("%s is already bound to %s", d.Env.TildePath(dir), c.Account)
	case before.Account != "" && binding.Canonical(binding.Expand(d.Env, before.Dir)) == dir:
		all, _ := binding.Accounts(d.Env, before)
		d.stdout().Linef("bound %s to %s beside %s", d.Env.TildePath(dir), c.Account, strings.Join(slices.DeleteFunc(all, func(a string) bool { return a == c.Account }), ", "))
	default:
		d.stdout().Linef("bound %s to %s", d.Env.TildePath(dir), c.Account)
	}
	return nil
}

// accountExists refuses to bind an account that has no directory: the
// mistake would only show at the next launch in the directory, far from here.
func accountExists(d *Deps, name string) error {
	if err := checkAccountName(d, name); err != nil {
		return err
	}
	dir, err := binding.AccountDir(d.Env, name)
	if err != nil {
		return err
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		return nil // there, or unreadable: the launch will say what is wrong
	}
	msg := fmt.Sprintf("account %q not found: %s does not exist; ", name, dir)
	if near := binding.Nearest(name, binding.KnownAccounts(d.Env)); near != "" {
		msg += fmt.Sprintf("did you mean %q? Else ", near)
	}
	return errors.New(msg + fmt.Sprintf("run 'claude-account init %s' first, or pass --force to bind it anyway", name))
}

func (c *BindCmd) list(d *Deps) error {
	bs, err := binding.ReadAll(d.Env)
	if err != nil {
		return err
	}
	out := make([]BindingJSON, 0, len(bs))
	for _, b := range bs {
		abs := binding.Expand(d.Env, b.Dir)
		file := binding.Path(d.Env)
		if b.Declared {
			file = binding.DeclaredPath(d.Env)
		}
		out = append(out, BindingJSON{Directory: abs, Canonical: binding.Canonical(abs), Account: b.Account, Declared: b.Declared, File: file})
	}
	if c.JSON {
		return d.stdout().JSON(out)
	}
	for _, b := range out {
		if b.Declared {
			d.stdout().Fields(d.Env.TildePath(b.Directory), b.Account, "(declared)")
		} else {
			d.stdout().Fields(d.Env.TildePath(b.Directory), b.Account)
		}
	}
	return nil
}

// Run removes a binding.
func (c *UnbindCmd) Run(d *Deps) error {
	dir, err := bindDir(d, c.Dir)
	if err != nil {
		return err
	}
	acct, ok, err := binding.Unbind(d.Env, dir)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s has no binding of its own; 'claude-account bind --list' shows them", d.Env.TildePath(dir))
	}
	d.stdout().Linef("unbound %s (was %s)", d.Env.TildePath(dir), acct)
	return nil
}

// bindDir is DIR made absolute and canonical, or by default the current
// worktree's top level (pure-Go detection, no git process), else the cwd.
func bindDir(d *Deps, dir string) (string, error) {
	if dir == "" {
		ctx, err := gitctx.Detect(d.Dir, d.Env.Get)
		if err == nil && ctx.Toplevel != "" {
			return ctx.Toplevel, nil
		}
		dir = d.Dir
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(d.Dir, dir)
	}
	c, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("%s does not exist; name an existing directory", dir)
	}
	if fi, err := os.Stat(c); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory; name a directory", dir)
	}
	return c, nil
}
