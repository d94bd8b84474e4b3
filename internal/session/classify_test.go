package session

import (
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/claudever"
)

// release is a binary of a known release of Claude Code.
func release(major, minor, patch int) claudever.Binary {
	return claudever.Binary{Known: true, Version: claudever.V(major, minor, patch)}
}

func TestClassify(t *testing.T) {
	// Each row was checked against the real Claude 2.0.77 and 2.1.330 where
	// the two agree (see the comments for the cases that need care); the
	// answers are 2.1.330's, which are also those for a release the launcher
	// could not read. TestClassifyByRelease has the rows that differ.
	for _, tc := range []struct {
		args    string
		session bool
		print   bool
		command string
	}{
		{"", true, false, ""},
		{"hello there", true, false, ""},
		{"-p hi", true, true, ""},
		{"--print --output-format json hi", true, true, ""},
		{"-p --model opus hi", true, true, ""},
		{"-c", true, false, ""},
		{"--resume", true, false, ""},
		{"--resume abc-123", true, false, ""},
		{"mcp list", false, false, "mcp"},
		{"mcp", false, false, "mcp"},
		{"--model x mcp list", false, false, "mcp"},
		{"--settings {} mcp list", false, false, "mcp"},
		{"--settings={} plugin list", false, false, "plugin"},
		{"plugins list", false, false, "plugins"},
		{"auth status", false, false, "auth"},
		{"doctor", false, false, "doctor"},
		{"update", false, false, "update"},
		{"upgrade", false, false, "upgrade"},
		{"--version", false, false, "--version"},
		{"-v", false, false, "-v"},
		{"-pv", false, false, "-v"},
		{"-p --version", false, false, "--version"},
		{"--help", false, false, "--help"},
		{"-h", false, false, "-h"},
		{"--model opus --help", false, false, "--help"},
		// A variadic option takes every word up to the next option: these
		// are directories, and the session has no prompt.
		{"-p --add-dir /tmp mcp list", true, true, ""},
		// -d takes an optional filter: "mcp" is it, "list" the prompt.
		{"-p -d mcp list", true, true, ""},
		{"-d --verbose mcp list", false, false, "mcp"},
		{"-dapi mcp list", false, false, "mcp"},
		// After --, the first word is still read as a command.
		{"-- mcp list", false, false, "mcp"},
		{"-- hello", true, false, ""},
		// A value that looks like a command is a value.
		{"--model mcp hi", true, false, ""},
		{"--append-system-prompt --help hi", true, false, ""},
		// remote-control starts an interactive session.
		{"remote-control", true, false, ""},
		// An option Claude may have that we do not know: a session, the safe guess.
		{"--no-such-option mcp list", true, false, ""},
		{"-x mcp", true, false, ""},
		{"-pc", true, true, ""},
		{"-w", true, false, ""},
		{"-w fix mcp", false, false, "mcp"},
		{"config list", true, false, ""},
	} {
		args := strings.Fields(tc.args)
		want := Invocation{Session: tc.session, Print: tc.print, Command: tc.command}
		for _, claude := range []claudever.Binary{release(2, 1, 330), {}} {
			if got := plain(Classify(args, claude)); got != want {
				t.Errorf("Classify(%q, %s) = %+v, want %+v", tc.args, claude.Describe(), got, want)
			}
		}
	}
}

// plain is an invocation without what TestClassifyFleet checks.
func plain(inv Invocation) Invocation {
	inv.Fleet, inv.Starts = false, false
	return inv
}

// measured are the releases Commands was measured on.
var measured = []claudever.Binary{
	release(2, 0, 77), release(2, 1, 15), release(2, 1, 16), release(2, 1, 37), release(2, 1, 38),
	release(2, 1, 41), release(2, 1, 42), release(2, 1, 62), release(2, 1, 63), release(2, 1, 90),
	release(2, 1, 143), release(2, 1, 144), release(2, 1, 197), release(2, 1, 330),
}

func TestClassifyByRelease(t *testing.T) {
	unknown := claudever.Binary{}
	// Rows that differ by release: a subcommand word is the prompt of a
	// session before the first release that has the command.
	for _, tc := range []struct {
		args    string
		claude  claudever.Binary
		session bool
		print   bool
		command string
	}{
		// 'claude auth status' on 2.0.77 asks the model "auth status".
		{"auth status", release(2, 0, 77), true, false, ""},
		{"auth status", release(2, 1, 38), true, false, ""},
		{"auth status", release(2, 1, 41), false, false, "auth"},
		{"auth status", release(2, 1, 330), false, false, "auth"},
		{"auth status", release(2, 2, 0), false, false, "auth"}, // newer than any measured
		// An unknown release keeps the command, as before releases were told apart.
		{"auth status", unknown, false, false, "auth"},
		{"--model opus auth status", release(2, 0, 77), true, false, ""},
		{"-p auth status", release(2, 0, 77), true, true, ""},
		{"-p auth status", release(2, 1, 41), false, false, "auth"},
		{"-- auth", release(2, 0, 77), true, false, ""},
		{"update", release(2, 0, 77), false, false, "update"},
		{"upgrade", release(2, 0, 77), true, false, ""},
		{"upgrade", release(2, 1, 16), true, false, ""},
		{"upgrade", release(2, 1, 37), false, false, "upgrade"},
		{"agents", release(2, 1, 42), true, false, ""},
		{"agents", release(2, 1, 62), false, false, "agents"},
		{"plugins list", release(2, 1, 63), true, false, ""},
		{"plugins list", release(2, 1, 90), false, false, "plugins"},
		{"plugin list", release(2, 1, 63), false, false, "plugin"},
		{"kill abc", release(2, 1, 90), true, false, ""},
		{"kill abc", release(2, 1, 143), false, false, "kill"},
		{"gateway", release(2, 1, 144), true, false, ""},
		{"gateway", release(2, 1, 197), false, false, "gateway"},
		{"purge", release(2, 1, 197), true, false, ""},
		{"purge", release(2, 1, 330), false, false, "purge"},
		// --version is a command on every release.
		{"--version", release(2, 0, 77), false, false, "--version"},
		// Commands left out of the table are sessions everywhere.
		{"remote-control", release(2, 1, 330), true, false, ""},
		// daemon is a command from 2.1.143, a prompt before.
		{"daemon status", release(2, 1, 90), true, false, ""},
		{"daemon status", release(2, 1, 143), false, false, "daemon"},
		{"daemon stop --any", release(2, 1, 330), false, false, "daemon"},
	} {
		args := strings.Fields(tc.args)
		want := Invocation{Session: tc.session, Print: tc.print, Command: tc.command}
		if got := plain(Classify(args, tc.claude)); got != want {
			t.Errorf("Classify(%q, %s) = %+v, want %+v", tc.args, tc.claude.Describe(), got, want)
		}
	}
	// The commands of the oldest supported release are commands on all.
	for _, word := range []string{"mcp", "plugin", "setup-token", "doctor", "update", "install"} {
		for _, claude := range append(measured, unknown) {
			if got := Classify([]string{word, "list"}, claude); got.Command != word {
				t.Errorf("Classify(%q, %s) = %+v, want the command", word+" list", claude.Describe(), got)
			}
		}
	}
}

// TestCommandsSince checks the table itself: each release in it is one it
// was measured on (the first at which the word was seen), and a release the
// launcher could not read has every command.
func TestCommandsSince(t *testing.T) {
	for word, since := range Commands {
		seen := false
		for _, claude := range measured {
			seen = seen || claude.Version == since
		}
		if !seen {
			t.Errorf("Commands[%q] = %s, not a release it was measured on", word, since)
		}
		if !IsCommand(word, claudever.Binary{}) {
			t.Errorf("IsCommand(%q, unknown) = false, want true", word)
		}
	}
}

func FuzzClassify(f *testing.F) {
	for _, s := range []string{"-p hi", "mcp list", "--add-dir a b mcp", "-dapi -- mcp", "-pv", "--settings={} x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Split(s, " ")
		old, inv := Classify(args, release(2, 0, 77)), Classify(args, claudever.Binary{})
		for _, inv := range []Invocation{old, inv} {
			if inv.Session == (inv.Command != "") {
				t.Fatalf("Classify(%q) = %+v: a session has no command, a command is no session", s, inv)
			}
			if inv.Print && !inv.Session {
				t.Fatalf("Classify(%q) = %+v: print without a session", s, inv)
			}
		}
		// A release only adds commands: what is one on the oldest is one on
		// every release.
		if !old.Session && old != inv {
			t.Fatalf("Classify(%q) = %+v on 2.0.77 but %+v on an unknown release", s, old, inv)
		}
	})
}
