package testenv

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"regexp"
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

// tmuxAt runs tmux on the server at the socket sock and returns what it
// printed: the one way the tmux commands here reach tmux.
func tmuxAt(sock string, args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-S", sock}, args...)...).Output()
	return string(out), err
}

// mustTmux is tmuxAt for a step the script cannot go on without.
func mustTmux(ts *testscript.TestScript, sock string, args ...string) string {
	out, err := tmuxAt(sock, args...)
	if err != nil {
		ts.Fatalf("tmux %s: %v", strings.Join(args, " "), err)
	}
	return out
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
	tmux := func(a ...string) string { return mustTmux(ts, sock, a...) }
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

// tmuxquit SOCKET SESSION DONEFILE: end Claude in the tmux SESSION with
// /exit, typed as tmuxsay types a prompt, until DONEFILE (the file the
// session's shell writes once the launcher has exited) exists and is not
// empty, up to Patience.
//
// /exit goes only into an input box on screen (a dialog or a login screen
// has gone first), Enter only once the box shows it and again every 5 s
// while it still does (an Enter read in one burst with the text is a
// newline), and /exit is typed again after 10 s without it (keys sent
// before Claude reads its input are lost); text already in the box is
// cleared first (Ctrl-U, a second before). While a dialog is open (the
// rate-limit options 2.0.77 and 2.1.90 open a moment after a refusal, /ide's
// list, a screen that says "Esc to cancel") it presses Esc, once the dialog
// has shown for 2 s (an Esc the script sent just before may still be on its
// way) and then at most every 3 s, and types only where the box shows
// beside it, and not within 2 s of an Esc: an Esc read in one burst with the
// text makes its first key a Meta key (2.1.90 got "xit" so). No Ctrl-C: with
// text in the box the first only clears it, and the second only arms "press
// again to exit".
func tmuxquit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: tmuxquit SOCKET SESSION DONEFILE")
	}
	sock, session, done := ts.MkAbs(args[0]), args[1], ts.MkAbs(args[2])
	written := func() bool {
		fi, err := os.Stat(done)
		return err == nil && fi.Size() > 0
	}
	var q quitter
	var sent []string // the keys sent, with when, for a failure's log
	pane := ""
	for deadline := time.Now().Add(Patience); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if written() {
			return
		}
		out, err := tmuxAt(sock, "capture-pane", "-p", "-t", session)
		if err != nil {
			if written() {
				return
			}
			ts.Fatalf("tmux capture-pane -t %s: %v", session, err)
		}
		pane = out
		if keys := q.next(pane, time.Now()); keys != nil {
			sent = append(sent, time.Now().Format("15:04:05.0 ")+strings.Join(keys, " "))
			if _, err := tmuxAt(sock, append([]string{"send-keys", "-t", session}, keys...)...); err != nil && !written() {
				ts.Fatalf("tmux send-keys -t %s %s: %v", session, strings.Join(keys, " "), err)
			}
		}
	}
	if written() {
		return
	}
	ts.Logf("%s\nkeys sent: %s", pane, strings.Join(sent, ", "))
	ts.Fatalf("Claude in tmux session %s did not take /exit in %s (%s is still empty)", session, Patience, args[2])
}

// quitDialog is what a dialog tmuxquit closes with Esc shows: "Esc to
// cancel" (a login screen; 2.0.77's and 2.1.90's rate-limit options, whose
// first option is "Stop and wait for limit to reset"; 2.1.332's "Continuing
// automatically at … · Esc to cancel" under the box after a refusal), and
// /ide's list of IDEs.
var quitDialog = regexp.MustCompile(`Esc to cancel|Stop and wait for limit to reset|Select IDE|Connect to an IDE`)

// quitter is tmuxquit's decision: since when a dialog shows, and when it
// last typed /exit, pressed Enter, pressed Esc and cleared the box.
type quitter struct {
	dialog, typed, entered, esc, cleared time.Time
}

// next returns the send-keys arguments for a captured pane at now, or nil
// to send nothing this time.
func (q *quitter) next(pane string, now time.Time) []string {
	box, visible := inputBox(pane)
	dialog := quitDialog.MatchString(pane)
	switch {
	case !dialog:
		q.dialog = time.Time{}
	case q.dialog.IsZero():
		q.dialog = now
	}
	switch {
	// The box got the keys, so it has the focus: Enter is its.
	case visible && !q.typed.IsZero() && strings.Contains(box, "/exit"):
		if now.Sub(q.entered) >= 5*time.Second {
			q.entered = now
			return []string{"Enter"}
		}
	case dialog && now.Sub(q.dialog) >= 2*time.Second && now.Sub(q.esc) >= 3*time.Second:
		q.esc = now
		return []string{"Escape"}
	// A dialog over the box: wait for the Esc. Beside it (2.1.332's
	// "Continuing automatically … · Esc to cancel" under the box), type.
	case dialog && !visible:
	case visible && now.Sub(q.esc) >= 2*time.Second && now.Sub(q.typed) >= 10*time.Second && now.Sub(q.entered) >= 10*time.Second:
		// Text left in the box first goes with Ctrl-U, in a burst of its
		// own (2.1.90 can put "/login" back once its login screen closes,
		// and "/login/exit" is a prompt).
		if boxText(box) != "" && !q.cleared.After(q.typed) {
			q.cleared = now
			return []string{"C-u"}
		}
		if now.Sub(q.cleared) >= time.Second {
			q.typed = now
			return []string{"-l", "/exit"}
		}
	}
	return nil
}

// boxText is what the input box holds without its prompt mark and blanks.
func boxText(box string) string {
	return strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(box), "❯>"))
}

// tmuxstart SOCKET SESSION: answer the dialogs a first start of Claude in
// the tmux SESSION may show (trust this folder, use this API key) with Yes
// and wait until Claude's prompt shows, up to Patience.
//
// The keys are paced (2.1.330 and 2.1.332 open the trust dialog with the
// cursor on "No, exit", and its two options wrap both ways, measured on
// 2.1.332, so an Up still in flight when the cursor shows on Yes moves it
// back, and Enter then quits Claude): one Up only once the pane has
// changed since the last Up or 3 s have passed; Enter only once the cursor
// has stayed on Yes for 2 s; Enter again on the same dialog only after 10 s,
// so that a slow machine's next screen does not get this one's.
func tmuxstart(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: tmuxstart SOCKET SESSION")
	}
	sock, session := ts.MkAbs(args[0]), args[1]
	tmux := func(a ...string) string { return mustTmux(ts, sock, a...) }
	var s starter
	var sent []string // the keys sent, with when, for a failure's log
	pane := ""
	for deadline := time.Now().Add(Patience); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		pane = tmux("capture-pane", "-p", "-t", session)
		keys, ready := s.next(pane, time.Now())
		if ready {
			return
		}
		if keys != nil {
			sent = append(sent, time.Now().Format("15:04:05.0 ")+strings.Join(keys, " "))
			tmux(append([]string{"send-keys", "-t", session}, keys...)...)
		}
	}
	ts.Logf("%s\nkeys sent: %s", pane, strings.Join(sent, ", "))
	ts.Fatalf("Claude in tmux session %s never showed its prompt in %s", session, Patience)
}

var (
	// startDialog is a question a first start asks, answered Yes. The trust
	// dialog's first line too: at load 10, 2.1.90 drew it over its welcome
	// box, its options unreadable until an Up redrew them.
	startDialog = regexp.MustCompile(`trust this folder|trust the files in this folder|Do you want to use this API key|Quick safety check`)
	// startYes is the dialog's cursor on Yes (numbered on some releases).
	startYes = regexp.MustCompile(`❯ (1\. )?Yes`)
	// startPrompt is Claude's prompt as each release draws it.
	startPrompt = regexp.MustCompile(`(?m)shift\+tab|\? for shortcuts|^❯[^[:alnum:]]*$`)
)

// starter is tmuxstart's decision: the dialog on screen, since when its
// cursor is on Yes, the last Up (when, the pane it was sent on, and whether
// the pane has shown anything else since) and the last Enter (when, and on
// which dialog).
type starter struct {
	dialog    string
	yes       time.Time
	up        time.Time
	upPane    string
	moved     bool
	entered   time.Time
	enteredOn string
}

// next returns the send-keys arguments for a captured pane at now (nil:
// none this time), and whether Claude's prompt shows, with no dialog.
// dialogKind names a start dialog by what it asks, not by the text that
// matched first: the trust dialog shows both "Quick safety check" and
// "trust this folder", and a redraw that hid one must not make it a new
// dialog (whose Enter would come without the 10 s wait).
func dialogKind(match string) string {
	switch {
	case match == "":
		return ""
	case strings.Contains(match, "API key"):
		return "api key"
	}
	return "trust"
}

func (s *starter) next(pane string, now time.Time) ([]string, bool) {
	d := dialogKind(startDialog.FindString(pane))
	if d == "" {
		s.dialog, s.yes = "", time.Time{}
		return nil, startPrompt.MatchString(pane)
	}
	if d != s.dialog {
		s.dialog, s.yes = d, time.Time{}
	}
	if pane != s.upPane {
		s.moved = true
	}
	if !startYes.MatchString(pane) {
		s.yes = time.Time{}
		if s.moved || now.Sub(s.up) >= 3*time.Second {
			s.up, s.upPane, s.moved = now, pane, false
			return []string{"Up"}, false
		}
		return nil, false
	}
	if s.yes.IsZero() {
		s.yes = now
	}
	// An Enter on another dialog was that dialog's: it has gone.
	if now.Sub(s.yes) >= 2*time.Second && (d != s.enteredOn || now.Sub(s.entered) >= 10*time.Second) {
		s.entered, s.enteredOn = now, d
		return []string{"Enter"}, false
	}
	return nil, false
}
