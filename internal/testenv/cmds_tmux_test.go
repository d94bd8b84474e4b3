package testenv

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTmuxGone: killtmux's "is the server gone" reads a socket nobody
// listens on, or no socket, as gone, and a path too long as an error.
func TestTmuxGone(t *testing.T) {
	dir, err := socketDir()
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "s")
	if gone, err := tmuxGone(sock); !gone || err != nil {
		t.Errorf("no socket: gone %v, %v", gone, err)
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	// Go removes the socket file on Close; a tmux server that exits leaves
	// it behind, refusing connections: keep it, as tmux does.
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	if gone, err := tmuxGone(sock); gone || err != nil {
		t.Errorf("listening: gone %v, %v", gone, err)
	}
	ln.Close()
	if _, err := os.Stat(sock); err != nil {
		t.Fatal(err)
	}
	if gone, err := tmuxGone(sock); !gone || err != nil {
		t.Errorf("left behind: gone %v, %v", gone, err)
	}
	if gone, err := tmuxGone(filepath.Join(dir, strings.Repeat("x", 120))); gone || err == nil {
		t.Errorf("a path over 108 bytes: gone %v, %v", gone, err)
	}
}

// TestInputBox: the box is what lies between the last two rules, a banner's
// framed lines are not rules, and a pane without two rules has no box.
func TestInputBox(t *testing.T) {
	rule := strings.Repeat("─", 40)
	pane := strings.Join([]string{
		"╭─── Claude Code v2.0.77 ───╮",
		"│ ───────────────────────── │",
		"╰" + rule + "╯",
		"> hi",
		rule,
		"❯ hi",
		"  hi",
		rule,
		"  max · main · Sonnet 4.5",
	}, "\n")
	if box, ok := inputBox(pane); !ok || box != "❯ hi\n  hi" {
		t.Errorf("inputBox = %q, %v", box, ok)
	}
	if box, ok := inputBox("Do you trust the files in this folder?\n" + rule + "\n❯ 1. Yes"); ok {
		t.Errorf("a dialog: inputBox = %q, %v", box, ok)
	}
}

// TestQuitter: tmuxquit types /exit only into a box on screen (cleared
// first), and again only after 10 s without it; presses Enter only once the
// box shows it, every 5 s; and Esc on a dialog shown for 2 s, every 3 s,
// typing nothing within 2 s of it.
func TestQuitter(t *testing.T) {
	rule := strings.Repeat("─", 40)
	box := func(text string) string {
		return strings.Join([]string{"> hi", "stub reply", rule, "❯ " + text, rule, "  ? for shortcuts"}, "\n")
	}
	limit := "Stop and wait for limit to reset\n  Upgrade your plan\nEnter to confirm · Esc to cancel"
	footer := "\n  Continuing automatically at 2:33am · Esc to cancel"
	t0 := time.Unix(1000, 0)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	var q quitter
	steps := []struct {
		when float64
		pane string
		want string
	}{
		// a dialog: Esc once it has shown for 2 s, not again within 3 s,
		// no typing under it
		{0, limit, ""},
		{1.9, limit, ""},
		{2, limit, "Escape"},
		{3, limit, ""},
		{5, "Select IDE\n❯ 1. Stand", "Escape"},
		// gone: nothing typed within 2 s of the Esc
		{5.5, box(""), ""},
		{6.9, box(""), ""},
		// no box (Claude still drawing): nothing
		{7, "Claude Code v2.0.77", ""},
		// text in the box (a placeholder with /exit in it, 2.1.90's
		// "/login" put back): Ctrl-U first, /exit a second later, no Enter
		{8, box(`Try "/exit"`), "C-u"},
		{8.5, box(`Try "/exit"`), ""},
		{9, box(`Try "/exit"`), "-l /exit"},
		{9.5, box(""), ""},
		// shown: Enter, again only after 5 s
		{10, box("/exit"), "Enter"},
		{12, box("/exit"), ""},
		{15, box("/exit"), "Enter"},
		// gone from the box without Claude exiting (a newline taken, the
		// text lost): typed again 10 s after the last Enter, at once in an
		// empty box
		{16, box(""), ""},
		{24.9, box(""), ""},
		{25, box(""), "-l /exit"},
		{26, box(""), ""},
		// part of it arrived: cleared, typed again
		{35, box("/ex"), "C-u"},
		{35.5, box(""), ""},
		{36, box(""), "-l /exit"},
		// a login screen's "Esc to cancel": Esc after 2 s
		{37, "Login successful\nEsc to cancel", ""},
		{39, "Login successful\nEsc to cancel", "Escape"},
		{39.5, "Login successful\nEsc to cancel", ""},
		{45, box(""), ""},
		// "Esc to cancel" beside the box (2.1.332's automatic continue):
		// /exit into the box, Enter while the box shows it, not Esc; Esc
		// after 2 s while the box is empty
		{50, box("") + footer, "-l /exit"},
		{50.5, box("/exit") + footer, "Enter"},
		{53, box("/exit") + footer, ""},
		{54, box("") + footer, "Escape"},
		{55, box("") + footer, ""},
		{56, box(""), ""},
	}
	for _, s := range steps {
		got := strings.Join(q.next(s.pane, at(s.when)), " ")
		if got != s.want {
			t.Errorf("at %v s on %q: keys %q, want %q", s.when, s.pane, got, s.want)
		}
	}
}

// TestStarter: tmuxstart sends Up only once the pane changed since the last
// Up or 3 s passed, Enter only once Yes held 2 s, and Enter on the same
// dialog again only after 10 s; it is done at the prompt.
func TestStarter(t *testing.T) {
	trust := func(cursor int) string {
		l := []string{"Do you trust the files in this folder?", "  1. Yes, proceed", "  2. No, exit", "Enter to confirm · Esc to exit"}
		l[cursor] = "❯" + l[cursor][1:]
		return strings.Join(l, "\n")
	}
	key := func(cursor int) string {
		l := []string{"Detected a custom API key in your environment", "Do you want to use this API key?", "  1. Yes", "  2. No (recommended)"}
		l[cursor+1] = "❯" + l[cursor+1][1:]
		return strings.Join(l, "\n")
	}
	rule := strings.Repeat("─", 40)
	prompt := strings.Join([]string{rule, "❯ ", rule, "  ? for shortcuts"}, "\n")
	t0 := time.Unix(1000, 0)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	var st starter
	steps := []struct {
		when  float64
		pane  string
		want  string
		ready bool
	}{
		{0, "Claude Code", "", false},
		// on No: Up; the same pane again: nothing until 3 s
		{1, trust(2), "Up", false},
		{1.5, trust(2), "", false},
		{3.9, trust(2), "", false},
		{4, trust(2), "Up", false},
		// on Yes: Enter only once it held 2 s
		{4.5, trust(1), "", false},
		{6, trust(1), "", false},
		// an Up in flight wrapped it back: Up at once (the pane changed)
		{6.2, trust(2), "Up", false},
		{6.5, trust(1), "", false},
		{8, trust(1), "", false},
		{8.5, trust(1), "Enter", false},
		// still there: Enter again only after 10 s
		{9, trust(1), "", false},
		{18, trust(1), "", false},
		{18.5, trust(1), "Enter", false},
		// the next dialog: its own 2 s on Yes, not the trust's 10 s
		{19, key(2), "Up", false},
		{19.5, key(1), "", false},
		{21.5, key(1), "Enter", false},
		{22, key(1), "", false},
		{23, prompt, "", true},
	}
	for _, s := range steps {
		keys, ready := st.next(s.pane, at(s.when))
		if got := strings.Join(keys, " "); got != s.want || ready != s.ready {
			t.Errorf("at %v s on %q: keys %q ready %v, want %q %v", s.when, s.pane, got, ready, s.want, s.ready)
		}
	}
	if _, ready := (&starter{}).next("Claude Code v2.1.332\n  Loading…", t0); ready {
		t.Errorf("ready before the prompt")
	}
}

// TestStarterOneTrustDialog: 2.1.90's trust dialog matched by its first line
// and then, its top hidden by a redraw, by "trust this folder" is still one
// dialog: no second Enter within 10 s.
func TestStarterOneTrustDialog(t *testing.T) {
	full := "Quick safety check: Is this a project you created or one you trust?\n❯ 1. Yes, I trust this folder\n  2. No, exit"
	cut := "❯ 1. Yes, I trust this folder\n  2. No, exit"
	t0 := time.Unix(1000, 0)
	var st starter
	if keys, _ := st.next(full, t0); keys != nil {
		t.Fatalf("keys %q at once, want none before 2 s on Yes", keys)
	}
	if keys, _ := st.next(full, t0.Add(2*time.Second)); strings.Join(keys, " ") != "Enter" {
		t.Fatalf("keys %q after 2 s on Yes, want Enter", keys)
	}
	for _, s := range []float64{2.5, 4.5, 6, 11.9} {
		if keys, _ := st.next(cut, t0.Add(time.Duration(s*float64(time.Second)))); keys != nil {
			t.Errorf("at %v s, the same dialog redrawn: keys %q, want none until 10 s after the Enter", s, keys)
		}
	}
}
