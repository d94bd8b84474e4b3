package configdir

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/ledger"
)

// Capabilities are the MCP servers and the enabled plugins of an account,
// by name, sorted.
type Capabilities struct {
	Servers, Plugins []string
}

// CapabilitiesOf reads the capabilities of account a: its MCP servers
// (declared, and those Claude added, from the ledger) and its enabled
// plugins. Declared ones are read where the account declares them
// (DeclaredDir: under Nix, the dir home-manager links to the store),
// plugins also from the account's settings.json, where Claude records those
// it installs. What cannot be read counts as none.
func CapabilitiesOf(a *account.Account) Capabilities {
	var c Capabilities
	seen := map[string]bool{}
	add := func(list *[]string, name string) {
		if !seen[name] {
			seen[name] = true
			*list = append(*list, name)
		}
	}
	if data, err := fsx.ReadFile(filepath.Join(a.DeclaredDir(), ".mcp.json")); err == nil {
		gjson.GetBytes(data, "mcpServers").ForEach(func(k, _ gjson.Result) bool {
			add(&c.Servers, k.String())
			return true
		})
	}
	if l, err := ledger.Read(ledger.Path(a.Dir)); err == nil && l != nil {
		for name := range l.Added {
			add(&c.Servers, name)
		}
	}
	seen = map[string]bool{}
	for _, dir := range []string{a.DeclaredDir(), a.Dir} {
		data, err := fsx.ReadFile(filepath.Join(dir, "settings.json"))
		if err != nil {
			continue
		}
		gjson.GetBytes(data, "enabledPlugins").ForEach(func(k, v gjson.Result) bool {
			if v.Bool() {
				add(&c.Plugins, k.String())
			}
			return true
		})
	}
	sort.Strings(c.Servers)
	sort.Strings(c.Plugins)
	return c
}

// HandoffGaps are the capabilities account from has and account to lacks:
// what a conversation handed from one to the other may have used and will
// not find.
func HandoffGaps(from, to *account.Account) Capabilities {
	return CapabilitiesOf(from).Without(CapabilitiesOf(to))
}

// Without is c less what other has.
func (c Capabilities) Without(other Capabilities) Capabilities {
	lacking := func(have, others []string) []string {
		var out []string
		for _, h := range have {
			if !slices.Contains(others, h) {
				out = append(out, h)
			}
		}
		return out
	}
	return Capabilities{Servers: lacking(c.Servers, other.Servers), Plugins: lacking(c.Plugins, other.Plugins)}
}

// String names the capabilities in a few words ("MCP servers a, b and
// plugins c"); "" for none.
func (c Capabilities) String() string {
	var parts []string
	if s := strings.Join(c.Servers, ", "); s != "" {
		parts = append(parts, "MCP servers "+s)
	}
	if s := strings.Join(c.Plugins, ", "); s != "" {
		parts = append(parts, "plugins "+s)
	}
	return strings.Join(parts, " and ")
}
