//go:build !linux

package claudever

// Running reads the release of the program running as pid; only Linux
// (/proc) tells it, so elsewhere it never does.
func Running(pid int) (Version, bool) { return Version{}, false }
