// Package notify shows a desktop notification when a session starts to wait
// for its user: notify-send (libnotify) where it is on PATH, osascript on
// macOS, nothing where neither is. The state hook runs it inside Claude's
// hook, so it starts the notifier and never waits for it.
package notify

import (
	"os/exec"
	"strings"
	"syscall"

	"github.com/claude-account/claude-account/internal/out"
)

// Command is the argv that shows a notification of title and body (its
// lines) on the system goos, nil where there is no notifier (lookPath finds
// programs on PATH, as exec.LookPath). The title and each line are made
// inert whole, newlines too: they name worktrees and paths, which a
// repository chooses, and only the caller knows where its own lines end.
func Command(goos string, lookPath func(string) (string, error), title string, body ...string) []string {
	title = out.Inert(title)
	lines := make([]string, len(body))
	for i, l := range body {
		lines[i] = out.Inert(l)
	}
	text := strings.Join(lines, "\n")
	if goos == "darwin" {
		p, err := lookPath("osascript")
		if err != nil {
			return nil
		}
		// One argument, never a shell: only the string literals need quoting.
		// macOS 14 and 15 post it as Script Editor's and drop it until
		// Script Editor may notify (README-CLAUDE-CODE.md, notify, says
		// what to allow): nothing here can tell it was dropped.
		return []string{p, "-e", "display notification " + AppleString(text) + " with title " + AppleString(title)}
	}
	p, err := lookPath("notify-send")
	if err != nil {
		return nil
	}
	// Notification servers read the body as markup (the body-markup
	// capability): a branch named "<b>" stays text. The summary is plain
	// text by the specification. Title and body start with our own words,
	// never with '-', so notify-send takes neither for an option.
	return []string{p, "--app-name=claude-account", title, markupEscape(text)}
}

// AppleString is s as an AppleScript string literal: in double quotes, with
// backslash and double quote escaped.
func AppleString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func markupEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// Start runs argv detached and does not wait for it: in a session of its
// own, with stdin, stdout and stderr on /dev/null, so that neither a hung
// notifier nor one holding the hook's output pipe open (Claude reads it to
// its end) keeps the hook from returning. The notifier is left to init.
func Start(argv []string) error {
	c := exec.Command(argv[0], argv[1:]...)
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		return err
	}
	return c.Process.Release()
}
