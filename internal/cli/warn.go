package cli

import (
	"path/filepath"

	"github.com/claude-account/claude-account/internal/doctor"
	"github.com/claude-account/claude-account/internal/lock"
)

// warnOnce prints each launch-time finding once per cause (doctor.Unwarned).
func warnOnce(d *Deps, configDir string, found []doctor.Finding) {
	path := filepath.Join(d.Env.StateHome(), "claude-account", "warned.json")
	for _, f := range doctor.Unwarned(path, lock.Dir(d.Env), configDir, found) {
		d.notef("warning: %s (see 'claude-account doctor')", f.Message)
	}
}
