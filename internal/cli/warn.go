package cli

import (
	"path/filepath"

	"github.com/claude-account/claude-account/internal/doctor"
	"github.com/claude-account/claude-account/internal/lock"
)

// warnOnce prints each launch-time finding of in once per cause
// (doctor.Unwarned), pointing at the doctor of that config dir.
func warnOnce(d *Deps, in doctor.Input) {
	path := filepath.Join(d.Env.StateHome(), "claude-account", "warned.json")
	for _, f := range doctor.Unwarned(path, lock.Dir(d.Env), in.Layout.ConfigDir, doctor.Quick(in)) {
		d.notef("warning: %s (see '%s')", f.Message, doctor.Command(in))
	}
}

// warnRelease says once per release of Claude, not per worktree, what it
// shares less of than newer releases (doctor.Degraded).
func warnRelease(d *Deps, in doctor.Input) {
	path := filepath.Join(d.Env.StateHome(), "claude-account", "warned.json")
	for _, f := range doctor.Unwarned(path, lock.Dir(d.Env), "claude "+in.Account.Name, doctor.Degraded(in)) {
		d.notef("warning: %s (see '%s')", f.Message, doctor.Command(in))
	}
}
