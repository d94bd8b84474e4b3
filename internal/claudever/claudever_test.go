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
	if unknown.Has(SecureStorageDir) || !unknown.MayHave(SecureStorageDir) {
		t.Error("a Claude of unknown release surely has nothing, and may have everything")
	}
	old := Binary{Known: true, Version: V(2, 1, 143)}
	if old.Has(SecureStorageDir) || !old.Has(PluginCacheDir) {
		t.Error("2.1.143 has the plugin dir, not the secure storage dir")
	}
}

// TestBoundaries pins each release boundary: the release before it lacks the
// feature, the release of it has it. A boundary moved by mistake fails here.
func TestBoundaries(t *testing.T) {
	for _, c := range []struct {
		name          string
		feature       Version
		before, since Version
	}{
		{"TaskListID", TaskListID, V(2, 1, 15), V(2, 1, 16)},
		{"RemoteMemoryDir", RemoteMemoryDir, V(2, 1, 37), V(2, 1, 38)},
		{"PluginCacheDir", PluginCacheDir, V(2, 1, 41), V(2, 1, 42)},
		{"LongProjectKeys", LongProjectKeys, V(2, 1, 46), V(2, 1, 47)},
		{"WorktreeHooks", WorktreeHooks, V(2, 1, 49), V(2, 1, 50)},
		{"MemoryPerRepository", MemoryPerRepository, V(2, 1, 62), V(2, 1, 63)},
		{"TrustPerRepository", TrustPerRepository, V(2, 1, 62), V(2, 1, 63)},
		{"StopFailureHook", StopFailureHook, V(2, 1, 77), V(2, 1, 78)},
		{"RateLimitsInStatus", RateLimitsInStatus, V(2, 1, 79), V(2, 1, 80)},
		{"SecureStorageDir", SecureStorageDir, V(2, 1, 143), V(2, 1, 144)},
		{"PluginsInSkills", PluginsInSkills, V(2, 1, 156), V(2, 1, 157)},
	} {
		before := Binary{Known: true, Version: c.before}
		since := Binary{Known: true, Version: c.since}
		if before.Has(c.feature) || before.MayHave(c.feature) {
			t.Errorf("%s: %v has it, want it first in %v", c.name, c.before, c.since)
		}
		if !since.Has(c.feature) || !since.MayHave(c.feature) {
			t.Errorf("%s: %v lacks it, want it first in %v", c.name, c.since, c.since)
		}
		// A release nothing could tell surely has none of them (each is
		// newer than Oldest), and may have each.
		if unknown := (Binary{}); unknown.Has(c.feature) || !unknown.MayHave(c.feature) {
			t.Errorf("%s: an unknown release surely has it, or surely not", c.name)
		}
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

func TestIdentifyFailureNotCached(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "claude")
	flag := filepath.Join(dir, "flag")
	// Fails the first time (as a timeout on a loaded machine), answers after.
	script := "#!/bin/sh\nif [ ! -e " + flag + " ]; then : > " + flag + "; exit 1; fi\necho '2.1.90 (Claude Code)'\n"
	must(t, os.WriteFile(bin, []byte(script), 0o755))
	cache := filepath.Join(dir, "versions.json")
	if b := Identify(bin, cache, nil); b.Known || !strings.Contains(b.Problem, "failed") {
		t.Fatalf("first: %+v", b)
	}
	if b := Identify(bin, cache, nil); !b.Known || b.Version != V(2, 1, 90) {
		t.Fatalf("a failure was kept: %+v", b)
	}
}

func TestIdentifyWrapperStartError(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "claude")
	must(t, os.WriteFile(bin, []byte("#!/bin/sh\nexec "+filepath.Join(dir, "gone")+" \"$@\"\n"), 0o755))
	b := IdentifyWith(bin, Options{Cache: filepath.Join(dir, "c.json"), Probe: true})
	if b.Known || !strings.Contains(b.StartProblem, "status 127") {
		t.Fatalf("%+v", b)
	}
}

// TestFirstLineKeepsTheCause: a wrapper's complaint under a long TMPDIR
// (testscripts/claude-versions-doctor-cannot-start.txtar with a 64-character
// one) is shortened by its paths, and "not found" stays.
func TestFirstLineKeepsTheCause(t *testing.T) {
	long := "/" + strings.Repeat("x", 100) + "/go-test-script1/script-claude-versions-doctor-cannot-start"
	for in, want := range map[string]string{
		"":                          "",
		" \n":                       "",
		"sh: 1: x: not found\nmore": " (sh: 1: x: not found)",
		long + "/home/bin/claude: 2: exec: " + long + "/gone/claude: not found\n": " (…/bin/claude: 2: exec: …/gone/claude: not found)",
		"env: '" + long + "/bin/node': No such file or directory":                 " (env: '…/bin/node': No such file or directory)",
		strings.Repeat("é", 150) + " " + strings.Repeat("w", 150) + " the end":    " (" + strings.Repeat("é", 100) + "…" + strings.Repeat("w", 92) + " the end)",
		"\x1b]0;t\a" + long + "/c: " + long + "/d: not found":                     " (?]0;t?…/script-claude-versions-doctor-cannot-start/c: …/script-claude-versions-doctor-cannot-start/d: not found)",
	} {
		if got := firstLine(in); got != want {
			t.Errorf("firstLine(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}

func TestParseVersionOutput(t *testing.T) {
	for in, want := range map[string]string{
		"2.0.77 (Claude Code)\n": "2.0.77",
		"2.1.331 (Claude Code)":  "2.1.331",
		"Now using node v20.20.2 (npm v10.8.2)\n2.1.90 (Claude Code)\n": "2.1.90",
		"2.1.198-beta.1 (Claude Code)\n":                                "2.1.198",
		"Now using node v20.20.2 (npm v10.8.2)\n":                       "",
		"1.2.3 (Claude Code)\n1.2.4 (Claude Code)\n":                    "",
		"1.2.3 (Claude Code)\n1.2.3 (Claude Code)\n":                    "1.2.3",
		"node 20.20.2 (Claude Code)\n2.1.90 (Claude Code)\n":            "2.1.90",
		"2.1.90 (Claude Code) and more\n":                               "",
		"v2.1.90 (Claude Code)\n":                                       "",
		"02.1.90 (Claude Code)\n":                                       "",
		"2.1.90- (Claude Code)\n":                                       "",
		"\t2.1.90  (Claude Code)  \r\n":                                 "2.1.90",
	} {
		v, ok := ParseVersionOutput(in)
		got := ""
		if ok {
			got = v.String()
		}
		if got != want {
			t.Errorf("ParseVersionOutput(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestExecCandidates(t *testing.T) {
	for script, want := range map[string]string{
		// Nix's makeWrapper
		"#! /nix/store/x-bash/bin/bash -e\nexport DISABLE_AUTOUPDATER='1'\nexec -a \"$0\" \"/nix/store/h-claude-code-2.1.90/bin/.claude-wrapped\"  \"$@\" \n": "/nix/store/h-claude-code-2.1.90/bin/.claude-wrapped",
		"#!/bin/sh\nexec \"/nix/store/h-claude-code-2.1.90/bin/claude\"  \"$@\"\n":                                                                            "/nix/store/h-claude-code-2.1.90/bin/claude",
		"#!/bin/sh\nexec /opt/claude/bin/claude \"$@\"\n":                                                                                                     "/opt/claude/bin/claude",
		"#!/bin/sh\nexec env FOO=1 -u BAR /usr/bin/node /opt/cc/cli.js \"$@\"\n":                                                                              "/usr/bin/node /opt/cc/cli.js",
		"#!/bin/sh\nif [ -x /a ]; then exec /a \"$@\"; else exec '/b c' \"$@\"; fi\n":                                                                         "/a /b c",
		"#!/bin/sh\n# exec /not/this\necho exec /nor/this\nexec \"$HOME/x\" /y\n":                                                                             "/y",
		"#!/bin/sh\nbasedir=$(dirname \"$0\")\nexec \"$basedir/node\" \"$basedir/cli.js\" \"$@\"\n":                                                           "",
		"#!/bin/sh\nexec $(/usr/bin/which claude) \"$@\"\n":                                                                                                   "",
		"#!/bin/sh\nFOO=1 exec /a/b\\\n  \"$@\"\n":                                                                                                            "/a/b",
		"#!/bin/sh\nexec /a/../b/./c\n":                                                                                                                       "/b/c",
		"#!/bin/sh\nexec /a/*\n":                                                                                                                              "",
	} {
		got := strings.Join(ExecCandidates(script), " ")
		if got != want {
			t.Errorf("ExecCandidates(%q) = %q, want %q", script, got, want)
		}
	}
}

// TestIdentifyBehindWrapper: a wrapper is read through to the real Claude,
// and a change behind an unchanged wrapper is seen.
func TestIdentifyBehindWrapper(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "lib", "node_modules", "@anthropic-ai", "claude-code")
	must(t, os.MkdirAll(pkg, 0o755))
	must(t, os.WriteFile(filepath.Join(pkg, "cli.js"), []byte("#!/usr/bin/env node\n"), 0o755))
	setVersion := func(v string) {
		must(t, os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@anthropic-ai/claude-code","version":"`+v+`"}`), 0o644))
	}
	setVersion("2.1.90")
	inner := filepath.Join(dir, "inner")
	must(t, os.WriteFile(inner, []byte("#!/bin/sh\nexec /usr/bin/env node "+filepath.Join(pkg, "cli.js")+" \"$@\"\n"), 0o755))
	outer := filepath.Join(dir, "claude")
	must(t, os.WriteFile(outer, []byte("#!/bin/sh\nexport X=1\nexec -a \"$0\" \""+inner+"\" \"$@\"\n"), 0o755))
	b := Identify(outer, "", nil)
	if !b.Known || b.Version != V(2, 1, 90) || b.From != "package.json" || b.Target != filepath.Join(pkg, "cli.js") {
		t.Fatalf("behind two wrappers: %+v", b)
	}
	setVersion("2.0.77")
	if b := Identify(outer, "", nil); b.Version != V(2, 0, 77) {
		t.Fatalf("a rollback behind the wrapper: %+v", b)
	}
	// Two releases behind one wrapper: no answer from the files.
	other := filepath.Join(dir, "other", "claude-code")
	must(t, os.MkdirAll(other, 0o755))
	must(t, os.WriteFile(filepath.Join(other, "package.json"), []byte(`{"name":"@anthropic-ai/claude-code","version":"2.1.331"}`), 0o644))
	must(t, os.WriteFile(filepath.Join(other, "cli.js"), []byte("#!/usr/bin/env node\n"), 0o755))
	must(t, os.WriteFile(outer, []byte("#!/bin/sh\n[ -n \"$OLD\" ] && exec "+inner+"\nexec "+filepath.Join(other, "cli.js")+"\n"), 0o755))
	if b := Identify(outer, "", nil); b.Known || !strings.Contains(b.Problem, "more than one release") {
		t.Fatalf("two releases: %+v", b)
	}
}

func TestLearn(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "shim")
	must(t, os.WriteFile(bin, []byte("#!/bin/sh\necho '2.1.331 (Claude Code)'\n"), 0o755))
	cache := filepath.Join(dir, "c.json")
	b := IdentifyWith(bin, Options{Cache: cache, Dir: "/src/app"})
	if b.Version != V(2, 1, 331) {
		t.Fatalf("%+v", b)
	}
	if !Learn(cache, b, "/src/app", V(2, 0, 77)) {
		t.Fatal("nothing learned")
	}
	if Learn(cache, b, "/src/app", V(2, 0, 77)) {
		t.Fatal("learned twice")
	}
	if b := IdentifyWith(bin, Options{Cache: cache, Dir: "/src/app"}); b.Version != V(2, 0, 77) || b.From != FromRunning {
		t.Fatalf("after learning: %+v", b)
	}
	if b := IdentifyWith(bin, Options{Cache: cache, Dir: "/src/other"}); b.Version != V(2, 1, 331) {
		t.Fatalf("another dir: %+v", b)
	}
	// A changed shim forgets what was learned behind the old one.
	must(t, os.WriteFile(bin, []byte("#!/bin/sh\necho '2.1.330 (Claude Code)'\n# changed\n"), 0o755))
	if b := IdentifyWith(bin, Options{Cache: cache, Dir: "/src/app"}); b.Version != V(2, 1, 330) || b.From != FromVersionFlag {
		t.Fatalf("after a change: %+v", b)
	}
}

// TestLearnDropsAStaleAnswer: behind a wrapper whose files stay the same
// through an upgrade, the release seen running replaces the cached
// --version answer everywhere, not only where it ran.
func TestLearnDropsAStaleAnswer(t *testing.T) {
	dir := t.TempDir()
	bin, answer := filepath.Join(dir, "wrapper"), filepath.Join(dir, "answer")
	must(t, os.WriteFile(bin, []byte("#!/bin/sh\ncat "+answer+"\n"), 0o755))
	must(t, os.WriteFile(answer, []byte("2.0.77 (Claude Code)\n"), 0o644))
	cache := filepath.Join(dir, "c.json")
	b := IdentifyWith(bin, Options{Cache: cache, Dir: "/src/app"})
	if b.Version != V(2, 0, 77) || b.From != FromVersionFlag {
		t.Fatalf("%+v", b)
	}
	must(t, os.WriteFile(answer, []byte("2.1.331 (Claude Code)\n"), 0o644)) // the upgrade
	if b := IdentifyWith(bin, Options{Cache: cache, Dir: "/src/other"}); b.Version != V(2, 0, 77) {
		t.Fatalf("before it ran: %+v", b) // the cache is kept while nothing says otherwise
	}
	if !Learn(cache, b, "/src/app", V(2, 1, 331)) {
		t.Fatal("nothing learned")
	}
	if b := IdentifyWith(bin, Options{Cache: cache, Dir: "/src/other"}); b.Version != V(2, 1, 331) || b.From != FromVersionFlag {
		t.Fatalf("another dir after it ran: %+v", b)
	}
	if b := IdentifyWith(bin, Options{Cache: cache, Dir: "/src/app"}); b.Version != V(2, 1, 331) {
		t.Fatalf("where it ran: %+v", b)
	}
}

func FuzzParseVersionOutput(f *testing.F) {
	for _, s := range []string{"2.1.90 (Claude Code)\n", "Now using node v20.20.2 (npm v10.8.2)\n2.0.77 (Claude Code)\n", "1.2.3-rc.1 (Claude Code)", "(Claude Code)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := ParseVersionOutput(s)
		if !ok {
			return
		}
		if !strings.Contains(s, v.String()) || !strings.Contains(s, "(Claude Code)") {
			t.Fatalf("ParseVersionOutput(%q) = %v, not in the input", s, v)
		}
		if w, ok := ParseVersionOutput(v.String() + " (Claude Code)\n"); !ok || w != v {
			t.Fatalf("%v does not read back: %v", v, w)
		}
	})
}

func FuzzExecCandidates(f *testing.F) {
	for _, s := range []string{"#!/bin/sh\nexec -a \"$0\" \"/nix/store/x/bin/.claude-wrapped\" \"$@\"\n", "#!/bin/sh\nexec env A=1 /usr/bin/node '/o p/cli.js'\n", "exec \"/a\\\"b\" \\\n /c", "#!/bin/sh\nexec \"$(dirname \"$0\")/x\"\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range ExecCandidates(s) {
			if !filepath.IsAbs(p) || p != filepath.Clean(p) || strings.ContainsRune(p, 0) {
				t.Fatalf("ExecCandidates(%q) gave %q", s, p)
			}
		}
	})
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

// BenchmarkIdentifyWrapper is what a launch pays behind a wrapper script
// (Nix's makeWrapper) in front of npm's layout: the script is read, the
// package found; the cache is not read.
func BenchmarkIdentifyWrapper(b *testing.B) {
	dir := b.TempDir()
	pkg := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		b.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@anthropic-ai/claude-code","version":"2.1.90","description":"`+strings.Repeat("x", 400)+`"}`), 0o644)
	_ = os.WriteFile(filepath.Join(pkg, "cli.js"), []byte("#!/usr/bin/env node\n"), 0o755)
	wrapper := filepath.Join(dir, "claude")
	_ = os.WriteFile(wrapper, []byte("#!/bin/bash -e\nexport DISABLE_AUTOUPDATER=1\nexec -a \"$0\" \""+filepath.Join(pkg, "cli.js")+"\" \"$@\"\n"), 0o755)
	cache := filepath.Join(dir, "versions.json")
	grown(dir).save(cache)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if c := IdentifyWith(wrapper, Options{Cache: cache, Dir: "/src/app"}); !c.Known || c.Target == "" {
			b.Fatal(c.Problem)
		}
	}
}

// BenchmarkIdentifyLearned is what a launch pays behind a shim no file
// explains: the script is read, then the one entry of the cache.
func BenchmarkIdentifyLearned(b *testing.B) {
	dir := b.TempDir()
	shim := filepath.Join(dir, "claude")
	_ = os.WriteFile(shim, []byte("#!/bin/sh\nexec asdf exec claude \"$@\"\n"), 0o755)
	cache := filepath.Join(dir, "versions.json")
	c := grown(dir)
	r := readFiles(shim)
	c.put(shim, r.chain, func(e *cacheEntry) {
		e.Version = "2.1.331"
		e.Ran = map[string]ranEntry{"/src/app": {Version: "2.0.77"}}
	})
	c.save(cache)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if c := IdentifyWith(shim, Options{Cache: cache, Dir: "/src/app"}); c.Version != V(2, 0, 77) {
			b.Fatal(c)
		}
	}
}

// grown is a cache as a user's grows: a few binaries, each seen in many dirs.
func grown(dir string) cache {
	c := cache{}
	for i := 0; i < 4; i++ {
		e := &cacheEntry{Chain: []fileID{{Path: filepath.Join(dir, "x", strings.Repeat("y", i)), Size: 1, MtimeNs: 2, Ino: 3}}, Version: "2.1.90", Ran: map[string]ranEntry{}}
		for j := 0; j < maxRan; j++ {
			e.Ran[filepath.Join("/home/u/src", strings.Repeat("r", j+1))] = ranEntry{Version: "2.1.90"}
		}
		c[filepath.Join(dir, "bin", strings.Repeat("c", i+1))] = e
	}
	return c
}
