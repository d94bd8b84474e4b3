package cli

import (
	"errors"
)

// GenerateCmd is `claude-account generate`, run by the Nix module at build time.
type GenerateCmd struct {
	Spec string `required:"" type:"existingfile" help:"The account's declaration as JSON (written by the Nix module)."`
	Out  string `required:"" help:"The directory to create: the account's store layer."`
}

// Run builds the layer.
func (c *GenerateCmd) Run(d *Deps) error {
	return errors.New("generate: not built yet")
}
