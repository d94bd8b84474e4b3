package testenv

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
