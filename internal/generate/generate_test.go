package generate

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/account"
)

// tree lists every entry below root as "rel mode" plus, for files, the
// content, and checks the epoch timestamps on the way.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if !fi.ModTime().Equal(epoch) {
			t.Errorf("%s: mtime %v, want %v", rel, fi.ModTime(), epoch)
		}
		entry := fi.Mode().String()
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			entry += " " + string(data)
		}
		got[filepath.ToSlash(rel)] = entry
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// outDir is a fresh directory name whose read-only result is removable.
func outDir(t *testing.T) string {
	t.Helper()
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	t.Cleanup(func() {
		_ = filepath.WalkDir(parent, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(p, 0o755)
			}
			return nil
		})
	})
	return out
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func diffTrees(t *testing.T, got, want map[string]string) {
	t.Helper()
	keys := map[string]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		g, gok := got[k]
		w, wok := want[k]
		switch {
		case !gok:
			t.Errorf("%s: missing, want %q", k, w)
		case !wok:
			t.Errorf("%s: unexpected %q", k, g)
		case g != w:
			t.Errorf("%s:\n got %q\nwant %q", k, g, w)
		}
	}
}

func TestRunEveryOption(t *testing.T) {
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "review.md"), "Review the diff.\n", 0o644)
	writeFile(t, filepath.Join(src, "memory.md"), "# Memory\n", 0o644)
	writeFile(t, filepath.Join(src, "skill-file.md"), "---\nname: single\n---\n", 0o644)
	writeFile(t, filepath.Join(src, "pdf/SKILL.md"), "---\nname: pdf\n---\n", 0o644)
	writeFile(t, filepath.Join(src, "pdf/scripts/extract.sh"), "#!/bin/sh\n", 0o755)
	writeFile(t, filepath.Join(src, "shared.txt"), "shared\n", 0o644)
	if err := os.Symlink("../../shared.txt", filepath.Join(src, "pdf/scripts/shared.txt")); err != nil {
		t.Fatal(err)
	}
	spec := `{
  "name": "max",
  "claude": "/nix/store/aaaa-claude-code/bin/claude",
  "settings": {"theme": "dark", "model": "opus", "permissions": {"deny": ["WebFetch"], "allow": ["Edit"]}, "n": 1.50, "big": 12345678901234567890, "html": "<a&b>"},
  "settingsMode": "link",
  "mcpServers": {"github": {"type": "http", "url": "https://x/mcp"}, "fs": {"command": "npx", "args": ["-y", "fs"]}},
  "commands": {"git/worktree-create": {"text": "Create a worktree.\n"}, "review": {"source": "` + src + `/review.md"}},
  "agents": {"code-reviewer": {"text": "---\nname: code-reviewer\n---\n"}},
  "skills": {"inline": {"text": "inline skill\n"}, "single": {"source": "` + src + `/skill-file.md"}, "pdf": {"source": "` + src + `/pdf"}},
  "memory": {"source": "` + src + `/memory.md"},
  "coalesceKeys": ["mcpServers", "theme"],
  "singleInstance": false,
  "notify": true,
  "usage": false,
  "identity": {"email": "me@example.com", "organization": null},
  "projectMcp": "never",
  "worktree": {"dir": "wt", "symlinkDirectories": ["node_modules", "web/.venv"], "sparsePaths": ["src", "docs"], "useHooks": true}
}`
	specFile := filepath.Join(t.TempDir(), "spec.json")
	writeFile(t, specFile, spec, 0o644)
	out := outDir(t)
	if err := Run(specFile, out); err != nil {
		t.Fatal(err)
	}
	dir, file, exe := "dr-xr-xr-x", "-r--r--r-- ", "-r-xr-xr-x "
	want := map[string]string{
		".":                               dir,
		"settings.json":                   file + "{\n  \"big\": 12345678901234567890,\n  \"html\": \"<a&b>\",\n  \"model\": \"opus\",\n  \"n\": 1.50,\n  \"permissions\": {\n    \"allow\": [\n      \"Edit\"\n    ],\n    \"deny\": [\n      \"WebFetch\"\n    ]\n  },\n  \"theme\": \"dark\"\n}\n",
		".mcp.json":                       file + "{\n  \"mcpServers\": {\n    \"fs\": {\n      \"args\": [\n        \"-y\",\n        \"fs\"\n      ],\n      \"command\": \"npx\"\n    },\n    \"github\": {\n      \"type\": \"http\",\n      \"url\": \"https://x/mcp\"\n    }\n  }\n}\n",
		"commands":                        dir,
		"commands/git":                    dir,
		"commands/git/worktree-create.md": file + "Create a worktree.\n",
		"commands/review.md":              file + "Review the diff.\n",
		"agents":                          dir,
		"agents/code-reviewer.md":         file + "---\nname: code-reviewer\n---\n",
		"skills":                          dir,
		"skills/inline":                   dir,
		"skills/inline/SKILL.md":          file + "inline skill\n",
		"skills/single":                   dir,
		"skills/single/SKILL.md":          file + "---\nname: single\n---\n",
		"skills/pdf":                      dir,
		"skills/pdf/SKILL.md":             file + "---\nname: pdf\n---\n",
		"skills/pdf/scripts":              dir,
		"skills/pdf/scripts/extract.sh":   exe + "#!/bin/sh\n",
		"skills/pdf/scripts/shared.txt":   file + "shared\n",
		"CLAUDE.md":                       file + "# Memory\n",
		"account.toml": file + `# Generated by claude-account generate from the Nix declaration of this
# account; change the declaration, not this file.
name = "max"
claude = "/nix/store/aaaa-claude-code/bin/claude"
declared = "declared"
settings_mode = "link"
coalesce_keys = ["mcpServers", "theme"]
single_instance = false
project_mcp = "never"
usage = false
notify = true

[worktree]
dir = "wt"
symlink_dirs = ["node_modules", "web/.venv"]
sparse_paths = ["src", "docs"]
use_hooks = true

[identity]
email = "me@example.com"
`,
	}
	diffTrees(t, tree(t, out), want)

	// The launcher's own loader accepts what generate writes.
	data, err := os.ReadFile(filepath.Join(out, "account.toml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := account.Parse(data, "account.toml")
	if err != nil {
		t.Fatalf("account.Parse: %v", err)
	}
	if cfg.Name != "max" || cfg.Claude != "/nix/store/aaaa-claude-code/bin/claude" || cfg.Declared != "declared" ||
		cfg.SettingsMode != "link" || strings.Join(cfg.CoalesceKeys, ",") != "mcpServers,theme" ||
		cfg.SingleInstance == nil || *cfg.SingleInstance || cfg.ProjectMCP != "never" || !cfg.Notify || cfg.Usage == nil || *cfg.Usage ||
		cfg.Worktree.Dir != "wt" || strings.Join(cfg.Worktree.SymlinkDirs, ",") != "node_modules,web/.venv" ||
		strings.Join(cfg.Worktree.SparsePaths, ",") != "src,docs" || !cfg.Worktree.UseHooks ||
		cfg.Identity == nil || cfg.Identity.Email != "me@example.com" || cfg.Identity.Organization != "" {
		t.Errorf("account.Parse = %+v", cfg)
	}
}

func TestRunEmptyOptionsWriteNoFiles(t *testing.T) {
	for _, spec := range []string{
		`{"name": "min"}`,
		`{"name": "min", "claude": null, "settings": {}, "mcpServers": {}, "commands": {}, "agents": {}, "skills": {}, "memory": null,
		  "settingsMode": null, "coalesceKeys": null, "singleInstance": null, "notify": null, "usage": null, "identity": null, "projectMcp": null, "worktree": null}`,
		`{"name": "min", "settings": null, "mcpServers": null, "commands": null, "agents": null, "skills": null,
		  "worktree": {"dir": null, "symlinkDirectories": null, "sparsePaths": null, "useHooks": null}}`,
	} {
		specFile := filepath.Join(t.TempDir(), "spec.json")
		writeFile(t, specFile, spec, 0o644)
		out := outDir(t)
		if err := Run(specFile, out); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{
			".": "dr-xr-xr-x",
			"account.toml": "-r--r--r-- " + `# Generated by claude-account generate from the Nix declaration of this
# account; change the declaration, not this file.
name = "min"
declared = "declared"
settings_mode = "coalesce"
coalesce_keys = ["mcpServers"]
single_instance = true
project_mcp = "trusted"

[worktree]
dir = ".claude/worktrees"
symlink_dirs = []
sparse_paths = []
use_hooks = false
`,
		}
		diffTrees(t, tree(t, out), want)
	}
}

func TestRunDeterministic(t *testing.T) {
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "s/SKILL.md"), "skill\n", 0o600)
	writeFile(t, filepath.Join(src, "s/b/c.txt"), "c\n", 0o700)
	a := `{"name":"det","settings":{"z":1,"a":{"y":[3,2,1],"b":null}},"mcpServers":{"b":{"x":1},"a":{"y":2}},
	       "skills":{"s":{"source":"` + src + `/s"}},"commands":{"z":{"text":"z"},"a/b":{"text":"ab"}}}`
	// The same declaration, keys in another order.
	b := `{"commands":{"a/b":{"text":"ab"},"z":{"text":"z"}},"skills":{"s":{"source":"` + src + `/s"}},
	       "mcpServers":{"a":{"y":2},"b":{"x":1}},"settings":{"a":{"b":null,"y":[3,2,1]},"z":1},"name":"det"}`
	var trees []map[string]string
	for _, spec := range []string{a, b, a} {
		specFile := filepath.Join(t.TempDir(), "spec.json")
		writeFile(t, specFile, spec, 0o644)
		out := outDir(t)
		if err := Run(specFile, out); err != nil {
			t.Fatal(err)
		}
		trees = append(trees, tree(t, out))
	}
	diffTrees(t, trees[1], trees[0])
	diffTrees(t, trees[2], trees[0])
	if got := trees[0]["settings.json"]; got != "-r--r--r-- {\n  \"a\": {\n    \"b\": null,\n    \"y\": [\n      3,\n      2,\n      1\n    ]\n  },\n  \"z\": 1\n}\n" {
		t.Errorf("settings.json = %q", got)
	}
	if got := trees[0]["skills/s/b/c.txt"]; got != "-r-xr-xr-x c\n" {
		t.Errorf("skills/s/b/c.txt = %q", got)
	}
}

func TestRunRelativeSource(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "cmds/hello.md"), "hello\n", 0o644)
	writeFile(t, filepath.Join(dir, "spec.json"), `{"name":"rel","commands":{"hello":{"source":"cmds/hello.md"}}}`, 0o644)
	out := outDir(t)
	if err := Run(filepath.Join(dir, "spec.json"), out); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, out)["commands/hello.md"]; got != "-r--r--r-- hello\n" {
		t.Errorf("commands/hello.md = %q", got)
	}
}

func TestRunOutDir(t *testing.T) {
	dir := t.TempDir()
	specFile := filepath.Join(dir, "spec.json")
	writeFile(t, specFile, `{"name":"o"}`, 0o644)

	empty := outDir(t)
	if err := os.Mkdir(empty, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Run(specFile, empty); err != nil {
		t.Errorf("empty existing out: %v", err)
	}

	full := filepath.Join(dir, "full")
	writeFile(t, filepath.Join(full, "x"), "x", 0o644)
	err := Run(specFile, full)
	if err == nil || err.Error() != "out "+full+": already exists and is not empty; give a new directory" {
		t.Errorf("non-empty out: %v", err)
	}

	err = Run(specFile, filepath.Join(dir, "no/such/parent"))
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing parent: %v", err)
	}
}

func TestRunSourceErrors(t *testing.T) {
	src := t.TempDir()
	if err := os.Mkdir(filepath.Join(src, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(src, "loop"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(src, "loop/up")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ spec, want string }{
		{`{"name":"e","commands":{"c":{"source":"` + src + `/missing.md"}}}`,
			`account "e": commands.c: stat ` + src + `/missing.md: no such file or directory`},
		{`{"name":"e","agents":{"a":{"source":"` + src + `/dir"}}}`,
			`account "e": agents.a: source ` + src + `/dir is not a regular file`},
		{`{"name":"e","memory":{"source":"` + src + `/dir"}}`,
			`account "e": memory: source ` + src + `/dir is not a regular file`},
		{`{"name":"e","skills":{"l":{"source":"` + src + `/loop"}}}`,
			`account "e": skills.l: source ` + src + `/loop: symbolic link cycle`},
	} {
		specFile := filepath.Join(t.TempDir(), "spec.json")
		writeFile(t, specFile, tc.spec, 0o644)
		out := outDir(t)
		err := Run(specFile, out)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.spec, err, tc.want)
		}
		if _, err := os.Lstat(out); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: out dir left behind: %v", tc.spec, err)
		}
	}

	// An out dir that existed empty is emptied again, not removed.
	empty := outDir(t)
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	specFile := filepath.Join(t.TempDir(), "spec.json")
	writeFile(t, specFile, `{"name":"e","settings":{"a":1},"memory":{"source":"`+src+`/dir"}}`, 0o644)
	if err := Run(specFile, empty); err == nil {
		t.Fatal("Run succeeded")
	}
	entries, err := os.ReadDir(empty)
	if err != nil || len(entries) != 0 {
		t.Errorf("out dir after failure: %v, %v", entries, err)
	}
}

func TestBadSpec(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{`[`, `spec F: invalid JSON: unexpected end of input`},
		{`{"name": "max",}`, `spec F: invalid JSON at line 1, column 16: invalid character '}' looking for beginning of object key string`},
		{`[]`, `spec F: must be a JSON object, not array`},
		{`null`, `spec F: must be a JSON object, not null`},
		{`{}`, `spec F: name: missing; every spec names its account`},
		{`{"name": 3}`, `spec F: name: must be a string, not number`},
		{`{"name": "Max"}`, `spec F: account "Max": name: must match [a-z0-9][a-z0-9_-]* (lower-case letters, digits, '-' and '_')`},
		{`{"name": "-x"}`, `spec F: account "-x": name: must match [a-z0-9][a-z0-9_-]* (lower-case letters, digits, '-' and '_')`},
		{`{"name": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}`, `spec F: account "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": name: is 181 characters long; the limit is 180`},
		{`{"name": "max", "setings": {}}`, `spec F: account "max": setings: unknown field; known fields are name, claude, settings, settingsMode, mcpServers, commands, agents, skills, memory, coalesceKeys, singleInstance, notify, usage, projectMcp, worktree, identity, rules, outputStyles, hooks, plugins, lspServers, marketplaces, agentsDir, commandsDir, hooksDir, rulesDir, skillsDir`},
		{`{"name": "max", "identity": {"email": "boss"}}`, `spec F: account "max": identity.email: is not an email address; write the address the account logs in with`},
		{`{"name": "max", "identity": {"email": "", "organization": "Acme"}}`, `spec F: account "max": identity.email: is empty; write the address the account logs in with, or leave the key out`},
		{`{"name": "max", "identity": {"email": "me@example.com", "organization": ""}}`, `spec F: account "max": identity.organization: is empty; write the organization's name or uuid as Claude shows it, or leave the key out`},
		{`{"name": "max", "identity": {"mail": "a@b"}}`, `spec F: account "max": identity.mail: unknown field; known fields are email, organization`},
		{`{"name": "max", "identity": {}}`, `spec F: account "max": identity: declares nothing; name email = "you@example.com" and/or organization = "…" (its name or uuid), or remove the table`},
		{`{"name": "max", "identity": "a@b"}`, `spec F: account "max": identity: must be a JSON object, not string`},
		{`{"name": "max", "claude": "claude"}`, `spec F: account "max": claude: "claude" is not an absolute path; give the Claude binary's full path, or null for claude on PATH`},
		{`{"name": "max", "claude": true}`, `spec F: account "max": claude: must be a string or null, not bool`},
		{`{"name": "max", "settings": []}`, `spec F: account "max": settings: must be a JSON object, not array`},
		{`{"name": "max", "settingsMode": "copy"}`, `spec F: account "max": settingsMode: must be "coalesce" or "link", not "copy"`},
		{`{"name": "max", "projectMcp": "always"}`, `spec F: account "max": projectMcp: must be "trusted" or "never", not "always"`},
		{`{"name": "max", "mcpServers": {"gh": "url"}}`, `spec F: account "max": mcpServers.gh: must be a JSON object (the server's command, args, env or url), not a string`},
		{`{"name": "max", "mcpServers": {"": {}}}`, `spec F: account "max": mcpServers."": a server needs a name`},
		{`{"name": "max", "commands": {"../x": {"text": ""}}}`, `spec F: account "max": commands."../x": the name has a ".." segment; names stay inside their directory`},
		{`{"name": "max", "commands": {"/etc/x": {"text": ""}}}`, `spec F: account "max": commands."/etc/x": the name is an absolute path; use a relative name`},
		{`{"name": "max", "agents": {"a//b": {"text": ""}}}`, `spec F: account "max": agents."a//b": the name has an empty path segment ('//' or a trailing '/')`},
		{`{"name": "max", "agents": {"": {"text": ""}}}`, `spec F: account "max": agents."": the name is empty`},
		{`{"name": "max", "skills": {"a/b": {"text": ""}}}`, `spec F: account "max": skills."a/b": a name in skills is one path segment, without '/'`},
		{`{"name": "max", "hooks": {"a/b": {"text": ""}}}`, `spec F: account "max": hooks."a/b": a name in hooks is one path segment, without '/'`},
		// What Claude Code refuses in a plugin manifest's name, which a
		// plugin without one gets from its attribute name.
		{`{"name": "max", "plugins": {"my pdf tools": {"source": "p"}}}`, `spec F: account "max": plugins."my pdf tools": Claude Code refuses a plugin name with a space and would not load the plugin; use kebab-case, e.g. "my-pdf-tools"`},
		{`{"name": "max", "plugins": {"a\u0085b": {"source": "p"}}}`, `spec F: account "max": plugins."a\u0085b": Claude Code refuses a plugin name with a control or bidirectional-formatting character and would not load the plugin; remove it`},
		{`{"name": "max", "plugins": {"a\u2066b": {"source": "p"}}}`, `spec F: account "max": plugins."a\u2066b": Claude Code refuses a plugin name with a control or bidirectional-formatting character and would not load the plugin; remove it`},
		{`{"name": "max", "plugins": {"a\u007fb": {"source": "p"}}}`, `spec F: account "max": plugins."a\x7fb": Claude Code refuses a plugin name with a control or bidirectional-formatting character and would not load the plugin; remove it`},
		{`{"name": "max", "commands": {"c": "text"}}`, `spec F: account "max": commands.c: must be {"text": "…"} or {"source": "/path"}, not string`},
		{`{"name": "max", "commands": {"c": {}}}`, `spec F: account "max": commands.c: needs "text" or "source"`},
		{`{"name": "max", "commands": {"c": {"text": "a", "source": "/b"}}}`, `spec F: account "max": commands.c: has both "text" and "source"; give one`},
		{`{"name": "max", "commands": {"c": {"txt": "a"}}}`, `spec F: account "max": commands.c: unknown field "txt"; must be {"text": "…"} or {"source": "/path"}`},
		{`{"name": "max", "memory": {"text": 1}}`, `spec F: account "max": memory: field "text" must not be number; must be {"text": "…"} or {"source": "/path"}`},
		{`{"name": "max", "coalesceKeys": "mcpServers"}`, `spec F: account "max": coalesceKeys: must be an array of strings, not string`},
		{`{"name": "max", "coalesceKeys": ["a", ""]}`, `spec F: account "max": coalesceKeys[1]: is empty; name a top-level key of .claude.json`},
		{`{"name": "max", "coalesceKeys": ["a", "a"]}`, `spec F: account "max": coalesceKeys[1]: "a" is listed twice`},
		{`{"name": "max", "singleInstance": "yes"}`, `spec F: account "max": singleInstance: must be true or false, not string`},
		{`{"name": "max", "worktree": {"dir": "/abs"}}`, `spec F: account "max": worktree.dir: "/abs" is absolute; give a path relative to the repository's top level`},
		{`{"name": "max", "worktree": {"dir": "a/../.."}}`, `spec F: account "max": worktree.dir: "a/../.." climbs out of the repository with '..'`},
		{`{"name": "max", "worktree": {"dir": "."}}`, `spec F: account "max": worktree.dir: "." is the repository's top level itself`},
		{`{"name": "max", "worktree": {"symlinkDirectories": ["ok", "../x"]}}`, `spec F: account "max": worktree.symlinkDirectories[1]: "../x" climbs out of the repository with '..'`},
		{`{"name": "max", "worktree": {"sparsePaths": [""]}}`, `spec F: account "max": worktree.sparsePaths[0]: must be a non-empty single-line path`},
		{`{"name": "max", "worktree": {"hooks": true}}`, `spec F: account "max": worktree.hooks: unknown field; known fields are dir, symlinkDirectories, sparsePaths, useHooks`},
		{`{"name": "max"} {}`, `spec F: must be a JSON object: trailing data after the JSON value`},
	} {
		_, err := ParseSpec([]byte(tc.spec), "F")
		var se *SpecError
		if !errors.As(err, &se) {
			t.Errorf("%s: err = %v, want a *SpecError", tc.spec, err)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.spec, err, tc.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error spans lines: %q", tc.spec, err)
		}
	}
}

func TestRunMissingSpec(t *testing.T) {
	err := Run(filepath.Join(t.TempDir(), "nope.json"), outDir(t))
	if err == nil || !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "spec: open ") {
		t.Errorf("err = %v", err)
	}
}

// TestAccountTOMLRoundTrip: account.toml as generated is read back by the
// launcher's own parser as the declaration, whatever the strings hold.
func TestAccountTOMLRoundTrip(t *testing.T) {
	for _, v := range []string{"plain", `q"uote`, `back\slash`, "new\nline", "tab\there", "ctl\x01\x7f", "ünïcødé ✓", "/nix/store/x y/bin/claude"} {
		spec := &Spec{Name: "max", Claude: v, SettingsMode: "coalesce", ProjectMCP: "trusted", SingleInstance: true,
			CoalesceKeys: []string{"mcpServers", v}}
		spec.Worktree.Dir = v
		spec.Worktree.SymlinkDirectories = []string{v}
		spec.Worktree.UseHooks = true
		c, err := account.Parse(AccountTOML(spec), "account.toml")
		if err != nil {
			t.Errorf("%q: %v\n%s", v, err, AccountTOML(spec))
			continue
		}
		if c.Claude != v || c.Worktree.Dir != v || c.CoalesceKeys[1] != v || c.Worktree.SymlinkDirs[0] != v ||
			!c.Worktree.UseHooks || c.SingleInstance == nil || !*c.SingleInstance || c.Declared != Declared {
			t.Errorf("%q: read back as %+v", v, c)
		}
	}
}

// A skills directory given whole (a build output, which evaluation cannot
// read) holding an entry named like a plugin, a skill or the LSP plugin:
// both would become one skills/<name>/ with their files merged. The error
// names the account and both options, as the module's assertion does for a
// directory given as a Nix path.
func TestRunSkillsDirClash(t *testing.T) {
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "skills/pdf/SKILL.md"), "A skill.", 0o644)
	writeFile(t, filepath.Join(src, "skills/claude-account-lsp/SKILL.md"), "A skill.", 0o644)
	writeFile(t, filepath.Join(src, "skills/notes/SKILL.md"), "A skill.", 0o644)
	writeFile(t, filepath.Join(src, "plugin/.claude-plugin/plugin.json"), `{"name": "pdf"}`, 0o644)
	if err := os.Symlink(filepath.Join(src, "skills"), filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	skills := `"skillsDir":{"source":"` + src + `/skills"}`
	for _, tc := range []struct{ spec, want string }{
		{`{"name":"max",` + skills + `,"plugins":{"pdf":{"source":"` + src + `/plugin"}}}`,
			"account \"max\": `programs.claude-code.accounts.max.plugins.pdf` and `programs.claude-code.accounts.max.skills` (`" +
				src + "/skills/pdf`) both become `skills/pdf/` in the account dir; give each its own name"},
		// through a link to the directory, named as given
		{`{"name":"max","skillsDir":{"source":"` + src + `/link"},"plugins":{"pdf":{"source":"` + src + `/plugin"}}}`,
			"account \"max\": `programs.claude-code.accounts.max.plugins.pdf` and `programs.claude-code.accounts.max.skills` (`" +
				src + "/link/pdf`) both become `skills/pdf/` in the account dir; give each its own name"},
		{`{"name":"w",` + skills + `,"lspServers":{"go":{"command":"gopls"}}}`,
			"account \"w\": `programs.claude-code.accounts.w.lspServers` (its plugin) and `programs.claude-code.accounts.w.skills` (`" +
				src + "/skills/claude-account-lsp`) both become `skills/claude-account-lsp/` in the account dir; give each its own name"},
		{`{"name":"w",` + skills + `,"skills":{"notes":{"text":"x"}}}`,
			"account \"w\": `programs.claude-code.accounts.w.skills.notes` and `programs.claude-code.accounts.w.skills` (`" +
				src + "/skills/notes`) both become `skills/notes/` in the account dir; give each its own name"},
	} {
		specFile := filepath.Join(t.TempDir(), "spec.json")
		writeFile(t, specFile, tc.spec, 0o644)
		out := outDir(t)
		err := Run(specFile, out)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.spec, err, tc.want)
		}
		if _, err := os.Lstat(out); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: out dir left behind: %v", tc.spec, err)
		}
	}

	// Different names: skills and plugins side by side.
	specFile := filepath.Join(t.TempDir(), "spec.json")
	writeFile(t, specFile, `{"name":"max",`+skills+`,"plugins":{"hello":{"source":"`+src+`/plugin"}}}`, 0o644)
	out := outDir(t)
	if err := Run(specFile, out); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"skills/pdf/SKILL.md", "skills/notes/SKILL.md", "skills/hello/.claude-plugin/plugin.json"} {
		if _, err := os.Stat(filepath.Join(out, rel)); err != nil {
			t.Error(err)
		}
	}
}

// A plugin without a manifest gets {"name": <its name>} beside the rest of
// its .claude-plugin/, as home-manager's own module makes; a manifest of
// its own is kept byte for byte (issue 42).
func TestRunPluginManifest(t *testing.T) {
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "bare/commands/hi.md"), "hi\n", 0o644)
	writeFile(t, filepath.Join(src, "half/.claude-plugin/marketplace.json"), `{"name":"m"}`, 0o644)
	writeFile(t, filepath.Join(src, "own/.claude-plugin/plugin.json"), `{"name":"renamed"}`, 0o644)
	specFile := filepath.Join(t.TempDir(), "spec.json")
	writeFile(t, specFile, `{"name":"max","plugins":{"bare":{"source":"`+src+`/bare"},"half":{"source":"`+src+`/half"},"own":{"source":"`+src+`/own"}}}`, 0o644)
	out := outDir(t)
	if err := Run(specFile, out); err != nil {
		t.Fatal(err)
	}
	got := tree(t, filepath.Join(out, "skills"))
	want := map[string]string{
		".":                                    "dr-xr-xr-x",
		"bare":                                 "dr-xr-xr-x",
		"bare/commands":                        "dr-xr-xr-x",
		"bare/commands/hi.md":                  "-r--r--r-- hi\n",
		"bare/.claude-plugin":                  "dr-xr-xr-x",
		"bare/.claude-plugin/plugin.json":      "-r--r--r-- {\n  \"name\": \"bare\"\n}\n",
		"half":                                 "dr-xr-xr-x",
		"half/.claude-plugin":                  "dr-xr-xr-x",
		"half/.claude-plugin/marketplace.json": `-r--r--r-- {"name":"m"}`,
		"half/.claude-plugin/plugin.json":      "-r--r--r-- {\n  \"name\": \"half\"\n}\n",
		"own":                                  "dr-xr-xr-x",
		"own/.claude-plugin":                   "dr-xr-xr-x",
		"own/.claude-plugin/plugin.json":       `-r--r--r-- {"name":"renamed"}`,
	}
	diffTrees(t, got, want)
}
