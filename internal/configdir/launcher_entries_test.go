package configdir

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/coalesce"
)

func TestLauncherCommand(t *testing.T) {
	for cmd, want := range map[string]bool{
		`'/root/.cache/go-build/3f/exe/claude-account' statusline`:                  true,
		`'/nix/store/x-claude-account/bin/claudemax' statusline`:                    true,
		`'/odd/it'\''s/claude-account' statusline`:                                  true,
		`'/bin/claude-account' statusline --no-git`:                                 true,
		`claude-account statusline`:                                                 false, // the user's own, by name
		`'relative/claude-account' statusline`:                                      false,
		`'/bin/other' statusline`:                                                   false,
		`'/bin/claude-account' statuslines`:                                         false,
		`'/bin/claude-account statusline`:                                           false,
		`'/x/claude-account' hook worktree-create --account max --account-dir '/a'`: false, // not the verb asked
	} {
		if got := launcherCommand(cmd, "statusline"); got != want {
			t.Errorf("launcherCommand(%s) = %v, want %v", cmd, got, want)
		}
	}
	if !launcherCommand(`'/x/claude-account' hook worktree-create --account max`, "hook worktree-create") {
		t.Error("the worktree-create hook an earlier launcher wrote is not recognised")
	}
}

// FuzzWithoutLauncherEntries: whatever the settings, only the launcher's own
// entries go, every other top-level key stays, and the result is JSON.
func FuzzWithoutLauncherEntries(f *testing.F) {
	f.Add([]byte(`{"statusLine":{"type":"command","command":"'/x/claude-account' statusline"},"model":"a"}`))
	f.Add([]byte(`{"hooks":{"WorktreeCreate":[{"hooks":[{"type":"command","command":"'/x/claude-account' hook worktree-create --account m"}]}],"Stop":[]}}`))
	f.Add([]byte(`{"hooks":{"WorktreeRemove":[{"hooks":[{"command":"'/x/claude-account' hook worktree-remove"},{"command":"mine"}]}]}}`))
	f.Add([]byte(`{"hooks":[]}`))
	f.Add([]byte(`{"hooks":{"WorktreeCreate":"x"}}`))
	f.Add([]byte(` `))
	f.Fuzz(func(t *testing.T, in []byte) {
		if coalesce.Validate(in) != nil {
			return
		}
		out, removed, err := withoutLauncherEntries(in)
		if err != nil {
			return
		}
		if removed == "" && string(out) != string(in) {
			t.Fatalf("nothing removed but changed:\n%s\n%s", in, out)
		}
		if coalesce.Validate(out) != nil {
			t.Fatalf("not JSON any more:\n%s\n%s", in, out)
		}
		before, _ := coalesce.TopLevelKeys(in)
		after, _ := coalesce.TopLevelKeys(out)
		for _, k := range before {
			if k != "statusLine" && k != "hooks" && !slices.Contains(after, k) {
				t.Fatalf("key %q lost:\n%s\n%s", k, in, out)
			}
		}
		if removed != "" && strings.Contains(removed, "status line") {
			var v map[string]json.RawMessage
			_ = json.Unmarshal(out, &v)
			if _, ok := v["statusLine"]; ok && strings.Count(string(in), `"statusLine"`) == 1 {
				t.Fatalf("status line still there:\n%s", out)
			}
		}
	})
}
