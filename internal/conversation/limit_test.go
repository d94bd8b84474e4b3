package conversation

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refusal is Claude's entry for a turn refused at a usage limit, as 2.1.90
// and 2.1.332 write it.
func refusal(uuid, parent string) string {
	return `{"parentUuid":"` + parent + `","isSidechain":false,"type":"assistant","uuid":"` + uuid + `","message":{"model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"You've hit your 5-hour limit · resets 5:01pm (UTC)"}]},"error":"rate_limit","isApiErrorMessage":true}` + "\n"
}

func notice(uuid, parent string) string {
	return `{"parentUuid":"` + parent + `","isSidechain":false,"type":"system","subtype":"informational","content":"Usage limit reached","uuid":"` + uuid + `"}` + "\n"
}

func answer(uuid, parent string) string {
	return `{"parentUuid":"` + parent + `","type":"assistant","uuid":"` + uuid + `","message":{"role":"assistant","content":[{"type":"text","text":"stub reply"}]}}` + "\n"
}

func TestEndsRefused(t *testing.T) {
	t1 := line("u1", "null", "first") + answer("a1", "u1")
	refused := t1 + line("u2", `"a1"`, "second prompt") + refusal("e2", "u2") + notice("s2", "e2") +
		`{"type":"last-prompt","lastPrompt":"second prompt","leafUuid":"s2"}` + "\n"
	for _, c := range []struct {
		name   string
		data   string
		ok     bool
		prompt string
	}{
		{"answered", t1, false, ""},
		{"refused", refused, true, "second prompt"},
		{"answered after", refused + line("u3", `"s2"`, "again") + answer("a3", "u3"), false, ""},
		{"a prompt after", refused + line("u3", `"s2"`, "again"), false, ""},
		{"a command after (2.1.90's dialog)", refused + line("c3", `"s2"`, "<command-name>/rate-limit-options</command-name>"), true, "second prompt"},
		{"the ! shell's command after (resume --next typed in Claude)", refused + line("b3", `"s2"`, "<bash-input>claude-account resume --next</bash-input>") +
			line("b4", `"b3"`, "<bash-stdout></bash-stdout><bash-stderr></bash-stderr>"), true, "second prompt"},
		{"refused entry not in the lines read", refusal("e2", "u2"), true, ""},
		{"side chain's refusal", t1 + strings.Replace(refusal("e2", "a1"), `"isSidechain":false`, `"isSidechain":true`, 1), false, ""},
		{"empty", "", false, ""},
		{"not json", "{\n", false, ""},
	} {
		r, ok := EndsRefused([]byte(c.data))
		if ok != c.ok || r.Prompt != c.prompt {
			t.Errorf("%s: EndsRefused = %+v, %v; want prompt %q, %v", c.name, r, ok, c.prompt, c.ok)
		}
		if ok && !strings.Contains(r.Message, "5-hour limit") {
			t.Errorf("%s: message %q", c.name, r.Message)
		}
	}
}

func TestEndsRefusedImage(t *testing.T) {
	data := `{"parentUuid":"a1","type":"user","uuid":"u2","message":{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","source":{"type":"base64","data":"AA=="}}]}}` + "\n" + refusal("e2", "u2")
	r, ok := EndsRefused([]byte(data))
	if !ok || r.Prompt != "look" || r.Dropped != 1 {
		t.Errorf("EndsRefused = %+v, %v; want prompt look, 1 dropped", r, ok)
	}
}

func TestWithoutRefusal(t *testing.T) {
	t1 := line("u1", "null", "first") + answer("a1", "u1")
	title := `{"type":"custom-title","customTitle":"x"}` + "\n"
	data := t1 + line("u2", `"a1"`, "second prompt") + refusal("e2", "u2") + title + notice("s2", "e2") +
		`{"type":"last-prompt","lastPrompt":"second prompt","leafUuid":"s2"}` + "\n"
	r, ok := EndsRefused([]byte(data))
	if !ok {
		t.Fatal("not refused")
	}
	got, ok := WithoutRefusal([]byte(data), r)
	if want := t1 + title; !ok || string(got) != want {
		t.Errorf("WithoutRefusal = %q, %v; want %q", got, ok, want)
	}
	// The copy without the refused turn, continued, is newer than the
	// limited account's: the refused turn makes no divergence.
	continued := string(got) + line("u3", `"a1"`, "second prompt") + answer("a3", "u3")
	if o := Compare([]byte(continued), []byte(data)); o != Newer {
		t.Errorf("Compare(continued, limited) = %v, want newer", o)
	}
	// The limited account continued after its reset: that is divergence.
	after := data + line("u4", `"s2"`, "went on") + answer("a4", "u4")
	if o := Compare([]byte(continued), []byte(after)); o != Diverged {
		t.Errorf("Compare(continued, limited went on) = %v, want diverged", o)
	}
	// A limit mid-turn refused a tool's result: it stays (the tool call
	// needs it), only the refusal goes, and nothing is sent again.
	tool := t1 + `{"parentUuid":"a1","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]},"uuid":"r2"}` + "\n" + refusal("e2", "r2")
	rt, ok := EndsRefused([]byte(tool))
	if !ok || rt.Prompt != "" || rt.User != "r2" {
		t.Fatalf("EndsRefused(tool result) = %+v, %v", rt, ok)
	}
	if got, ok := WithoutRefusal([]byte(tool), rt); !ok || !strings.Contains(string(got), `"uuid":"r2"`) || strings.Contains(string(got), "rate_limit") {
		t.Errorf("WithoutRefusal(tool result) = %q, %v", got, ok)
	}
	if _, ok := WithoutRefusal([]byte(t1), r); ok {
		t.Error("WithoutRefusal found a turn in a transcript without it")
	}
}

func TestAtLimitFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.jsonl")
	pad := strings.Repeat(line("p", "null", strings.Repeat("x", 1000)), 100) // past the window
	data := pad + line("u2", `"p"`, "second prompt") + refusal("e2", "u2")
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	if r, ok := AtLimit(p); !ok || r.Prompt != "second prompt" {
		t.Errorf("AtLimit = %+v, %v", r, ok)
	}
	if _, ok := AtLimit(filepath.Join(dir, "none.jsonl")); ok {
		t.Error("AtLimit of no file")
	}
}

func FuzzEndsRefused(f *testing.F) {
	f.Add([]byte(line("u2", `"a1"`, "second") + refusal("e2", "u2") + notice("s2", "e2")))
	f.Add([]byte(refusal("e2", "u2")))
	f.Add([]byte("{\n\n}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, ok := EndsRefused(data)
		if !ok {
			return
		}
		out, cut := WithoutRefusal(data, r)
		if len(out) > len(data) {
			t.Fatalf("WithoutRefusal grew the transcript")
		}
		if cut && bytes.Equal(out, data) && r.Error != "" {
			t.Fatalf("WithoutRefusal cut nothing")
		}
	})
}
