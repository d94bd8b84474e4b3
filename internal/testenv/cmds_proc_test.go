package testenv

import "testing"

func TestQuotedCommand(t *testing.T) {
	for msg, want := range map[string]string{
		"claude (max) already runs in ~/src/app as PID 4; 'claude-account close --account max ~/src/app' stops it": "claude-account close --account max ~/src/app",
		"stop it first ('claude-account close --account max '/tmp/my dir'')":                                       "claude-account close --account max '/tmp/my dir'",
		"; did you mean \"max\"? run 'claude-account bind max ~/'a b'' (or 'claude-account init mx')":              "claude-account bind max ~/'a b'",
		`run 'claude-account trust '/x/it'\''s/.mcp.json''`:                                                        `claude-account trust '/x/it'\''s/.mcp.json'`,
		"run 'claude-account init mx'": "claude-account init mx",
		"no suggestion here":           "",
	} {
		got, ok := quotedCommand(msg)
		if got != want || ok != (want != "") {
			t.Errorf("quotedCommand(%q) = %q, %v; want %q", msg, got, ok, want)
		}
	}
}
