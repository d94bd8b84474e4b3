package doctor

import (
	"fmt"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/trust"
)

func overlay(in Input) []Finding {
	if in.Context.Toplevel == "" || in.Account.Config.ProjectMCP != account.ProjectMCPTrusted {
		return nil
	}
	path := filepath.Join(in.Context.Toplevel, configdir.OverlayRel)
	data, err := trust.ReadOverlay(path)
	if err != nil {
		return []Finding{{ID: "overlay-unsafe", Path: path, Message: err.Error()}}
	}
	if data == nil {
		return nil
	}
	if st, err := in.Trust.Check(path, data); err == nil && st == trust.Changed {
		return []Finding{{ID: "overlay-changed", Path: path,
			Message: fmt.Sprintf("%s changed since you trusted it, so its servers are not loaded; review it, then run '%s'", path, trustCommand(path))}}
	}
	return nil
}
