package cli

import "testing"

func TestLauncherAccount(t *testing.T) {
	for prog, want := range map[string]string{
		"claudemax":           "max",
		"claude-work":         "work",
		"claude-max-work":     "max-work",
		"claude":              "",
		"claude-":             "",
		"claude-account":      "",
		"claude-account.test": "",
		"claudeaccount":       "account",
		"other":               "",
	} {
		got, ok := launcherAccount(prog)
		if got != want || ok != (want != "") {
			t.Errorf("launcherAccount(%q) = %q, %v; want %q", prog, got, ok, want)
		}
	}
}
