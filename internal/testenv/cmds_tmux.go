package testenv

import (
	"errors"
	"io/fs"
	"net"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// killtmux SOCKET: end the tmux server at SOCKET and wait until it is gone.
// It is a teardown, not a check, so a server already gone is not a failure:
// its last session can end first (on a loaded machine a Ctrl-C meant for
// Claude reaches the shell after Claude has exited, and the session's shell
// ends), and tmux then says "no server running", or "server exited
// unexpectedly" when the server exits while kill-server talks to it
// (real-claude-init-from failed so once). Waiting until the socket no longer
// answers lets a script start a new server there at once. It fails only when
// the server still answers after Patience or the socket cannot be reached at
// all (a path over 108 bytes: keep sockets in $SOCKDIR).
func killtmux(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: killtmux SOCKET")
	}
	sock := ts.MkAbs(args[0])
	// Its error says nothing the wait below does not: a server gone
	// before or during kill-server is the case tolerated here.
	killErr := ts.Exec("tmux", "-S", sock, "kill-server")
	for deadline := time.Now().Add(Patience); ; time.Sleep(20 * time.Millisecond) {
		gone, err := tmuxGone(sock)
		switch {
		case err != nil:
			ts.Fatalf("tmux server at %s: %v (kill-server: %v)", sock, err, killErr)
		case gone:
			return
		case time.Now().After(deadline):
			ts.Fatalf("the tmux server at %s still answers %s after kill-server (%v)", sock, Patience, killErr)
		}
	}
}

// tmuxGone reports whether no server listens at the Unix socket sock: the
// socket refuses connections (a server that exited leaves it behind) or is
// not there at all. Any other error (the path too long) is returned.
func tmuxGone(sock string) (bool, error) {
	c, err := net.Dial("unix", sock)
	switch {
	case err == nil:
		_ = c.Close()
		return false, nil
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, fs.ErrNotExist):
		return true, nil
	}
	return false, err
}
