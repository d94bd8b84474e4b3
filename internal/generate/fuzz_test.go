package generate

import (
	"errors"
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/account"
)

// FuzzParseSpec: any input gives either a spec whose account.toml the
// launcher's loader accepts with the same values, or one single-line
// *SpecError.
func FuzzParseSpec(f *testing.F) {
	for _, seed := range []string{
		`{"name":"max"}`,
		`{"name":"max","claude":"/nix/store/x/bin/claude","settingsMode":"link","coalesceKeys":["a\"b","c\\d"],` +
			`"worktree":{"dir":"wt","symlinkDirectories":["n m"],"sparsePaths":["ü\t"],"useHooks":true}}`,
		`{"name":"max","commands":{"a/b":{"text":"x"}},"skills":{"s":{"source":"rel"}}}`,
		`{"name":"max","a\nb":1}`,
		`{"name":"max","worktree":{"x\ny":1}}`,
		`{"name":"Max"}`,
		`{"name":"max","identity":{"email":"a@b","organization":"Acme"}}`,
		`{"name":"max","identity":{"email":"a b"}}`,
		`{"name":"max","usage":false}`,
		`{"name":"max","usage":null,"notify":true}`,
		`[`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		spec, err := ParseSpec(data, "/spec.json")
		if err != nil {
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("error is %T, not *SpecError: %v", err, err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error spans lines: %q", err)
			}
			return
		}
		cfg, err := account.Parse(AccountTOML(spec), "account.toml")
		if err != nil {
			t.Fatalf("account.Parse rejects generated account.toml: %v\n%s", err, AccountTOML(spec))
		}
		if cfg.Name != spec.Name || cfg.Claude != spec.Claude || cfg.SettingsMode != spec.SettingsMode ||
			cfg.ProjectMCP != spec.ProjectMCP || strings.Join(cfg.CoalesceKeys, "\x00") != strings.Join(spec.CoalesceKeys, "\x00") ||
			cfg.Worktree.Dir != spec.Worktree.Dir ||
			strings.Join(cfg.Worktree.SymlinkDirs, "\x00") != strings.Join(spec.Worktree.SymlinkDirectories, "\x00") ||
			strings.Join(cfg.Worktree.SparsePaths, "\x00") != strings.Join(spec.Worktree.SparsePaths, "\x00") ||
			cfg.Worktree.UseHooks != spec.Worktree.UseHooks || cfg.SingleInstance == nil || *cfg.SingleInstance != spec.SingleInstance ||
			cfg.Notify != spec.Notify || (cfg.Usage == nil) != (spec.Usage == nil) ||
			cfg.Usage != nil && *cfg.Usage != *spec.Usage || (cfg.Identity == nil) != (spec.Identity == nil) ||
			cfg.Identity != nil && *cfg.Identity != *spec.Identity {
			t.Fatalf("round trip differs:\nspec %+v\ntoml %+v", spec, cfg)
		}
	})
}
