package doctor

import (
	"testing"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
)

func TestLoginCommand(t *testing.T) {
	max := &account.Account{Name: "max", Dir: "/home/u/.claude-max"}
	elsewhere := &account.Account{Name: "max", Dir: "/srv/my accounts/max"}
	known := func(v claudever.Version) claudever.Binary { return claudever.Binary{Version: v, Known: true} }
	for _, tc := range []struct {
		a        *account.Account
		claude   claudever.Binary
		launcher string
		want     string
	}{
		{max, known(claudever.V(2, 1, 332)), "claudemax", "'claudemax auth login'"},
		{max, known(claudever.V(2, 1, 41)), "", "'claude-account run --account max -- auth login'"},
		{max, known(claudever.V(2, 1, 38)), "claudemax", "'claudemax /login'"},
		{max, known(claudever.V(2, 0, 77)), "", "'claude-account run --account max -- /login'"},
		{elsewhere, known(claudever.V(2, 1, 90)), "", `'claude-account run --account max --account-dir '/srv/my accounts/max' -- auth login'`},
		{max, claudever.Binary{}, "claudemax", "'claudemax auth login' (before Claude Code 2.1.41: 'claudemax /login')"},
	} {
		if got := LoginCommand(tc.a, tc.claude, tc.launcher); got != tc.want {
			t.Errorf("LoginCommand(%s, %v, %q) = %s, want %s", tc.a.Dir, tc.claude.Version, tc.launcher, got, tc.want)
		}
	}
}
