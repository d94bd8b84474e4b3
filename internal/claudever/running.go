package claudever

import (
	"context"
	"path/filepath"
	"time"
)

// identifyFile reads the release of one file the way readFiles reads it,
// without following scripts: what runs is the program itself.
func identifyFile(p string) (Version, bool) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return Version{}, false
	}
	for _, q := range []string{p, real} {
		if v, ok := fromStorePath(q); ok {
			return v, true
		}
		if v, ok := fromVersionsDir(q); ok {
			return v, true
		}
	}
	return fromPackageJSON(real)
}

// Watch reads the release of the Claude running as pid (Running), trying
// again while it is not Claude yet (a wrapper or shim that has not reached
// its exec), until ctx ends: at the latest when Claude exits. It reads only
// /proc, a few small files each time, first after 5 ms and then at growing
// intervals up to half a second.
func Watch(ctx context.Context, pid int) (Version, bool) {
	// Not at once: the first milliseconds are Claude's own start, which
	// these reads would only compete with for the CPU.
	wait := 5 * time.Millisecond
	for {
		select {
		case <-ctx.Done():
			return Version{}, false
		case <-time.After(wait):
		}
		if v, ok := Running(pid); ok {
			return v, true
		}
		wait = min(wait*2, 500*time.Millisecond)
	}
}
