package configdir

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
)

// Plugins: which plugins of the account's skills/ the launcher passes and
// which no session loads, per release. "hello" is declared (in the declared
// layer and linked into skills/), "mine" only in skills/, "half" has no
// manifest and is no plugin.
func TestPlugins(t *testing.T) {
	dir := t.TempDir()
	layer := filepath.Join(dir, "layer")
	acct := filepath.Join(dir, "acct")
	for _, f := range []string{
		filepath.Join(layer, "skills/hello/.claude-plugin/plugin.json"),
		filepath.Join(acct, "skills/mine/.claude-plugin/plugin.json"),
	} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(`{"name":"x"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(acct, "skills/half/.claude-plugin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(layer, "skills/hello"), filepath.Join(acct, "skills/hello")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(layer, filepath.Join(acct, "declared")); err != nil {
		t.Fatal(err)
	}
	a := &account.Account{Name: "max", Dir: acct, Config: account.Config{Declared: "declared"}}
	hello := filepath.Join(acct, "skills", "hello")
	for _, c := range []struct {
		claude claudever.Binary
		want   PluginLoad
	}{
		{claudever.Binary{}, PluginLoad{}},
		{claudever.Binary{Known: true, Version: claudever.V(2, 0, 76)}, PluginLoad{NotLoaded: []string{"hello", "mine"}}},
		{claudever.Binary{Known: true, Version: claudever.V(2, 0, 77)}, PluginLoad{Dirs: []string{hello}, NotLoaded: []string{"mine"}}},
		{claudever.Binary{Known: true, Version: claudever.V(2, 1, 156)}, PluginLoad{Dirs: []string{hello}, NotLoaded: []string{"mine"}}},
		{claudever.Binary{Known: true, Version: claudever.V(2, 1, 157)}, PluginLoad{}},
	} {
		if got := Plugins(a, c.claude); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Plugins(%v) = %+v, want %+v", c.claude.Version, got, c.want)
		}
	}
}
