// Package testenv is the world the end-to-end testscripts run in: a private
// HOME and XDG dirs, a git identity, real git repositories made by small
// commands, and a stub claude that reports what it was started with.
package testenv

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/worktree"
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
		return nil
	}
}

// Condition answers the scripts' [conditions]; an unknown one is an error,
// so a typo cannot silently skip a test. With the stub claude, [realclaude] is
// false and [claude:X.Y.Z] compares with StubVersion.
func Condition(cond string) (bool, error) {
	return condition(cond, "", StubVersion)
}

// RealCondition answers them for a run against the real Claude Code at bin,
// release v: [realclaude] holds, [claude:X.Y.Z] holds when v is X.Y.Z or newer.
func RealCondition(bin string, v claudever.Version) func(string) (bool, error) {
	ok := exec.Command(bin, "--version").Run() == nil
	return func(cond string) (bool, error) {
		if cond == "realclaude" {
			return ok, nil
		}
		return condition(cond, bin, v.String())
	}
}

func condition(cond, real, version string) (bool, error) {
	if want, ok := strings.CutPrefix(cond, "claude:"); ok {
		w, ok := claudever.Parse(want)
		if !ok || w.String() != want {
			return false, fmt.Errorf("condition %q: want claude:X.Y.Z", cond)
		}
		v, _ := claudever.Parse(version)
		return v.AtLeast(w), nil
	}
	switch cond {
	case "linux":
		return goruntime.GOOS == "linux", nil
	case "root":
		return os.Geteuid() == 0, nil
	case "unshare":
		// A private mount namespace lets a test make a read-only mount.
		return exec.Command("unshare", "-m", "true").Run() == nil, nil
	case "realclaude":
		return real != "", nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// Commands are the scripts' own commands.
func Commands() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"mkrepo":      mkrepo,
		"mkworktree":  mkworktree,
		"mksubmodule": mksubmodule,
		"mkbare":      mkbare,
		"readlink":    readlinkCmd,
		"issymlink":   issymlink,
		"mode":        modeCmd,
		"jsonpath":    jsonpath,
		"waitfile":    waitfile,
		"sendsig":     sendsig,
		"snapshot":    snapshot,
		"unchanged":   unchanged,
		"apistub":     apistub,
		"apitext":     apitext,
		"apiauth":     apiauth,
		"endsas":      endsas,
		"mkclaude":    mkclaude,
		"archivedir":  archivedir,
		"suggested":   suggested,
		"ondone":      ondone,
		"clock":       clock,
		"subst":       subst,
		"killtmux":    killtmux,
	}
}

func git(ts *testscript.TestScript, args ...string) {
	if err := ts.Exec("git", args...); err != nil {
		ts.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
}

// mkrepo DIR: a repository with one commit on main.
func mkrepo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkrepo DIR")
	}
	dir := ts.MkAbs(args[0])
	git(ts, "init", "-q", dir)
	ts.Check(os.WriteFile(filepath.Join(dir, "README"), []byte("hello\n"), 0o644))
	git(ts, "-C", dir, "add", "README")
	git(ts, "-C", dir, "commit", "-q", "-m", "init")
}

// mkworktree REPO DIR BRANCH: a linked worktree on a new branch.
func mkworktree(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: mkworktree REPO DIR BRANCH")
	}
	git(ts, "-C", ts.MkAbs(args[0]), "worktree", "add", "-q", "-b", args[2], ts.MkAbs(args[1]))
}

// mksubmodule SUPER PATH: a new repository added to SUPER as submodule PATH.
func mksubmodule(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mksubmodule SUPER PATH")
	}
	super := ts.MkAbs(args[0])
	src := ts.MkAbs(".submodule-src-" + strings.ReplaceAll(args[1], "/", "_"))
	mkrepo(ts, false, []string{src})
	git(ts, "-C", super, "submodule", "add", "-q", src, args[1])
	git(ts, "-C", super, "commit", "-q", "-m", "add submodule "+args[1])
}

// mkbare DIR: a bare repository with one commit.
func mkbare(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkbare DIR")
	}
	src := ts.MkAbs(".bare-src-" + filepath.Base(args[0]))
	mkrepo(ts, false, []string{src})
	git(ts, "clone", "-q", "--bare", src, ts.MkAbs(args[0]))
}

// mkclaude [-native] DIR VERSION [PROGRAM]: an npm install of Claude Code
// VERSION in DIR, as 'npm install --prefix DIR' lays it out
// (node_modules/.bin/claude linking to the package's cli.js beside its
// package.json), whose cli.js runs PROGRAM (the stub claude when not given; a
// real Claude behind another release's number shows what the launcher does
// for that release). The launcher reads VERSION from package.json, as from a
// real one. With -native the package holds the stub claude itself as
// bin/claude (a hard link), as npm's native releases (2.1.330 on) hold their
// binary: the running program, not a script before it, is then that
// package's (/proc/PID/exe), and it answers --version with VERSION.
func mkclaude(ts *testscript.TestScript, neg bool, args []string) {
	native := len(args) > 0 && args[0] == "-native"
	if native {
		args = args[1:]
	}
	if neg || len(args) < 2 || len(args) > 3 || native && len(args) != 2 {
		ts.Fatalf("usage: mkclaude [-native] DIR VERSION [PROGRAM]")
	}
	if native {
		mkclaudeNative(ts, ts.MkAbs(args[0]), args[1])
		return
	}
	dir := ts.MkAbs(args[0])
	var stub string
	if len(args) == 3 {
		stub = args[2]
	} else {
		var err error
		stub, err = lookIn(ts.Getenv("PATH"), "claude")
		ts.Check(err)
	}
	pkg := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code")
	ts.Check(os.MkdirAll(pkg, 0o755))
	ts.Check(os.MkdirAll(filepath.Join(dir, "node_modules", ".bin"), 0o755))
	ts.Check(os.WriteFile(filepath.Join(pkg, "package.json"),
		[]byte(fmt.Sprintf(`{"name": "@anthropic-ai/claude-code", "version": %q, "bin": {"claude": "cli.js"}}`+"\n", args[1])), 0o644))
	ts.Check(os.WriteFile(filepath.Join(pkg, "cli.js"),
		[]byte(fmt.Sprintf("#!/bin/sh\nCLAUDE_STUB_VERSION=%s exec %s \"$@\"\n", args[1], stub)), 0o755))
	ts.Check(os.Symlink("../@anthropic-ai/claude-code/cli.js", filepath.Join(dir, "node_modules", ".bin", "claude")))
}

// mkclaudeNative is mkclaude -native.
func mkclaudeNative(ts *testscript.TestScript, dir, version string) {
	stub, err := lookIn(ts.Getenv("PATH"), "claude")
	ts.Check(err)
	pkg := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code")
	ts.Check(os.MkdirAll(filepath.Join(pkg, "bin"), 0o755))
	ts.Check(os.MkdirAll(filepath.Join(dir, "node_modules", ".bin"), 0o755))
	ts.Check(os.WriteFile(filepath.Join(pkg, "package.json"),
		[]byte(fmt.Sprintf(`{"name": "@anthropic-ai/claude-code", "version": %q, "bin": {"claude": "bin/claude"}}`+"\n", version)), 0o644))
	// Named claude: the test binary runs the command its name says.
	bin := filepath.Join(pkg, "bin", "claude")
	if err := os.Link(stub, bin); err != nil {
		data, err := os.ReadFile(stub)
		ts.Check(err)
		ts.Check(os.WriteFile(bin, data, 0o755))
	}
	ts.Check(os.Symlink("../@anthropic-ai/claude-code/bin/claude", filepath.Join(dir, "node_modules", ".bin", "claude")))
}

// lookIn finds an executable name in the directories of path.
func lookIn(path, name string) (string, error) {
	for _, d := range filepath.SplitList(path) {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found", name)
}

// readlink PATH TARGET: PATH is a symlink whose target is exactly TARGET.
func readlinkCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: readlink PATH TARGET")
	}
	got, err := os.Readlink(ts.MkAbs(args[0]))
	if neg {
		if err == nil && got == args[1] {
			ts.Fatalf("%s links to %s", args[0], got)
		}
		return
	}
	ts.Check(err)
	if got != args[1] {
		ts.Fatalf("%s links to %s, want %s", args[0], got, args[1])
	}
}

// issymlink PATH: PATH is a symlink.
func issymlink(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: issymlink PATH")
	}
	fi, err := os.Lstat(ts.MkAbs(args[0]))
	is := err == nil && fi.Mode()&fs.ModeSymlink != 0
	if is == neg {
		ts.Fatalf("issymlink %s: %v", args[0], is)
	}
}

// mode PATH MODE: PATH's permission bits are MODE (octal, e.g. 0600).
func modeCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: mode PATH MODE")
	}
	want, err := strconv.ParseUint(args[1], 8, 32)
	ts.Check(err)
	fi, err := os.Lstat(ts.MkAbs(args[0]))
	ts.Check(err)
	if got := fi.Mode().Perm(); (uint64(got) == want) == neg {
		ts.Fatalf("%s has mode %#o, want %s%s", args[0], got, map[bool]string{true: "not "}[neg], args[1])
	}
}

// clock NAME DURATION: $NAME is the Unix time DURATION (a Go duration such
// as 4h or -90m) from now, in seconds, and $NAME_UTC the same time in RFC
// 3339 (UTC), for figures that only hold relative to the clock, such as a
// rate-limit window's reset time, which the launcher believes only within
// the window's length from now. Write them into a file with subst.
func clock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: clock NAME DURATION")
	}
	d, err := time.ParseDuration(args[1])
	ts.Check(err)
	t := time.Now().Add(d).Truncate(time.Second).UTC()
	ts.Setenv(args[0], strconv.FormatInt(t.Unix(), 10))
	ts.Setenv(args[0]+"_UTC", t.Format(time.RFC3339))
}

// subst FILE...: each ${NAME} in FILE becomes the script's $NAME (a
// fixture written in the archive, with times from clock). Only the braced
// form: a bare $ is left as it is.
func subst(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: subst FILE...")
	}
	ref := regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)
	for _, f := range args {
		path := ts.MkAbs(f)
		data, err := os.ReadFile(path)
		ts.Check(err)
		data = ref.ReplaceAllFunc(data, func(m []byte) []byte {
			name := string(ref.FindSubmatch(m)[1])
			v := ts.Getenv(name)
			if v == "" {
				ts.Fatalf("subst %s: $%s is not set", f, name)
			}
			return []byte(v)
		})
		ts.Check(os.WriteFile(path, data, 0o644))
	}
}

// jsonpath FILE PATH WANT: the gjson PATH of FILE reads WANT (strings
// unquoted, anything else as raw JSON); WANT "<missing>" means no such value.
func jsonpath(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: jsonpath FILE PATH WANT")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	r := gjson.GetBytes(data, args[1])
	got := r.Raw
	switch {
	case !r.Exists():
		got = "<missing>"
	case r.Type == gjson.String:
		got = r.Str
	}
	if (got == args[2]) == neg {
		ts.Fatalf("%s %s = %s, want %s%s", args[0], args[1], got, map[bool]string{true: "not "}[neg], args[2])
	}
}

// waitfile PATH [REGEXP]: wait up to Patience for PATH to exist with
// content (matching REGEXP, multi-line mode, when given). The deadline is
// generous: a real Claude (a node program before 2.1.198) starts slowly on a
// loaded machine, and a passing wait ends as soon as the file is there.
func waitfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: waitfile PATH [REGEXP]")
	}
	re := regexp.MustCompile("(?m).")
	if len(args) == 2 {
		re = regexp.MustCompile("(?m)" + args[1])
	}
	for deadline := time.Now().Add(Patience); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(ts.MkAbs(args[0])); err == nil && re.Match(data) {
			return
		}
	}
	ts.Fatalf("%s did not appear (or match) within %s", args[0], Patience)
}

// ondone COMMAND [ARGS…]: run COMMAND when the script ends, passed or
// failed, before its background commands are waited for: the cleanup of what
// outlives a failed script (ondone tmux -S $SOCKDIR/tmux.sock kill-server).
func ondone(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: ondone COMMAND [ARGS…]")
	}
	dir := ts.MkAbs(".")
	ts.Defer(func() {
		c := exec.Command(args[0], args[1:]...)
		c.Dir = dir
		_ = c.Run()
	})
}

// suggested FILE: run, as a user pasting it would (sh -c, in the current
// directory), the first command quoted ('claude-account …') on the last line
// of FILE that quotes one. Its output is the command's; ! expects it to fail.
func suggested(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: suggested FILE")
	}
	var msg string
	for _, line := range strings.Split(ts.ReadFile(args[0]), "\n") {
		if strings.Contains(line, "'claude-account ") {
			msg = line
		}
	}
	cmd, ok := quotedCommand(msg)
	if !ok {
		ts.Fatalf("%s suggests no command: %s", args[0], msg)
	}
	ts.Logf("suggested: %s", cmd)
	err := ts.Exec("sh", "-c", cmd)
	if (err != nil) != neg {
		ts.Fatalf("%s: %v", cmd, err)
	}
}

// quotedCommand is the first 'claude-account …' of msg, without its
// quotes. The command may hold shell-quoted words itself (~/'my dir', and a
// quote in a path as an escaped \' between two quoted parts): a quote
// followed by a path character opens one, the next closes it, and the quote
// that ends the command is followed by the end of the line, a space or
// punctuation.
func quotedCommand(msg string) (string, bool) {
	start := strings.Index(msg, "'claude-account ")
	if start < 0 {
		return "", false
	}
	in := false
	for i := start + 1; i < len(msg); i++ {
		switch {
		case msg[i] != '\'' || msg[i-1] == '\\' && !in:
		case in:
			in = false
		case i+1 == len(msg) || strings.ContainsRune(" ),;.", rune(msg[i+1])):
			return msg[start+1 : i], true
		default:
			in = true
		}
	}
	return "", false
}

// sendsig SIGNAL PIDFILE [LINE]: send SIGNAL (INT, TERM, HUP, QUIT, WINCH,
// USR1, KILL) to the process whose PID is line LINE (default 1) of PIDFILE.
func sendsig(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: sendsig SIGNAL PIDFILE [LINE]")
	}
	line := 1
	if len(args) == 3 {
		var err error
		line, err = strconv.Atoi(args[2])
		ts.Check(err)
	}
	sigs := map[string]syscall.Signal{"INT": syscall.SIGINT, "TERM": syscall.SIGTERM, "HUP": syscall.SIGHUP,
		"QUIT": syscall.SIGQUIT, "WINCH": syscall.SIGWINCH, "USR1": syscall.SIGUSR1, "KILL": syscall.SIGKILL}
	sig, ok := sigs[args[0]]
	if !ok {
		ts.Fatalf("unknown signal %s", args[0])
	}
	data, err := os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	lines := strings.Split(string(data), "\n")
	if line < 1 || line > len(lines) {
		ts.Fatalf("%s has no line %d", args[1], line)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(lines[line-1]))
	ts.Check(err)
	ts.Check(syscall.Kill(pid, sig))
}

// snapshot DIR NAME records every entry under DIR (mode, size, mtime, inode,
// link target); unchanged DIR NAME fails if any of it differs now.
func snapshot(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: snapshot DIR NAME")
	}
	ts.Value(snapshotsKey).(*sync.Map).Store(args[1], tree(ts, args[0]))
}

func unchanged(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: unchanged DIR NAME")
	}
	old, ok := ts.Value(snapshotsKey).(*sync.Map).Load(args[1])
	if !ok {
		ts.Fatalf("no snapshot %s", args[1])
	}
	now := tree(ts, args[0])
	if (now == old.(string)) == neg {
		if neg {
			ts.Fatalf("%s is unchanged", args[0])
		}
		ts.Fatalf("%s changed:\nbefore:\n%s\nafter:\n%s", args[0], old, now)
	}
}

func tree(ts *testscript.TestScript, dir string) string {
	root := ts.MkAbs(dir)
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		st := fi.Sys().(*syscall.Stat_t)
		line := fmt.Sprintf("%s %v %d ino=%d mtime=%d", strings.TrimPrefix(p, root), fi.Mode(), fi.Size(), st.Ino, fi.ModTime().UnixNano())
		if fi.Mode()&fs.ModeSymlink != 0 {
			t, _ := os.Readlink(p)
			line += " -> " + t
		}
		if fi.IsDir() {
			line = fmt.Sprintf("%s %v ino=%d", strings.TrimPrefix(p, root), fi.Mode(), st.Ino)
		}
		lines = append(lines, line)
		return nil
	})
	ts.Check(err)
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// StubVersion is the release the stub claude says it is (--version) unless
// CLAUDE_STUB_VERSION says otherwise: the newest the launcher knows.
const StubVersion = "2.1.330"

// StubClaude stands in for Claude Code: it prints what it was started with.
// CLAUDE_STUB_VERSION (or, for mkclaude -native, its package) is the release
// it answers --version with.
// CLAUDE_STUB_EXIT=N makes it exit N. CLAUDE_STUB_READY=FILE makes it write
// "<launcher pid>\n<own pid>\n" to FILE and then wait for signals, printing
// each (also to FILE.log); INT, TERM, HUP and QUIT end it (exit 0, or death by
// that signal when CLAUDE_STUB_DIE=1), only TERM when CLAUDE_STUB_KEEP=1.
// CLAUDE_STUB_STDIN=1 echoes its stdin; CLAUDE_STUB_TOUCH=FILE writes FILE in
// its working directory, as Claude editing code would; CLAUDE_STUB_SH=SCRIPT
// runs SCRIPT with sh, as Claude changing its own files would.
//
// A leading --settings VALUE (the flag settings the launcher adds) is printed
// as settings=VALUE, apart from the arguments. CLAUDE_STUB_HOOKS="STEP …" runs
// the hooks of those settings as Claude runs them (sh -c COMMAND, the hook's
// JSON on stdin): each STEP is EVENT[:DETAIL][,EVENT…], DETAIL being the
// notification_type of a Notification, the source of a SessionStart or the
// name of a WorktreeCreate; the
// first step runs at start, each SIGUSR1 runs the next, and each step done is
// logged as "hooks=STEP" in FILE.log (with CLAUDE_STUB_READY=FILE).
// CLAUDE_STUB_HOOK_CWD sets the hooks' "cwd" (default: the stub's own),
// CLAUDE_STUB_SESSION_ID their "session_id".
func StubClaude() {
	if len(os.Args) == 2 && os.Args[1] == "--version" {
		// As Claude answers it: the launcher asks once per binary. A stub
		// in a package of its own (mkclaude -native) is that release.
		v := os.Getenv("CLAUDE_STUB_VERSION")
		if exe, err := os.Executable(); err == nil {
			if c := claudever.Identify(exe, "", nil); c.Known {
				v = c.Version.String()
			}
		}
		if v == "" {
			v = StubVersion
		}
		fmt.Printf("%s (Claude Code)\n", v)
		return
	}
	fmt.Printf("config=%s\n", os.Getenv("CLAUDE_CONFIG_DIR"))
	fmt.Printf("task=%s\n", os.Getenv("CLAUDE_CODE_TASK_LIST_ID"))
	fmt.Printf("account=%s\n", os.Getenv("CLAUDE_ACCOUNT"))
	// What a runtime shares with its account through the environment, when set.
	for _, v := range [][2]string{{"securestorage", "CLAUDE_SECURESTORAGE_CONFIG_DIR"}, {"memory", "CLAUDE_CODE_REMOTE_MEMORY_DIR"}, {"plugins", "CLAUDE_CODE_PLUGIN_CACHE_DIR"}} {
		if val, ok := os.LookupEnv(v[1]); ok && val != "" {
			fmt.Printf("%s=%s\n", v[0], val)
		}
	}
	if name := os.Getenv("CLAUDE_STUB_ENV"); name != "" {
		fmt.Printf("env %s=%s\n", name, os.Getenv(name))
	}
	args := os.Args[1:]
	var settings string
	if len(args) >= 2 && args[0] == "--settings" {
		settings, args = args[1], args[2:]
		fmt.Printf("settings=%s\n", settings)
	}
	for i, a := range args {
		fmt.Printf("arg%d=%q\n", i, a)
	}
	steps := strings.Fields(os.Getenv("CLAUDE_STUB_HOOKS"))
	runStep := func() {
		if len(steps) == 0 {
			return
		}
		step := steps[0]
		steps = steps[1:]
		for _, ev := range strings.Split(step, ",") {
			runHooks(settings, ev)
		}
		if ready := os.Getenv("CLAUDE_STUB_READY"); ready != "" {
			appendLine(ready+".log", "hooks="+step)
		}
	}
	runStep()
	if f := os.Getenv("CLAUDE_STUB_STATUS"); f != "" {
		runStatusLine(settings, f)
	}
	if f := os.Getenv("CLAUDE_STUB_TOUCH"); f != "" {
		_ = os.WriteFile(f, []byte("made by claude\n"), 0o644)
	}
	if script := os.Getenv("CLAUDE_STUB_SH"); script != "" {
		// What Claude itself does to its files during a session
		// ('claude mcp add', accepting the trust dialog), as a shell script
		// run with Claude's environment.
		c := exec.Command("sh", "-ec", script)
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		if err := c.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "CLAUDE_STUB_SH:", err)
			os.Exit(98)
		}
	}
	if os.Getenv("CLAUDE_STUB_STDIN") == "1" {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			fmt.Printf("stdin=%s\n", sc.Text())
		}
	}
	if ready := os.Getenv("CLAUDE_STUB_READY"); ready != "" {
		sigs := make(chan os.Signal, 8)
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGWINCH, syscall.SIGUSR1)
		if err := os.WriteFile(ready, []byte(fmt.Sprintf("%d\n%d\n", os.Getppid(), os.Getpid())), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(99)
		}
		for s := range sigs {
			sig := s.(syscall.Signal)
			fmt.Printf("signal=%s\n", strings.ToUpper(unix(sig)))
			appendLine(ready+".log", "signal="+strings.ToUpper(unix(sig)))
			if sig == syscall.SIGUSR1 {
				runStep()
			}
			if sig != syscall.SIGTERM && os.Getenv("CLAUDE_STUB_KEEP") == "1" {
				continue // like Claude, where one Ctrl-C only asks "press again to exit"
			}
			switch sig {
			case syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT:
				if os.Getenv("CLAUDE_STUB_DIE") == "1" {
					signal.Reset(sig)
					_ = syscall.Kill(os.Getpid(), sig)
					time.Sleep(time.Second)
				}
				os.Exit(0)
			}
		}
	}
	if code := os.Getenv("CLAUDE_STUB_EXIT"); code != "" {
		n, _ := strconv.Atoi(code)
		os.Exit(n)
	}
	os.Exit(0)
}

// runHooks runs the hooks that settings (flag settings JSON) register for
// one event, as Claude runs them: through sh, in Claude's directory, with the
// hook's JSON on stdin. A failing hook is reported on stderr, as Claude
// reports one, and does not stop the stub.
func runHooks(settings, event string) {
	name, detail, _ := strings.Cut(event, ":")
	cwd := os.Getenv("CLAUDE_STUB_HOOK_CWD")
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	id := os.Getenv("CLAUDE_STUB_SESSION_ID")
	if id == "" {
		id = "stub-session-0001"
	}
	in := map[string]any{"session_id": id, "transcript_path": "/dev/null", "cwd": cwd, "hook_event_name": name}
	switch name {
	case "Notification":
		in["notification_type"], in["message"] = detail, "Claude needs your attention"
	case "SessionStart":
		if detail == "" {
			detail = "startup"
		}
		in["source"] = detail
	case "UserPromptSubmit":
		in["prompt"] = "hi"
	case "WorktreeCreate":
		in["name"] = detail
	}
	data, _ := json.Marshal(in)
	for _, group := range gjson.Get(settings, "hooks."+gjson.Escape(name)).Array() {
		for _, h := range group.Get("hooks").Array() {
			c := exec.Command("sh", "-c", h.Get("command").String())
			c.Stdin = bytes.NewReader(data)
			c.Stdout, c.Stderr = os.Stderr, os.Stderr
			if err := c.Run(); err != nil {
				fmt.Fprintf(os.Stderr, "hook %s: %v\n", name, err)
			}
		}
	}
}

// runStatusLine runs the status line as Claude does after an answer: the
// flag settings' statusLine, else the config dir's settings.json one, through
// sh, with the status JSON in file (CLAUDE_STUB_STATUS; write it as the real
// one sends it) on stdin, and with the env of the project's settings
// (.claude/settings.json in its directory) added, as Claude 2.1.90 gives a
// trusted project's env to what it runs; it prints statusline=<its output,
// quoted> and statuspadding=<padding> when set.
func runStatusLine(settings, file string) {
	line := gjson.Get(settings, "statusLine")
	if !line.Exists() {
		data, _ := os.ReadFile(filepath.Join(os.Getenv("CLAUDE_CONFIG_DIR"), "settings.json"))
		line = gjson.GetBytes(data, "statusLine")
	}
	if !line.Exists() {
		fmt.Println("statusline=none")
		return
	}
	input, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "CLAUDE_STUB_STATUS:", err)
		os.Exit(97)
	}
	c := exec.Command("sh", "-c", line.Get("command").String())
	c.Stdin, c.Stderr = bytes.NewReader(input), os.Stderr
	project, _ := os.ReadFile(filepath.Join(".claude", "settings.json"))
	if env := gjson.GetBytes(project, "env"); env.IsObject() {
		c.Env = os.Environ()
		env.ForEach(func(k, v gjson.Result) bool {
			c.Env = append(c.Env, k.String()+"="+v.String())
			return true
		})
	}
	out, err := c.Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "statusline: %v\n", err)
	}
	fmt.Printf("statusline=%q\n", string(out))
	if p := line.Get("padding"); p.Exists() {
		fmt.Printf("statuspadding=%s\n", p.Raw)
	}
}

func appendLine(path, line string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		fmt.Fprintln(f, line)
		f.Close()
	}
}

func unix(sig syscall.Signal) string {
	names := map[syscall.Signal]string{syscall.SIGINT: "int", syscall.SIGTERM: "term", syscall.SIGHUP: "hup",
		syscall.SIGQUIT: "quit", syscall.SIGWINCH: "winch", syscall.SIGUSR1: "usr1"}
	return names[sig]
}

// BuildLauncher builds cmd/claude-account into the test's temp dir, for Go
// tests that run the real binary (go's build cache keeps this cheap).
func BuildLauncher(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "claude-account")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/claude-account/claude-account/cmd/claude-account").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// World is what the Go tests that run the real binary start from: a private
// HOME, XDG dirs, TMPDIR and git identity, the launcher built, and a stub
// claude (the given shell script) first on PATH.
type World struct {
	T    testing.TB
	Root string   // the test's temporary dir, symlinks resolved
	Bin  string   // claude-account
	Tmp  string   // the children's TMPDIR
	Env  []string // the children's environment
}

// NewWorld makes a World; extra entries (NAME=VALUE) are added to its Env.
func NewWorld(t testing.TB, stub string, extra ...string) *World {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &World{T: t, Root: root, Bin: BuildLauncher(t), Tmp: filepath.Join(root, "tmp")}
	stubDir := filepath.Join(root, "stubbin")
	gitconfig := filepath.Join(root, ".gitconfig")
	dirs := []string{
		"HOME=" + filepath.Join(root, "home"),
		"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg", "config"),
		"XDG_DATA_HOME=" + filepath.Join(root, "xdg", "data"),
		"XDG_STATE_HOME=" + filepath.Join(root, "xdg", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(root, "xdg", "cache"),
		"XDG_RUNTIME_DIR=" + filepath.Join(root, "xdg", "run"),
		"TMPDIR=" + w.Tmp,
	}
	for _, kv := range dirs {
		must(t, os.MkdirAll(strings.SplitN(kv, "=", 2)[1], 0o700))
	}
	must(t, os.MkdirAll(stubDir, 0o755))
	// The launcher asks a Claude of unknown origin its release once
	// (claudever): every stub answers as the newest Claude does.
	if first, rest, ok := strings.Cut(stub, "\n"); ok && strings.HasPrefix(first, "#!") {
		stub = first + "\n" + `if [ "$#" = 1 ] && [ "$1" = --version ]; then echo "` + StubVersion + ` (Claude Code)"; exit 0; fi` + "\n" + rest
	}
	must(t, os.WriteFile(filepath.Join(stubDir, "claude"), []byte(stub), 0o755))
	must(t, os.WriteFile(gitconfig, []byte("[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644))
	// Built from nothing but PATH: no inherited CLAUDE_*, ANTHROPIC_*, GIT_*
	// or XDG_* variable reaches the launcher or Claude.
	w.Env = append(append(dirs, "PATH="+stubDir+":"+os.Getenv("PATH"),
		"GIT_CONFIG_GLOBAL="+gitconfig, "GIT_CONFIG_NOSYSTEM=1"), extra...)
	return w
}

// Cmd is the launcher with args, run in dir with the World's environment.
func (w *World) Cmd(dir string, args ...string) *exec.Cmd {
	c := exec.Command(w.Bin, args...)
	c.Dir, c.Env = dir, w.Env
	return c
}

// OK runs the launcher and fails the test unless it exits 0.
func (w *World) OK(dir string, args ...string) string {
	w.T.Helper()
	out, err := w.Cmd(dir, args...).CombinedOutput()
	if err != nil {
		w.T.Fatalf("claude-account %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Git runs git in dir and fails the test unless it exits 0.
func (w *World) Git(dir string, args ...string) string {
	w.T.Helper()
	c := exec.Command("git", append([]string{"-C", dir}, args...)...)
	c.Env = w.Env
	out, err := c.CombinedOutput()
	if err != nil {
		w.T.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Repo makes a repository with one commit at Root/name.
func (w *World) Repo(name string) string {
	w.T.Helper()
	dir := filepath.Join(w.Root, name)
	must(w.T, os.MkdirAll(dir, 0o755))
	w.Git(dir, "init", "-q")
	must(w.T, os.WriteFile(filepath.Join(dir, "README"), []byte("hello\n"), 0o644))
	w.Git(dir, "add", "README")
	w.Git(dir, "commit", "-q", "-m", "init")
	return dir
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// archivedir VAR ACCOUNT_DIR GIT_COMMON_DIR NAME: sets VAR to the dir where
// worktree rm archives the account's transcripts of the worktree NAME of
// that repository (worktree.ArchiveDir: keyed by the repository's identity).
func archivedir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: archivedir VAR ACCOUNT_DIR GIT_COMMON_DIR NAME")
	}
	common, err := filepath.EvalSymlinks(ts.MkAbs(args[2]))
	ts.Check(err)
	ts.Setenv(args[0], worktree.ArchiveDir(ts.MkAbs(args[1]), common, args[3]))
}
