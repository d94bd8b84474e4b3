package cli

import (
	"fmt"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/account"
)

// InitCmd is `claude-account init NAME`.
type InitCmd struct {
	Name string `arg:"" help:"Account name: lower-case letters, digits, '-' and '_'."`
	Dir  string `placeholder:"DIR" help:"Where to make it. Default: $$CLAUDE_ACCOUNT_DIR, else ~/.claude-NAME."`
}

// Help is shown under the command's usage.
func (c *InitCmd) Help() string {
	return `Makes ~/.claude-NAME with account.toml, settings.json, .mcp.json and commands/, all
plain writable files: edit them by hand. With Nix, declare the account in home-manager instead.

Example:
  claude-account init max && claude-account run --account max`
}

// Run makes the account dir.
func (c *InitCmd) Run(d *Deps) error {
	if err := account.ValidateName(c.Name); err != nil {
		return UsageError{err}
	}
	dir := c.Dir
	if dir == "" {
		dir = d.Env.Get("CLAUDE_ACCOUNT_DIR")
	}
	if dir == "" {
		dir = account.DefaultDir(d.Env, c.Name)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(d.Dir, dir)
	}
	if err := account.Init(c.Name, dir); err != nil {
		return err
	}
	fmt.Fprintf(d.Stdout, "made account %s in %s; start Claude with: claude-account run --account %s\n", c.Name, d.Env.TildePath(dir), c.Name)
	return nil
}
