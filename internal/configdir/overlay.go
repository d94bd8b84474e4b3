package configdir

import (
	"fmt"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/mcp"
	"github.com/claude-account/claude-account/internal/shell"
	"github.com/claude-account/claude-account/internal/trust"
)

// OverlayRel is where a workspace keeps its project MCP servers.
const OverlayRel = ".claude/.mcp.json"

// overlay is the trusted project overlay's servers; an overlay that is not
// trusted is reported and skipped.
func (p *Plan) overlay(in Input) mcp.Servers {
	if in.Context.Toplevel == "" || in.Account.Config.ProjectMCP != account.ProjectMCPTrusted {
		return nil
	}
	overlayPath := filepath.Join(in.Context.Toplevel, OverlayRel)
	overlay, err := trust.ReadOverlay(overlayPath)
	if err != nil {
		p.Notes = append(p.Notes, fmt.Sprintf("%v; its servers are not loaded", err))
		return nil
	}
	if overlay == nil {
		return nil
	}
	st, err := in.Trust.Check(overlayPath, overlay)
	if err != nil {
		// A damaged or planted trust store approves nothing; the launch goes on.
		p.Notes = append(p.Notes, fmt.Sprintf("%v; the servers of %s are not loaded", err, overlayPath))
		return nil
	}
	switch st {
	case trust.Untrusted:
		p.Notes = append(p.Notes, fmt.Sprintf("%s is not trusted, so its servers are not loaded; review it, then run 'claude-account trust %s'", overlayPath, shell.Quote(overlayPath)))
		return nil
	case trust.Changed:
		p.Notes = append(p.Notes, fmt.Sprintf("%s changed since you trusted it, so its servers are not loaded; review it, then run 'claude-account trust %s'", overlayPath, shell.Quote(overlayPath)))
		return nil
	}
	servers, err := mcp.Parse(overlay, overlayPath)
	if err != nil {
		p.Notes = append(p.Notes, fmt.Sprintf("%v; its servers are not loaded", err))
		return nil
	}
	return servers
}
