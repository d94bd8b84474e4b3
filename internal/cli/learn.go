package cli

import (
	"context"
	"path/filepath"
	"sync"

	"github.com/claude-account/claude-account/internal/claudever"
)

// versionsCache is where the launcher keeps what it learned of Claude
// binaries' releases (claudever.IdentifyWith, claudever.Learn).
func versionsCache(d *Deps) string {
	return filepath.Join(d.Env.CacheHome(), "claude-account", "claude-versions.json")
}

// releaseWatch learns, while a session runs, which release of Claude really
// runs (claudever.Watch: on Linux from /proc, a few small reads, beside
// Claude and never before it starts) and records it when it is not the one
// this launch used (claudever.Learn), so the next launch in this directory
// uses it: a version manager's shim that picks the release by directory or
// environment, which no file tells, is read right by the next launch at the
// latest.
type releaseWatch struct {
	d      *Deps
	ws     *workspace
	cancel context.CancelFunc
	done   sync.WaitGroup
}

// watchRelease returns a watch whose start is given Claude's PID once it runs.
func watchRelease(d *Deps, ws *workspace) *releaseWatch {
	return &releaseWatch{cancel: func() {}, d: d, ws: ws}
}

// start begins watching pid.
func (r *releaseWatch) start(pid int) {
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.done.Add(1)
	go func() {
		defer r.done.Done()
		if v, ok := claudever.Watch(ctx, pid); ok {
			claudever.Learn(versionsCache(r.d), r.ws.claude, r.d.Dir, v)
		}
	}()
}

// stop ends the watch once Claude exited, waiting for a record being written.
func (r *releaseWatch) stop() {
	r.cancel()
	r.done.Wait()
}
