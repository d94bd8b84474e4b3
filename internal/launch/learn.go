package launch

import (
	"context"
	"sync"

	"github.com/claude-account/claude-account/internal/claudever"
)

// releaseWatch learns, while a session runs, which release of Claude really
// runs (claudever.Watch: on Linux from /proc, a few small reads, beside
// Claude and never before it starts) and records it when it is not the one
// this launch used (claudever.Learn), so the next launch in this directory
// uses it: a version manager's shim that picks the release by directory or
// environment, which no file tells, is read right by the next launch at the
// latest.
type releaseWatch struct {
	w      *Workspace
	cancel context.CancelFunc
	done   sync.WaitGroup
}

// start begins watching pid.
func (r *releaseWatch) start(pid int) {
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.done.Add(1)
	go func() {
		defer r.done.Done()
		if v, ok := claudever.Watch(ctx, pid); ok {
			claudever.Learn(VersionsCache(r.w.env), r.w.Claude, r.w.dir, v)
		}
	}()
}

// stop ends the watch once Claude exited, waiting for a record being written.
func (r *releaseWatch) stop() {
	r.cancel()
	r.done.Wait()
}
