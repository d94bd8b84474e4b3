package generate

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/claude-account/claude-account/internal/account"
)

// accountKeys lists the keys account.toml takes, read from account.Config's
// toml tags: "worktree.dir" for a key of the [worktree] table.
func accountKeys(t reflect.Type, prefix string) []string {
	var keys []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "" || name == "-" {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct {
			keys = append(keys, accountKeys(ft, prefix+name+".")...)
			continue
		}
		keys = append(keys, prefix+name)
	}
	return keys
}

// tomlValue is the value at a dotted key of a generated account.toml, as
// fmt prints it; "<absent>" when the file has no such key.
func tomlValue(t *testing.T, data []byte, key string) string {
	t.Helper()
	var m map[string]any
	if _, err := toml.Decode(string(data), &m); err != nil {
		t.Fatalf("generated account.toml does not parse: %v\n%s", err, data)
	}
	var v any = m
	for _, part := range strings.Split(key, ".") {
		table, ok := v.(map[string]any)
		if !ok {
			return "<absent>"
		}
		if v, ok = table[part]; !ok {
			return "<absent>"
		}
	}
	return fmt.Sprint(v)
}

// TestEveryAccountKeyHasASpecField: every key account.toml takes is written
// by generate from a spec field, so the Nix module (whose options make the
// spec) can set it. A key added to account.Config fails here until a spec
// field writes it (nix/lib/spec.nix, spec.go, specfields.go, AccountTOML) or
// it is listed, with the reason, among the keys that reach the account
// another way. nix/tests/module.nix checks the other half: every spec field
// has an account option.
func TestEveryAccountKeyHasASpecField(t *testing.T) {
	notFromSpec := map[string]string{
		"declared": "generate's own value, the layer-2 link to layer 1",
		"statusline": "the module's statusLine option declares settings.json's statusLine, naming " +
			"the package's store path, which each switch keeps current",
	}
	// For each key: a spec that sets it, and the value account.toml then holds.
	fromSpec := map[string]struct{ spec, want string }{
		"name":                  {`{"name":"other"}`, "other"},
		"claude":                {`{"claude":"/c/bin/claude"}`, "/c/bin/claude"},
		"settings_mode":         {`{"settingsMode":"link"}`, "link"},
		"coalesce_keys":         {`{"coalesceKeys":["mcpServers","theme"]}`, "[mcpServers theme]"},
		"single_instance":       {`{"singleInstance":false}`, "false"},
		"project_mcp":           {`{"projectMcp":"never"}`, "never"},
		"usage":                 {`{"usage":false}`, "false"},
		"notify":                {`{"notify":true}`, "true"},
		"worktree.dir":          {`{"worktree":{"dir":"wt"}}`, "wt"},
		"worktree.symlink_dirs": {`{"worktree":{"symlinkDirectories":["node_modules"]}}`, "[node_modules]"},
		"worktree.sparse_paths": {`{"worktree":{"sparsePaths":["src"]}}`, "[src]"},
		"worktree.use_hooks":    {`{"worktree":{"useHooks":true}}`, "true"},
		"identity.email":        {`{"identity":{"email":"me@example.com"}}`, "me@example.com"},
		"identity.organization": {`{"identity":{"organization":"Acme"}}`, "Acme"},
	}
	base, err := ParseSpec([]byte(`{"name":"max"}`), "/spec.json")
	if err != nil {
		t.Fatal(err)
	}
	baseTOML := AccountTOML(base)
	keys := accountKeys(reflect.TypeFor[account.Config](), "")
	sort.Strings(keys)
	for _, key := range keys {
		if _, ok := notFromSpec[key]; ok {
			continue
		}
		row, ok := fromSpec[key]
		if !ok {
			t.Errorf("account.toml takes %q, but no spec field writes it: add one (nix/lib/spec.nix, "+
				"internal/generate spec.go, specfields.go, AccountTOML) with its account option, and a row here", key)
			continue
		}
		spec := row.spec
		if !strings.Contains(spec, `"name"`) {
			spec = `{"name":"max",` + spec[1:]
		}
		s, err := ParseSpec([]byte(spec), "/spec.json")
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		data := AccountTOML(s)
		if got := tomlValue(t, data, key); got != row.want {
			t.Errorf("%s from %s: account.toml has %s, want %s\n%s", key, spec, got, row.want, data)
		}
		if tomlValue(t, baseTOML, key) == row.want {
			t.Errorf("%s: a spec without the field writes %s too; pick a value other than the default", key, row.want)
		}
		if _, err := account.Parse(data, "account.toml"); err != nil {
			t.Errorf("%s: the launcher refuses what generate wrote: %v", key, err)
		}
	}
	for key := range fromSpec {
		if !contains(keys, key) {
			t.Errorf("row %q: account.toml has no such key; remove the row", key)
		}
	}
	for key := range notFromSpec {
		if !contains(keys, key) {
			t.Errorf("notFromSpec %q: account.toml has no such key; remove it", key)
		}
	}
}
