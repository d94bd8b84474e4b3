package launch

import (
	"path/filepath"

	"github.com/claude-account/claude-account/internal/doctor"
)

// warn says, once per cause, what doctor would find wrong with this
// workspace (doctor.Quick) and what this Claude's release shares less of.
func (w *Workspace) warn(io IO) {
	in := w.doctorInput()
	for _, f := range doctor.Unwarned(w.warnedPath(), w.lockDir, w.Layout.ConfigDir, doctor.Quick(in)) {
		io.Note("warning: " + f.Message + " (see '" + doctor.Command(in) + "')")
	}
	w.warnRelease(io)
}

// warnRelease says once per release of Claude, not per worktree, what it
// shares less of than newer releases (doctor.Degraded).
func (w *Workspace) warnRelease(io IO) {
	in := w.doctorInput()
	for _, f := range doctor.Unwarned(w.warnedPath(), w.lockDir, "claude "+w.Account.Name, doctor.Degraded(in)) {
		io.Note("warning: " + f.Message + " (see '" + doctor.Command(in) + "')")
	}
}

func (w *Workspace) doctorInput() doctor.Input {
	return doctor.Input{Account: w.Account, Context: w.Context, Layout: w.Layout, Claude: w.Claude}
}

func (w *Workspace) warnedPath() string {
	return filepath.Join(w.env.StateHome(), "claude-account", "warned.json")
}
