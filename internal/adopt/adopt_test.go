package adopt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/claudekeys"
	"github.com/claude-account/claude-account/internal/env"
)

func TestLinkTarget(t *testing.T) {
	const root, dir = "/data/u/.claude", "/home/u/.claude" // dir: the name the user gave, a link to root
	for _, c := range []struct{ rel, target, want string }{
		{"skills/pdf/review.md", "../../commands/review.md", "commands/review.md"},
		{"commands/latest", "git", "commands/git"},
		{"agents/a.md", "../../.claude/commands/x.md", "commands/x.md"}, // climbs out and back in, lexically
		{"agents/a.md", "/data/u/.claude/commands/x.md", "commands/x.md"},
		{"agents/a.md", "/home/u/.claude/commands/x.md", "commands/x.md"}, // absolute, by the name the user gave
		{"agents/a.md", "/home/u/.claude", ""},                            // the root itself
		{"agents/a.md", "../..", ""},
		{"agents/a.md", "/etc/passwd", ""},
		{"agents/a.md", "../../.claude-other/x", ""},
		{"CLAUDE.md", "../dotfiles/CLAUDE.md", ""},
		{"agents/a.md", "", ""},
	} {
		if got := LinkTarget(root, dir, c.rel, c.target); got != c.want {
			t.Errorf("LinkTarget(%q, %q) = %q, want %q", c.rel, c.target, got, c.want)
		}
	}
}

// FuzzLinkTarget: whatever the link says, the answer is "" or a clean path
// inside the root, so a copied link never points out of the account.
func FuzzLinkTarget(f *testing.F) {
	for _, s := range []string{"../x", "/r/oot/a", "a/../../b", "/", ".", "..", "x//y/./z", "/home/u/.claude/c"} {
		f.Add("commands/a.md", s)
	}
	f.Fuzz(func(t *testing.T, rel, target string) {
		rel = filepath.Clean(rel)
		if filepath.IsAbs(rel) || strings.HasPrefix(rel, "..") {
			return // a walk never yields these
		}
		got := LinkTarget("/r/oot", "/home/u/.claude", rel, target)
		if got == "" {
			return
		}
		if filepath.IsAbs(got) || got == "." || got != filepath.Clean(got) || got == ".." || strings.HasPrefix(got, "../") {
			t.Fatalf("LinkTarget(%q, %q) = %q: not a clean path inside the root", rel, target, got)
		}
		// The link written, relative to its own dir, reaches the same path.
		link, err := filepath.Rel(filepath.Dir(rel), got)
		if err != nil {
			t.Fatal(err)
		}
		if back := filepath.Join("/acct", filepath.Dir(rel), link); !within(back, "/acct") || back == "/acct" {
			t.Fatalf("link %q from %q leaves the account: %q", link, rel, back)
		}
	})
}

func TestFindPrefersClaudeJSONBesideHomeClaude(t *testing.T) {
	home := t.TempDir()
	must(t, os.Mkdir(filepath.Join(home, ".claude"), 0o700))
	must(t, os.WriteFile(filepath.Join(home, ".claude.json"), []byte(`{}`), 0o600))
	must(t, os.WriteFile(filepath.Join(home, ".claude", ".claude.json"), []byte(`{}`), 0o600))
	s, err := Find(filepath.Join(home, ".claude"), env.Env{"HOME": home})
	must(t, err)
	if !s.Plain || s.ClaudeJSON != filepath.Join(home, ".claude.json") || len(s.Notes) != 1 {
		t.Fatalf("Find = %+v", s)
	}
	// A legacy .config.json inside wins, as Claude reads it first.
	must(t, os.WriteFile(filepath.Join(home, ".claude", ".config.json"), []byte(`{"theme":"x"}`), 0o600))
	s, err = Find(filepath.Join(home, ".claude"), env.Env{"HOME": home})
	must(t, err)
	if s.ClaudeJSON != filepath.Join(home, ".claude", ".config.json") {
		t.Fatalf("Find = %+v", s)
	}
}

func TestMakeReadsNothingOutsideAndWritesNothing(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "cfg")
	must(t, os.MkdirAll(filepath.Join(src, "commands"), 0o755))
	must(t, os.WriteFile(filepath.Join(src, ".claude.json"), []byte(`{"theme":"dark","projects":{},"mcpServers":{"a":{"command":"x"}}}`), 0o600))
	must(t, os.Symlink("/etc/passwd", filepath.Join(src, "commands", "p.md")))
	s, err := Find(src, env.Env{"HOME": base})
	must(t, err)
	p, err := Make(s, Options{Dest: filepath.Join(base, "acct")})
	must(t, err)
	if _, err := os.Lstat(filepath.Join(base, "acct")); !os.IsNotExist(err) {
		t.Fatalf("Make wrote the account dir: %v", err)
	}
	if len(p.Skipped) != 1 || !strings.Contains(p.Skipped[0].Why, "outside") {
		t.Fatalf("Skipped = %+v", p.Skipped)
	}
	var doc map[string]json.RawMessage
	for _, e := range p.Entries {
		if e.Rel == ".claude.json" {
			must(t, json.Unmarshal(e.Data, &doc))
		}
	}
	if _, ok := doc["projects"]; ok || string(doc["theme"]) != `"dark"` || doc["mcpServers"] == nil {
		t.Fatalf(".claude.json = %v", doc)
	}
}

// FuzzClaudeJSON: for any source .claude.json, Make either stops with an
// error or plans a .claude.json that parses and holds only the account's
// keys and mcpServers.
func FuzzClaudeJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"theme":"x","projects":{"/a":{}}}`, `{"mcpServers":{"a":{"command":"x"}}}`,
		`{"mcpServers":{"a":1}}`, `{"numStartups":1,"numStartups":2}`, `{"a":`, `[]`, ``, "\ufeff{}", `{"mcpServers":{"a":{},"a":{"x":1}}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		base := t.TempDir()
		src := filepath.Join(base, "cfg")
		must(t, os.Mkdir(src, 0o755))
		must(t, os.WriteFile(filepath.Join(src, ".claude.json"), []byte(doc), 0o600))
		s, err := Find(src, env.Env{"HOME": base})
		must(t, err)
		p, err := Make(s, Options{Dest: filepath.Join(base, "acct")})
		if err != nil {
			if !strings.Contains(err.Error(), "nothing was written") {
				t.Fatalf("error does not say nothing was written: %v", err)
			}
			return
		}
		for _, e := range p.Entries {
			if e.Rel != ".claude.json" {
				continue
			}
			var out map[string]json.RawMessage
			if err := json.Unmarshal(e.Data, &out); err != nil {
				t.Fatalf("planned .claude.json does not parse: %v\n%s", err, e.Data)
			}
			for k := range out {
				if k != "mcpServers" && !claudekeys.IsAccount(k) {
					t.Fatalf("planned .claude.json has the config dir's key %q", k)
				}
			}
		}
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func testWalker(t *testing.T) *walker {
	src := &Source{Dir: "/home/u/.claude", Root: "/data/u/claude"}
	return &walker{p: &Plan{Source: src, Dest: "/home/u/.claude-max"}, src: src, home: "/home/u",
		copied: map[string]bool{"hooks": true, "hooks/h.sh": true}, planned: map[string]bool{}}
}

func TestRebase(t *testing.T) {
	w := testWalker(t)
	doc := []byte(`{"a": ["~/.claude/hooks/h.sh", "x"], "b": {"c": "/data/u/claude/hooks/h.sh;$HOME/.claude"}, "~/.claude/hooks": "/x/home/u/.claude/hooks ~/.claude.json ~/.claude-old ~/.claude/../etc"}`)
	got, err := w.rebase(doc, "settings.json", "")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a": ["~/.claude-max/hooks/h.sh", "x"], "b": {"c": "/home/u/.claude-max/hooks/h.sh;$HOME/.claude-max"}, "~/.claude/hooks": "/x/home/u/.claude/hooks ~/.claude.json ~/.claude-old ~/.claude/../etc"}`
	if string(got) != want {
		t.Errorf("rebase:\n got %s\nwant %s", got, want)
	}
	var keys []string
	for _, r := range w.p.Rewrites {
		keys = append(keys, r.Key)
	}
	if strings.Join(keys, " ") != "a[0] b.c" {
		t.Errorf("rewrites at %q, want a[0] b.c", keys)
	}
}

// FuzzRebase: whatever the settings hold, the result is valid JSON with the
// same shape, and no string names the source dir by a spelling rebase reads
// where the path it names was taken in.
func FuzzRebase(f *testing.F) {
	for _, s := range []string{`{"a": "~/.claude/hooks/h.sh"}`, `["$HOME/.claude", 1, null, {"k": "${HOME}/.claude/hooks"}]`, `"x"`, `{"a\"": "\u007e/.claude/hooks"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		var before any
		if json.Unmarshal(doc, &before) != nil {
			return
		}
		w := testWalker(t)
		got, err := w.rebase(doc, "settings.json", "")
		if err != nil {
			return
		}
		var after any
		if err := json.Unmarshal(got, &after); err != nil {
			t.Fatalf("rebase(%q) = %q: not JSON: %v", doc, got, err)
		}
		if len(w.p.Rewrites) == 0 && string(got) != string(doc) {
			t.Fatalf("rebase(%q) changed bytes with no rewrite: %q", doc, got)
		}
		for _, r := range w.p.Rewrites {
			if strings.Contains(r.To, "~/.claude/hooks/h.sh") {
				t.Fatalf("rewrite %+v still names the source", r)
			}
		}
	})
}

func TestLinkInPath(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"hooks/real", "secrets"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "secrets/id_rsa"), []byte("key"), 0o600); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"hooks/d": "../secrets", "hooks/real/up": "..", "last.md": "secrets/id_rsa"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	for rel, want := range map[string]string{
		"hooks/d/id_rsa":         "hooks/d",
		"hooks/d/missing":        "hooks/d",
		"hooks/d":                "", // the last part: the walk decides a link itself
		"hooks/real/up/d/id_rsa": "hooks/real/up",
		"hooks/real/x.sh":        "",
		"last.md":                "",
		"gone/d/id_rsa":          "", // nothing is reached through a missing part
		"secrets/id_rsa":         "",
	} {
		if got := linkInPath(root, rel); got != want {
			t.Errorf("linkInPath(%q) = %q, want %q", rel, got, want)
		}
	}
}
