package claudever

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Running reads the release of the program running as pid, or one of its
// children (a shim that starts Claude rather than exec it): its executable
// (/proc/PID/exe: a native Claude, the installer's versions/X.Y.Z, a Nix
// store path) or a file its command line names (node's …/cli.js beside npm's
// package.json). ok is false while none of them is Claude.
func Running(pid int) (Version, bool) {
	if v, ok := runningOne(pid); ok {
		return v, true
	}
	p := strconv.Itoa(pid)
	data, err := os.ReadFile(filepath.Join("/proc", p, "task", p, "children"))
	if err != nil {
		return Version{}, false
	}
	for _, c := range strings.Fields(string(data)) {
		if n, err := strconv.Atoi(c); err == nil {
			if v, ok := runningOne(n); ok {
				return v, true
			}
		}
	}
	return Version{}, false
}

func runningOne(pid int) (Version, bool) {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	if exe, err := os.Readlink(filepath.Join(dir, "exe")); err == nil {
		if v, ok := identifyFile(strings.TrimSuffix(exe, " (deleted)")); ok {
			return v, true
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "cmdline"))
	if err != nil {
		return Version{}, false
	}
	args := strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")
	for i, a := range args {
		if i > 4 {
			break // the script an interpreter runs comes first among its arguments
		}
		if filepath.IsAbs(a) {
			if v, ok := identifyFile(a); ok {
				return v, true
			}
		}
	}
	return Version{}, false
}
