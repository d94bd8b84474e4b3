package cli

import (
	"path/filepath"

	"github.com/claude-account/claude-account/internal/generate"
)

// GenerateCmd is `claude-account generate`, run by the Nix module at build time.
type GenerateCmd struct {
	Spec string `required:"" placeholder:"FILE" help:"The account's declaration as JSON (written by the Nix module)."`
	Out  string `required:"" placeholder:"DIR" help:"The directory to create: the account's store layer."`
}

// Help is shown under the command's usage.
func (c *GenerateCmd) Help() string {
	return `Builds layer 1 of an account: settings.json, .mcp.json, commands/, agents/,
skills/, CLAUDE.md (only what is declared) and account.toml. The output is
deterministic, so the store path changes only when the declaration does.

Example:
  claude-account generate --spec max.json --out ./layer1`
}

// Run builds the layer.
func (c *GenerateCmd) Run(d *Deps) error {
	spec, out := c.Spec, c.Out
	if !filepath.IsAbs(spec) {
		spec = filepath.Join(d.Dir, spec)
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(d.Dir, out)
	}
	return generate.Run(spec, out)
}
