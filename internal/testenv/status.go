package testenv

import (
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

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
