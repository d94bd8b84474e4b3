package testenv

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

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

// endsas [-n N] WANT CMD [ARGS...]: runs CMD (N times, default once) and
// checks how it ended, strictly, every time: WANT is a signal name (SEGV,
// TERM…: killed by that signal) or a number (that exit status). A signal death
// must leave no Go runtime output on stderr.
func endsas(ts *testscript.TestScript, neg bool, args []string) {
	n := 1
	if len(args) > 2 && args[0] == "-n" {
		var err error
		if n, err = strconv.Atoi(args[1]); err != nil {
			ts.Fatalf("endsas -n %s: %v", args[1], err)
		}
		args = args[2:]
	}
	if neg || len(args) < 2 {
		ts.Fatalf("usage: endsas [-n N] SIGNAL|STATUS CMD [ARGS...]")
	}
	for i := 0; i < n; i++ {
		endsOnce(ts, args)
	}
}

func endsOnce(ts *testscript.TestScript, args []string) {
	err := ts.Exec(args[1], args[2:]...)
	var got string
	var ee *exec.ExitError
	switch {
	case err == nil:
		got = "0"
	case errors.As(err, &ee):
		ws, _ := ee.Sys().(syscall.WaitStatus)
		if ws.Signaled() {
			got = signalNames[ws.Signal()]
			if got == "" {
				got = "signal " + strconv.Itoa(int(ws.Signal()))
			}
		} else {
			got = strconv.Itoa(ws.ExitStatus())
		}
	default:
		ts.Fatalf("%s: %v", args[1], err)
	}
	if got != args[0] {
		ts.Fatalf("%s ended with %s, want %s", args[1], got, args[0])
	}
	if _, err := strconv.Atoi(got); err != nil {
		if out := ts.ReadFile("stderr"); strings.Contains(out, "goroutine ") || strings.Contains(out, "runtime.") || strings.Contains(out, "[signal ") {
			ts.Fatalf("%s left Go runtime output:\n%s", args[1], out)
		}
	}
}

var signalNames = map[syscall.Signal]string{syscall.SIGHUP: "HUP", syscall.SIGINT: "INT", syscall.SIGQUIT: "QUIT",
	syscall.SIGILL: "ILL", syscall.SIGABRT: "ABRT", syscall.SIGBUS: "BUS", syscall.SIGFPE: "FPE", syscall.SIGKILL: "KILL",
	syscall.SIGUSR1: "USR1", syscall.SIGSEGV: "SEGV", syscall.SIGUSR2: "USR2", syscall.SIGPIPE: "PIPE",
	syscall.SIGALRM: "ALRM", syscall.SIGTERM: "TERM"}

// waitgone DIR: wait up to Patience until no process works in DIR: none has
// DIR, or a directory under it, for its current directory (/proc/PID/cwd).
// A Claude that 'claude stop' or close stopped, and that ps or agents --json
// no longer list, can still be running its exit handlers there, and the
// launcher's checks of a worktree (claudeproc.In) still see it. The script's
// own directory does not count: testscript runs commands in it but never
// moves the test process there. Without /proc (not Linux) nothing is found.
//
// It replaces the scripts' waitgone.sh, which forked readlink for every
// process on the machine five times a second.
func waitgone(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitgone DIR")
	}
	dir := ts.MkAbs(args[0])
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	for deadline := time.Now().Add(Patience); ; time.Sleep(200 * time.Millisecond) {
		pid := busyIn(dir)
		if pid == 0 {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("PID %d still works in %s after %s", pid, args[0], Patience)
		}
	}
}

// busyIn returns the PID of a process whose current directory is dir or
// under it, or 0 when there is none (or no /proc to read). Processes whose
// cwd cannot be read (another user's, a zombie's) do not count.
func busyIn(dir string) int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cwd, err := os.Readlink("/proc/" + e.Name() + "/cwd")
		if err == nil && (cwd == dir || strings.HasPrefix(cwd, dir+"/")) {
			return pid
		}
	}
	return 0
}
