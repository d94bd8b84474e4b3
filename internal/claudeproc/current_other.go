//go:build !linux && !darwin

package claudeproc

import (
	"errors"
	"runtime"
)

// Current cannot read this system's process table: In says it cannot tell,
// and worktree rm and gc refuse unless forced.
func Current() *Snapshot {
	return Unreadable(errors.New("claude-account reads processes on Linux and macOS only, not on " + runtime.GOOS))
}
