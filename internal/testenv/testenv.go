package testenv

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/claude-account/claude-account/internal/claudever"
)

const snapshotsKey = "snapshots"

// Patience is how long a test waits for something that must happen (a file,
// a pane in tmux, a Claude to start) before it fails. A loaded machine (two
// cores, load average 20) slows a real Claude's start to tens of seconds;
// waiting costs nothing when things go well, so the deadline is generous.
// Scripts read it in seconds as $PATIENCE (timeout $PATIENCE claude …).
const Patience = 5 * time.Minute

// Inherited reports whether an inherited variable would steer the launcher,
// Claude or git, so that a test must not see it: tests run from inside a
// launcher-started session (CLAUDE_ACCOUNT, CLAUDE_CONFIG_DIR,
// CLAUDE_CODE_TASK_LIST_ID set), from a git hook (GIT_DIR), or on a machine
// with its own XDG dirs and API key.
func Inherited(name string) bool {
	for _, p := range []string{"CLAUDE", "ANTHROPIC_", "GIT_", "XDG_", "DISABLE_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// Hermetic is an environment list without the Inherited variables.
func Hermetic(vars []string) []string {
	out := make([]string, 0, len(vars))
	for _, kv := range vars {
		if name, _, _ := strings.Cut(kv, "="); !Inherited(name) {
			out = append(out, kv)
		}
	}
	return out
}

// Setup gives every script its own HOME, XDG_* dirs and git identity, so no
// script sees the machine's or another script's accounts, and nothing the
// go test process inherited steers it (testscript passes on only PATH and a
// few Go variables today; Hermetic keeps it so). Its Unix sockets go in
// $SOCKDIR (socketDir).
func Setup(e *testscript.Env) error {
	e.Vars = Hermetic(e.Vars)
	e.Setenv("PATIENCE", strconv.Itoa(int(Patience/time.Second)))
	if sdk := AgentSDK(); sdk != "" {
		e.Setenv("CLAUDE_AGENT_SDK", sdk)
	}
	w := e.WorkDir
	dirs := map[string]string{
		"HOME":            filepath.Join(w, "home"),
		"XDG_CONFIG_HOME": filepath.Join(w, "xdg", "config"),
		"XDG_DATA_HOME":   filepath.Join(w, "xdg", "data"),
		"XDG_STATE_HOME":  filepath.Join(w, "xdg", "state"),
		"XDG_CACHE_HOME":  filepath.Join(w, "xdg", "cache"),
		"XDG_RUNTIME_DIR": filepath.Join(w, "xdg", "run"),
	}
	for k, d := range dirs {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
		e.Setenv(k, d)
	}
	gitconfig := filepath.Join(w, ".gitconfig")
	const cfg = "[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n" +
		"[protocol \"file\"]\n\tallow = always\n[advice]\n\tdetachedHead = false\n"
	if err := os.WriteFile(gitconfig, []byte(cfg), 0o644); err != nil {
		return err
	}
	e.Setenv("GIT_CONFIG_GLOBAL", gitconfig)
	e.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	sockets, err := socketDir()
	if err != nil {
		return err
	}
	e.Defer(func() { _ = os.RemoveAll(sockets) })
	e.Setenv("SOCKDIR", sockets)
	e.Values[snapshotsKey] = &sync.Map{}
	return nil
}

// socketDir makes the script's $SOCKDIR, where its Unix sockets go (tmux -S
// $SOCKDIR/tmux.sock): a short dir of its own under /tmp, removed when the
// script ends. A socket's path is limited to 108 bytes (sun_path), and $WORK,
// under $TMPDIR, is not short: with a 64-character TMPDIR,
// $WORK/tmux.sock is over 120 and tmux says "File name too long". /tmp is
// there on every machine the tests run on (a Nix build sandbox has one too);
// where it cannot be written, $TMPDIR is the fallback.
func socketDir() (string, error) {
	dir, err := os.MkdirTemp("/tmp", "ca-")
	if err != nil {
		dir, err = os.MkdirTemp("", "ca-")
	}
	if err != nil {
		return "", err
	}
	// One spelling of it (macOS's /tmp is a link to /private/tmp): the
	// launcher records the socket as tmux reports it, and scripts compare.
	return filepath.EvalSymlinks(dir)
}

// RealSetup is Setup for a run against the real Claude Code at bin, release
// v: scripts guarded by [realclaude] find it as $CLAUDE_REAL_BIN, and its
// release (read from its package) as $CLAUDE_REAL_VERSION.
func RealSetup(bin string, v claudever.Version) func(*testscript.Env) error {
	return func(e *testscript.Env) error {
		if err := Setup(e); err != nil {
			return err
		}
		e.Setenv("CLAUDE_REAL_BIN", bin)
		e.Setenv("CLAUDE_REAL_VERSION", v.String())
		if startsFleet(filepath.Base(e.WorkDir)) {
			// One script of Claude's fleet at a time, whatever the
			// release: Claude's daemon hands a new background session to
			// a spare it started a moment before and gives up when the
			// spare does not listen within 5 s (2.1.197's code), leaving
			// the session "starting…" for good. Two daemons starting
			// their spares at once on a loaded 2-CPU machine did that
			// (CI stop 46, 2.1.197 and 2.1.332 together).
			fleetTurn <- struct{}{}
			e.Defer(func() { <-fleetTurn })
		}
		if err := asNixpkgsWraps(e); err != nil {
			return err
		}
		// ccusage, a usage tool from npm, as .ci/run installs it (pinned):
		// real-claude-config-dirs-ccusage runs it as $CCUSAGE_BIN.
		if bin := os.Getenv("CCUSAGE_BIN"); bin != "" {
			e.Setenv("CCUSAGE_BIN", bin)
		}
		return nil
	}
}

// asNixpkgsWraps runs the real Claude as most of our users do: nixpkgs'
// claude-code wrapper sets DISABLE_AUTOUPDATER and
// DISABLE_INSTALLATION_CHECKS, and npm is seldom on a Nix user's PATH. On
// CI's machine npm is there (.ci/run installs Claude with it), and 2.0.77 and
// 2.1.90 ask it three times at every start (npm config get prefix, npm root
// -g, npm view @anthropic-ai/claude-code@latest --prefer-online, the last
// over the network), whatever DISABLE_AUTOUPDATER says: measured, 2.3 to 2.7
// s of CPU a session, a third of a 25 s session's CPU on a 2-CPU machine
// where the suite is CPU-bound. The stand-in npm exits 127 at once, as a
// shell does for a command it cannot find.
func asNixpkgsWraps(e *testscript.Env) error {
	e.Setenv("DISABLE_AUTOUPDATER", "1")
	e.Setenv("DISABLE_INSTALLATION_CHECKS", "1")
	dir := filepath.Join(e.WorkDir, ".npm-absent")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	const npm = "#!/bin/sh\necho 'npm: not on PATH (the tests run Claude as under nixpkgs, without npm)' >&2\nexit 127\n"
	if err := os.WriteFile(filepath.Join(dir, "npm"), []byte(npm), 0o755); err != nil {
		return err
	}
	e.Setenv("PATH", dir+string(filepath.ListSeparator)+e.Getenv("PATH"))
	return nil
}

// fleetTurn is the one turn the scripts that start background sessions
// take (RealSetup).
var fleetTurn = make(chan struct{}, 1)

// startsFleet tells, from a script's work dir name (script-NAME), the real
// scripts that start Claude's background sessions: its fleet's and doctor's.
func startsFleet(workDir string) bool {
	name := strings.TrimPrefix(workDir, "script-")
	return strings.HasPrefix(name, "real-claude-fleet-") || name == "real-claude-doctor-fleet"
}
