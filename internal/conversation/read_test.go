package conversation

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The titles Claude's own picker showed for these transcripts (made by the
// real 2.0.77, 2.1.90 and 2.1.331 against the loopback API stand-in, paths
// renamed): custom title, then a summary of this file's own leaf, then the
// last prompt (2.1.x) or the first (2.0.77).
func TestReadMeta(t *testing.T) {
	for file, want := range map[string]Meta{
		"2.0.77/395807dd-38ce-4218-9e89-d24200b65a50.jsonl":  {Title: "Custom Beta", Cwd: "/home/u/src/pk-2.0.77/repo", Branch: "main"},
		"2.0.77/46e0eb87-6a61-4fc0-ad12-9199a4bfea60.jsonl":  {Title: "Gamma summary line", Cwd: "/home/u/src/pk-2.0.77/repo", Branch: "main"},
		"2.0.77/648d278e-72dc-4e08-921b-4dcd143294dc.jsonl":  {Title: "delta print prompt", Cwd: "/home/u/src/pk-2.0.77/repo", Branch: "main"},
		"2.0.77/9c7828fc-2e73-47a6-83e2-20103f362154.jsonl":  {Title: "alpha first prompt", Cwd: "/home/u/src/pk-2.0.77/repo", Branch: "main"},
		"2.0.77/f22a4815-1359-4d95-ba4e-40aeeba05d9c.jsonl":  {Title: "epsilon worktree prompt", Cwd: "/home/u/src/pk-2.0.77/repo-wt", Branch: "main"},
		"2.0.77/8627d7c0-5bd4-4192-9c99-fdadb77de15a.jsonl":  {Title: "8627d7c0"}, // only another session's summary: no conversation
		"2.1.90/31a457fa-f54e-4ad4-bf3c-ed725dee9060.jsonl":  {Title: "alpha second prompt", Cwd: "/home/u/src/pk-2.1.90/repo", Branch: "main"},
		"2.1.90/a271d496-1f43-4c19-8543-0f4594a45e90.jsonl":  {Title: "Gamma summary line", Cwd: "/home/u/src/pk-2.1.90/repo", Branch: "main"},
		"2.1.90/e4c9ef10-f8f3-4930-8999-39dfe9d303b8.jsonl":  {Title: "Custom Beta", Cwd: "/home/u/src/pk-2.1.90/repo", Branch: "main"},
		"2.1.331/d29e73dd-e6f7-49dc-bf0f-1c9d98db8c37.jsonl": {Title: "alpha second prompt", Cwd: "/home/u/src/pk-2.1.331/repo", Branch: "main"},
		"2.1.331/e5c36df8-e7e4-4eaf-bbe4-c7eaf258b375.jsonl": {Title: "Custom Beta", Cwd: "/home/u/src/pk-2.1.331/repo", Branch: "main"},
	} {
		m, err := ReadMeta(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		if m.Title != want.Title || m.Cwd != want.Cwd || m.Branch != want.Branch {
			t.Errorf("%s: title %q cwd %q branch %q; want %q %q %q", file, m.Title, m.Cwd, m.Branch, want.Title, want.Cwd, want.Branch)
		}
		if m.ID != strings.TrimSuffix(filepath.Base(file), ".jsonl") {
			t.Errorf("%s: id %q", file, m.ID)
		}
	}
}

// FuzzReadMeta: any bytes give a Meta or an error, never a panic, and a
// title on one line.
func FuzzReadMeta(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/2.1.90/*.jsonl")
	for _, s := range seeds {
		data, _ := os.ReadFile(s)
		f.Add(data)
	}
	f.Add([]byte(`{"type":"summary","summary":"x\ny","leafUuid":"a"}` + "\n" + `{"uuid":"a","cwd":"/x","type":"user","message":{"content":"<b>t</b>"}}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m := Meta{ID: "0123abcd-0000-4000-8000-000000000000"}
		head, tail := data[:min(len(data), window)], data[max(0, len(data)-window):]
		m.fill(head, tail)
		if strings.ContainsAny(m.Title, "\n\r") || m.Title == "" {
			t.Fatalf("title %q", m.Title)
		}
	})
}

// A first line longer than the window read (a pasted log as the first
// prompt) still gives the conversation's cwd, branch and title.
func TestReadMetaLongFirstLine(t *testing.T) {
	for _, size := range []int{window - 100, window + 1, 3*window + 7, 40 * window} {
		log := strings.Repeat("x", size)
		first := `{"parentUuid":null,"type":"user","cwd":"/src/app","gitBranch":"main","sessionId":"s","message":{"role":"user","content":"look at this ` + log + `"},"uuid":"u1"}` + "\n"
		path := filepath.Join(t.TempDir(), "77777777-7777-4777-8777-777777777777.jsonl")
		if err := os.WriteFile(path, []byte(first+`{"type":"assistant","message":{"role":"assistant","content":"ok"},"uuid":"a1"}`+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		m, err := ReadMeta(path)
		if err != nil {
			t.Fatal(err)
		}
		if m.Cwd != "/src/app" || m.Branch != "main" || !strings.HasPrefix(m.Title, "look at this xxx") {
			t.Errorf("first line of %d bytes: cwd %q, branch %q, title %q", len(first), m.Cwd, m.Branch, m.Title)
		}
	}
}
