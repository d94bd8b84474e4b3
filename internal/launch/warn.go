package launch

import (
	"path/filepath"

	"github.com/claude-account/claude-account/internal/doctor"
)

// warn says, once per cause, what doctor would find wrong with this
// workspace (doctor.Quick) and what this Claude's release shares less of
// than newer ones (doctor.Degraded: once per release, not per worktree).
func (w *Workspace) warn(io IO) {
	in := w.doctorInput()
	w.say(io, in, doctor.Unwarned(w.warnedPath(), w.lockDir,
		doctor.Group{Key: w.Layout.ConfigDir, Found: doctor.Quick(in)}, w.releaseGroup(in))...)
}

// warnRelease is warn's second half alone, for a command beside a session.
func (w *Workspace) warnRelease(io IO) {
	in := w.doctorInput()
	w.say(io, in, doctor.Unwarned(w.warnedPath(), w.lockDir, w.releaseGroup(in))...)
}

func (w *Workspace) releaseGroup(in doctor.Input) doctor.Group {
	return doctor.Group{Key: "claude " + w.Account.Name, Found: doctor.Degraded(in)}
}

func (w *Workspace) say(io IO, in doctor.Input, groups ...[]doctor.Finding) {
	for _, found := range groups {
		for _, f := range found {
			io.Note("warning: " + f.Message + " (see '" + doctor.Command(in) + "')")
		}
	}
}

func (w *Workspace) doctorInput() doctor.Input {
	return doctor.Input{Account: w.Account, Context: w.Context, Layout: w.Layout, Claude: w.Claude}
}

func (w *Workspace) warnedPath() string {
	return filepath.Join(w.env.StateHome(), "claude-account", "warned.json")
}
