package cli

import (
	"testing"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/env"
)

// TestSharedLoginLine: doctor's and status's login line on macOS says how
// Claude keeps the login (README-CLAUDE-CODE.md, macOS, quotes these), and
// on Linux stays as it was: the path is the login there.
func TestSharedLoginLine(t *testing.T) {
	d := &Deps{Env: env.Env{"HOME": "/Users/u"}}
	a := &account.Account{Name: "max", Dir: "/Users/u/.claude-max"}
	l := configdir.Layout{ConfigDir: "/Users/u/src/app/.git/claude-runtime/max", IsRuntime: true}
	for _, c := range []struct {
		os, version, want string
	}{
		{"darwin", "2.1.330", "~/.claude-max ($CLAUDE_SECURESTORAGE_CONFIG_DIR); keychain item keyed by the account dir"},
		{"darwin", "2.1.90", "not shared on this version: needs Claude Code ≥ 2.1.144 (Claude keeps the login in a keychain item named by the config dir: log in once in each worktree)"},
		{"linux", "2.1.330", "~/.claude-max ($CLAUDE_SECURESTORAGE_CONFIG_DIR)"},
		{"linux", "2.1.90", "~/.claude-max/.credentials.json (link)"},
	} {
		v, _ := claudever.Parse(c.version)
		bin := claudever.Binary{Path: "/usr/local/bin/claude", Version: v, Known: true, OS: c.os}
		got := ""
		for _, s := range configdir.SharedState(a, l, d.Env, bin) {
			if s.Name == "login" {
				got = sharedWhere(d, s)
			}
		}
		if got != c.want {
			t.Errorf("%s %s: shared login: %s\nwant %s", c.os, c.version, got, c.want)
		}
	}
}
