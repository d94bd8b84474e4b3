package claudever

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]string{
		"2.1.90":                    "2.1.90",
		"2.1.90 (Claude Code)":      "2.1.90",
		"v2.0.77":                   "2.0.77",
		"claude-code-2.1.144":       "2.1.144",
		"2.1.198-beta.1":            "2.1.198",
		"node 20.20.2 / 2.1.1":      "20.20.2",
		"x1.2":                      "",
		"1.2.":                      "",
		"12.3.4.5":                  "",
		"":                          "",
		"9999999.1.1":               "",
		"Claude Code 2.1.330\nmore": "2.1.330",
	} {
		v, ok := Parse(in)
		got := ""
		if ok {
			got = v.String()
		}
		if got != want {
			t.Errorf("Parse(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOrder(t *testing.T) {
	vs := []Version{V(2, 0, 77), V(2, 1, 9), V(2, 1, 38), V(2, 1, 144), V(3, 0, 0)}
	for i := range vs {
		for j := range vs {
			if vs[i].Less(vs[j]) != (i < j) {
				t.Errorf("%v.Less(%v) = %v", vs[i], vs[j], vs[i].Less(vs[j]))
			}
		}
	}
	unknown := Binary{}
	if !unknown.Has(SecureStorageDir) {
		t.Error("a Claude of unknown release is taken for a new one")
	}
	old := Binary{Known: true, Version: V(2, 1, 143)}
	if old.Has(SecureStorageDir) || !old.Has(PluginCacheDir) {
		t.Error("2.1.143 has the plugin dir, not the secure storage dir")
	}
}

func TestFromPath(t *testing.T) {
	for p, want := range map[string]string{
		"/nix/store/0123456789abcdfghijklmnpqrsvwxyz-claude-code-2.1.90/bin/claude":      "2.1.90",
		"/nix/store/0123456789abcdfghijklmnpqrsvwxyz-claude-code-bin-2.1.144/bin/claude": "2.1.144",
		"/nix/store/0123456789abcdfghijklmnpqrsvwxyz-claude-code-wrapped/bin/claude":     "",
		"/nix/store/0123456789abcdfghijklmnpqrsvwxyz-nodejs-20.1.0/bin/node":             "",
		"/home/u/.local/share/claude/versions/2.1.330":                                   "2.1.330",
		"/home/u/.local/share/claude/versions/2.1.330.tmp":                               "",
		"/usr/bin/claude": "",
	} {
		got := ""
		if v, ok := fromStorePath(p); ok {
			got = v.String()
		} else if v, ok := fromVersionsDir(p); ok {
			got = v.String()
		}
		if got != want {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
}

func TestIdentifyPackageJSON(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code")
	must(t, os.MkdirAll(filepath.Join(pkg, "bin"), 0o755))
	must(t, os.MkdirAll(filepath.Join(dir, "node_modules", ".bin"), 0o755))
	must(t, os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@anthropic-ai/claude-code","version":"2.1.197"}`), 0o644))
	must(t, os.WriteFile(filepath.Join(pkg, "bin", "claude.exe"), []byte("#!/bin/sh\nexit 9\n"), 0o755))
	link := filepath.Join(dir, "node_modules", ".bin", "claude")
	must(t, os.Symlink("../@anthropic-ai/claude-code/bin/claude.exe", link))
	b := Identify(link, filepath.Join(dir, "cache.json"), nil)
	if !b.Known || b.Version != V(2, 1, 197) || b.From != "package.json" {
		t.Fatalf("Identify = %+v, want 2.1.197 from package.json", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "cache.json")); err == nil {
		t.Error("a version read from package.json ran --version")
	}
}

func TestIdentifyVersionFlagCached(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "claude")
	count := filepath.Join(dir, "count")
	script := "#!/bin/sh\necho run >> " + count + "\necho '2.1.90 (Claude Code)'\n"
	must(t, os.WriteFile(bin, []byte(script), 0o755))
	cache := filepath.Join(dir, "cache", "versions.json")
	for i := 0; i < 3; i++ {
		b := Identify(bin, cache, nil)
		if !b.Known || b.Version != V(2, 1, 90) || b.From != "claude --version" {
			t.Fatalf("Identify = %+v", b)
		}
	}
	if data, _ := os.ReadFile(count); strings.Count(string(data), "run") != 1 {
		t.Errorf("--version ran %d times, want once", strings.Count(string(data), "run"))
	}
	// A new binary at the same path (an update) is asked again.
	must(t, os.WriteFile(bin, []byte(strings.Replace(script, "2.1.90", "2.1.144", 1)+"# longer\n"), 0o755))
	if b := Identify(bin, cache, nil); b.Version != V(2, 1, 144) {
		t.Errorf("after an update: %+v", b)
	}
	// Something that is not Claude is unknown, with the reason.
	must(t, os.WriteFile(bin, []byte("#!/bin/sh\necho hello world 1.2.3\n"), 0o755))
	if b := Identify(bin, cache, nil); b.Known || !strings.Contains(b.Problem, "did not print a Claude Code version") {
		t.Errorf("not Claude: %+v", b)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"2.1.90", "2.1.90 (Claude Code)", "v1.2.3-rc", "1..2", "1.2.3.4", "/nix/store/x-claude-code-2.1.9/bin/claude"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := Parse(s)
		if !ok {
			return
		}
		w, ok := Parse(v.String())
		if !ok || w != v {
			t.Fatalf("Parse(%q) = %v, which does not parse back (%v)", s, v, w)
		}
		if !strings.Contains(s, v.String()) && !strings.Contains(s, "0") {
			t.Fatalf("Parse(%q) = %v, not in the input", s, v)
		}
		fromStorePath(s)
		fromVersionsDir(s)
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// BenchmarkIdentify is the cost a launch pays to know its Claude: npm's
// layout, read from package.json, no process.
func BenchmarkIdentify(b *testing.B) {
	dir := b.TempDir()
	pkg := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code")
	if err := os.MkdirAll(filepath.Join(dir, "node_modules", ".bin"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		b.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@anthropic-ai/claude-code","version":"2.1.90","description":"`+strings.Repeat("x", 400)+`"}`), 0o644)
	_ = os.WriteFile(filepath.Join(pkg, "cli.js"), []byte("#!/bin/sh\n"), 0o755)
	link := filepath.Join(dir, "node_modules", ".bin", "claude")
	_ = os.Symlink("../@anthropic-ai/claude-code/cli.js", link)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if c := Identify(link, "", nil); !c.Known {
			b.Fatal(c.Problem)
		}
	}
}
