//go:build unix

package gitctx

import "syscall"

// deviceOf is the device of path, for git's stop at filesystem boundaries.
func deviceOf(path string) (uint64, bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return 0, false
	}
	return uint64(st.Dev), true
}
