package testenv

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// stopfleet CONFIGDIR…: when the script ends, passed or failed, stop the
// supervisor of Claude's fleet in each config dir and the background
// sessions it hosts, with the real Claude's own 'daemon stop --any'
// ($CLAUDE_REAL_BIN, CLAUDE_CONFIG_DIR=CONFIGDIR): a supervisor outlives the
// script that started it (DESIGN.md fact 20). Give it before the first
// command that may start one, so that a script failing halfway stops it too.
// A config dir without daemon.lock has no supervisor to stop (a running one
// holds it; the script stopped its own, or never started one), so no Claude
// is launched for it: on 2.1.197 that launch alone takes seconds on a loaded
// machine.
func stopfleet(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: stopfleet CONFIGDIR…")
	}
	bin := ts.Getenv("CLAUDE_REAL_BIN")
	if bin == "" {
		ts.Fatalf("stopfleet: $CLAUDE_REAL_BIN is not set (a real-Claude script's setup sets it)")
	}
	var env []string
	for _, k := range []string{"HOME", "PATH", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "TMPDIR"} {
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	for _, a := range args {
		dir := ts.MkAbs(a)
		ts.Defer(func() {
			if _, err := os.Lstat(filepath.Join(dir, "daemon.lock")); errors.Is(err, fs.ErrNotExist) {
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			c := exec.CommandContext(ctx, bin, "daemon", "stop", "--any")
			c.Env = append(env, "CLAUDE_CONFIG_DIR="+dir, "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1")
			c.Dir = os.TempDir()
			_ = c.Run()
		})
	}
}
