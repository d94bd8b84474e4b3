package testenv

import (
	"errors"
	"io/fs"
	"net"
	"os/exec"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

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

// tmuxsay SOCKET SESSION TEXT: type TEXT into Claude's input box in the tmux
// SESSION and press Enter until the box no longer holds it (sent, or a dialog
// took the box's place), up to Patience.
//
// The keys are never sent together: on a loaded machine a Claude that reads
// "hi" and Enter in one read takes them for a paste and the Enter for a
// newline (2.0.77 in CI stop 47: "❯ hi / hi / hi", never sent, a loop that
// typed again and pressed Enter every second). So Enter goes only once the
// box shows TEXT, at most every 5 s, and TEXT is typed again only when the
// box has not shown it for 10 s (keys sent before Claude reads its input are
// lost).
func tmuxsay(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: tmuxsay SOCKET SESSION TEXT")
	}
	sock, session, text := ts.MkAbs(args[0]), args[1], args[2]
	tmux := func(a ...string) string {
		out, err := exec.Command("tmux", append([]string{"-S", sock}, a...)...).Output()
		if err != nil {
			ts.Fatalf("tmux %s: %v", strings.Join(a, " "), err)
		}
		return string(out)
	}
	var typed, entered time.Time
	shown := false
	pane := ""
	for deadline := time.Now().Add(Patience); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		pane = tmux("capture-pane", "-p", "-t", session)
		box, visible := inputBox(pane)
		// Only once typed: a placeholder can hold TEXT already ("hi" is
		// in "this"), and Enter on an empty box sends nothing.
		holds := visible && !typed.IsZero() && strings.Contains(box, text)
		switch {
		case holds:
			shown = true
			if time.Since(entered) >= 5*time.Second {
				tmux("send-keys", "-t", session, "Enter")
				entered = time.Now()
			}
		case shown:
			return
		case visible && time.Since(typed) >= 10*time.Second:
			tmux("send-keys", "-t", session, "-l", text)
			typed = time.Now()
		}
	}
	ts.Logf("%s", pane)
	ts.Fatalf("Claude in tmux session %s never took %q in %s", session, text, Patience)
}

// inputBox returns what Claude's input box holds in a captured pane: the
// lines between the last two rules (lines of ─ only), the prompt mark
// included, and whether the pane shows the box at all (a dialog hides it).
func inputBox(pane string) (string, bool) {
	lines := strings.Split(pane, "\n")
	var rules []int
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if utf8.RuneCountInString(l) >= 20 && strings.Trim(l, "─") == "" {
			rules = append(rules, i)
		}
	}
	if len(rules) < 2 {
		return "", false
	}
	top, bottom := rules[len(rules)-2], rules[len(rules)-1]
	return strings.Join(lines[top+1:bottom], "\n"), true
}
