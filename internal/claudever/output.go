package claudever

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
	"unicode/utf8"
)

// versionTimeout bounds one `claude --version`: a node-based Claude on a
// loaded machine takes seconds; a failure is never an answer (askVersion).
const versionTimeout = 20 * time.Second

// ParseVersionOutput reads what `claude --version` printed: the line that
// says "(Claude Code)", as every release prints it ("2.0.77 (Claude Code)",
// "2.1.90 (Claude Code)", "2.1.331 (Claude Code)", measured). A line before
// it is not the release: a version manager's wrapper prints its own first
// ("Now using node v20.20.2 (npm v10.8.2)"). The word before "(Claude Code)"
// must be the release itself (a pre-release suffix allowed: "2.1.198-beta.1");
// no such line, or two that disagree, is no answer.
func ParseVersionOutput(out string) (Version, bool) {
	var found Version
	ok := false
	for _, line := range strings.Split(out, "\n") {
		before, after, has := strings.Cut(line, "(Claude Code)")
		if !has || strings.TrimSpace(after) != "" {
			continue
		}
		v, good := parseRelease(strings.TrimSpace(before))
		if !good {
			continue
		}
		if ok && v != found {
			return Version{}, false
		}
		found, ok = v, true
	}
	return found, ok
}

// parseRelease reads a word that is exactly a release: X.Y.Z, optionally
// followed by a pre-release or build suffix ("-beta.1", "+abc").
func parseRelease(word string) (Version, bool) {
	v, ok := Parse(word)
	if !ok {
		return Version{}, false
	}
	rest, ok := strings.CutPrefix(word, v.String())
	if !ok {
		return Version{}, false // "02.1.90": not as Claude prints it
	}
	if rest == "" {
		return v, true
	}
	if rest[0] != '-' && rest[0] != '+' || len(rest) == 1 {
		return Version{}, false
	}
	for _, c := range rest[1:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return Version{}, false
		}
	}
	return v, true
}

// StartError says that Claude could not start at all: its --version did not
// run (a wrapper's target is gone: exit 127; an interpreter is missing).
type StartError struct{ Msg string }

func (e *StartError) Error() string { return e.Msg }

// askVersion runs `claude --version` once. Its failure is returned, never
// remembered: a timeout on a loaded machine says nothing of the release.
// Exit statuses 126 and 127 (the shell could not run the command a wrapper
// names) and a failure to start at all are a *StartError.
func askVersion(path string, env []string) (Version, error) {
	ctx, cancel := context.WithTimeout(context.Background(), versionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.Env = env
	// Never in the repository: a version manager's shim (asdf, mise) picks
	// the release from files up the directory tree, so the answer, cached
	// for every repository, would be the first repository's to give.
	cmd.Dir = "/"
	var out, errOut bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &limited{w: &errOut, n: 4096}
	err := cmd.Run()
	q := "'" + path + " --version'"
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return Version{}, fmt.Errorf("%s did not answer within %s", q, versionTimeout)
	case errors.As(err, &exit) && (exit.ExitCode() == 126 || exit.ExitCode() == 127):
		return Version{}, &StartError{fmt.Sprintf("%s exited with status %d%s: it cannot start", q, exit.ExitCode(), firstLine(errOut.String()))}
	case errors.As(err, &exit):
		return Version{}, fmt.Errorf("%s failed: %v%s", q, err, firstLine(errOut.String()))
	case err != nil:
		return Version{}, &StartError{fmt.Sprintf("%s could not start: %v", q, err)}
	}
	v, ok := ParseVersionOutput(out.String())
	if !ok {
		return Version{}, fmt.Errorf("%s did not print a Claude Code version (a line \"X.Y.Z (Claude Code)\")", q)
	}
	return v, nil
}

// maxLine is how many characters of the first line a failing Claude printed
// a message quotes.
const maxLine = 200

// firstLine is ` (first line of s)`, shortened, or "" when s is blank.
//
// A shell's own complaint names paths around the cause ("/home/u/bin/claude:
// 2: exec: /home/u/gone/claude: not found"), and the cause is what the
// message is for: a long line is shortened path by path (shortPath), never by
// cutting its end, which a long TMPDIR or HOME would push the cause past
// (macOS's TMPDIR is about 50 characters). Only a line still too long after
// that (a wrapper's own output, not a path in it) loses its middle.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	line = strings.TrimSpace(line)
	if line == "" {
		return ""
	}
	if utf8.RuneCountInString(line) > maxLine {
		words := strings.Split(line, " ")
		for i, w := range words {
			words[i] = shortPath(w)
		}
		line = strings.Join(words, " ")
	}
	if r := []rune(line); len(r) > maxLine {
		line = string(r[:maxLine/2]) + "…" + string(r[len(r)-maxLine/2:])
	}
	// What a wrapper printed reaches a terminal: no control sequences.
	line = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return '?'
		}
		return r
	}, line)
	return " (" + line + ")"
}

// shortPath shortens a word that holds a path of more than two elements to
// what comes before the path (a quote), "…" and its last two elements with
// what follows them ("'/a/b/c/bin/claude':" becomes "'…/bin/claude':"): which
// program it was is in those; where it lives the message says elsewhere. Any
// other word is returned as it is.
func shortPath(w string) string {
	first, last := strings.Index(w, "/"), strings.LastIndex(w, "/")
	if first < 0 {
		return w
	}
	cut := strings.LastIndex(w[:last], "/")
	if cut <= first {
		return w
	}
	return w[:first] + "…" + w[cut:]
}

// limited keeps the first n bytes written to it and drops the rest.
type limited struct {
	w io.Writer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		_, _ = l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}
