package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/mcp"
	"github.com/claude-account/claude-account/internal/trust"
)

// TrustCmd is `claude-account trust [FILE]`.
type TrustCmd struct {
	File string `arg:"" optional:"" placeholder:"FILE" help:"The overlay to approve. Default: this workspace's .claude/.mcp.json."`
	List bool   `help:"List every approval and whether it still matches its file."`
	JSON bool   `help:"With --list, print JSON: [{path, key, state}]."`
}

// Help is shown under the command's usage.
func (c *TrustCmd) Help() string {
	return `A repository's .claude/.mcp.json names commands that Claude would run. Its servers
are added to the account's only after you approve the file's exact content; any
edit revokes the approval, and the launch warns until you trust it again.

Examples:
  claude-account trust                 # approve ./.claude/.mcp.json of this workspace
  claude-account trust path/to/.mcp.json
  claude-account trust --list`
}

// UntrustCmd is `claude-account untrust [FILE]`.
type UntrustCmd struct {
	File string `arg:"" optional:"" placeholder:"FILE" help:"The overlay to revoke. Default: this workspace's .claude/.mcp.json."`
}

// Help is shown under the command's usage.
func (c *UntrustCmd) Help() string {
	return `Example:
  claude-account untrust               # stop loading this workspace's project servers`
}

func trustStore(d *Deps) trust.Store {
	return launch.TrustStore(d.Env)
}

// overlayPath resolves FILE, or the workspace's overlay, to the absolute path
// that trust keys are made of: its directory canonical, the file itself not
// followed (a symlinked overlay is refused when read).
func overlayPath(d *Deps, file string) (string, error) {
	if file == "" {
		ctx, err := gitctx.Detect(d.Dir, d.Env.Get)
		if err != nil {
			return "", err
		}
		if ctx.Toplevel == "" {
			return "", UsageError{errors.New("not in a git work tree: name the overlay file to trust")}
		}
		return filepath.Join(ctx.Toplevel, configdir.OverlayRel), nil
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(d.Dir, file)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(file))
	if err != nil {
		return "", fmt.Errorf("%s does not exist; name an existing .mcp.json to trust", filepath.Dir(file))
	}
	return filepath.Join(dir, filepath.Base(file)), nil
}

// Run approves the overlay, or lists approvals.
func (c *TrustCmd) Run(d *Deps) error {
	store := trustStore(d)
	if c.List {
		return c.list(d, store)
	}
	path, err := overlayPath(d, c.File)
	if err != nil {
		return err
	}
	data, err := trust.ReadOverlay(path)
	if err != nil {
		return err
	}
	if data == nil {
		return fmt.Errorf("%s does not exist; nothing to trust", path)
	}
	servers, err := mcp.Parse(data, path)
	if err != nil {
		return fmt.Errorf("%w; fix it before trusting it", err)
	}
	if err := store.Allow(path, data); err != nil {
		return err
	}
	names := "none"
	if len(servers) > 0 {
		names = strings.Join(servers.Names(), ", ")
	}
	d.stdout().Linef("trusted %s (servers: %s); any edit revokes this", d.Env.TildePath(path), names)
	return nil
}

func (c *TrustCmd) list(d *Deps, store trust.Store) error {
	entries, err := store.List()
	if err != nil {
		return err
	}
	type row struct {
		Path  string `json:"path"`
		Key   string `json:"key"`
		State string `json:"state"` // trusted, changed, missing, unreadable
	}
	rows := make([]row, 0, len(entries))
	for _, e := range entries {
		// The overlay is read as a launch reads it: a FIFO or a huge file
		// is reported, never waited for or loaded.
		st := "missing"
		data, err := trust.ReadOverlay(e.Path)
		switch {
		case err != nil:
			st = "unreadable"
		case data != nil && trust.Key(e.Path, data) == e.Key:
			st = "trusted"
		case data != nil:
			st = "changed"
		}
		rows = append(rows, row{Path: e.Path, Key: e.Key, State: st})
	}
	if c.JSON {
		return d.stdout().JSON(rows)
	}
	for _, r := range rows {
		d.stdout().Linef("%-8s %s", r.State, d.Env.TildePath(r.Path))
	}
	return nil
}

// Run revokes every approval of the overlay.
func (c *UntrustCmd) Run(d *Deps) error {
	path, err := overlayPath(d, c.File)
	if err != nil {
		return err
	}
	n, err := trustStore(d).Revoke(path)
	if err != nil {
		return err
	}
	if n == 0 {
		d.stdout().Linef("%s was not trusted", d.Env.TildePath(path))
		return nil
	}
	d.stdout().Linef("untrusted %s", d.Env.TildePath(path))
	return nil
}
