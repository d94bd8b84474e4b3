package configdir

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/claude-account/claude-account/internal/account"
)

func TestCapabilities(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "from"), filepath.Join(dir, "to")
	for path, body := range map[string]string{
		"from/.mcp.json":        `{"mcpServers":{"github":{},"db":{}}}`,
		"from/settings.json":    `{"enabledPlugins":{"lint@x":true,"off@x":false,"fmt@x":true}}`,
		"to/declared/.mcp.json": `{"mcpServers":{"db":{}}}`,
		"to/settings.json":      `{"enabledPlugins":{"fmt@x":true}}`,
	} {
		p := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := &account.Account{Name: "a", Dir: from}
	b := &account.Account{Name: "b", Dir: to, Config: account.Config{Declared: "declared"}}
	if got, want := CapabilitiesOf(a), (Capabilities{Servers: []string{"db", "github"}, Plugins: []string{"fmt@x", "lint@x"}}); !reflect.DeepEqual(got, want) {
		t.Errorf("CapabilitiesOf = %+v, want %+v", got, want)
	}
	if got, want := HandoffGaps(a, b).String(), "MCP servers github and plugins lint@x"; got != want {
		t.Errorf("HandoffGaps = %q, want %q", got, want)
	}
	if got := HandoffGaps(b, a).String(); got != "" {
		t.Errorf("HandoffGaps the other way = %q, want none", got)
	}
}
