package session

import (
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	// Each row was checked against the real Claude 2.0.77 and 2.1.330 where
	// the two agree (see the comments for the cases that need care).
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
		got := Classify(args)
		want := Invocation{Session: tc.session, Print: tc.print, Command: tc.command}
		if got != want {
			t.Errorf("Classify(%q) = %+v, want %+v", tc.args, got, want)
		}
	}
}

func FuzzClassify(f *testing.F) {
	for _, s := range []string{"-p hi", "mcp list", "--add-dir a b mcp", "-dapi -- mcp", "-pv", "--settings={} x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Split(s, " ")
		inv := Classify(args)
		if inv.Session == (inv.Command != "") {
			t.Fatalf("Classify(%q) = %+v: a session has no command, a command is no session", s, inv)
		}
		if inv.Print && !inv.Session {
			t.Fatalf("Classify(%q) = %+v: print without a session", s, inv)
		}
	})
}
