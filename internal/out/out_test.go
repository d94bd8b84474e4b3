package out

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestInert(t *testing.T) {
	for in, want := range map[string]string{
		"plain /a/b c":         "plain /a/b c",
		"é 日本 🙂":               "é 日本 🙂",
		"\x1b]0;owned\x07":     `\x1b]0;owned\x07`,
		"red\x1b[31m":          `red\x1b[31m`,
		"a\nb\tc\rd":           `a\nb\tc\rd`,
		"del\x7f":              `del\x7f`,
		"c1 \u009b31m":         `c1 \x9b31m`,
		"evil\u202elive":       `evil\u202elive`,
		"iso\u2066x\u2069":     `iso\u2066x\u2069`,
		"zw\u200bj\u200d":      `zw\u200bj\u200d`,
		"bom\ufeff":            `bom\ufeff`,
		"bad \xff\xfe utf8":    `bad \xff\xfe utf8`,
		"lsep\u2028psep\u2029": `lsep\u2028psep\u2029`,
		"arabic mark\u061c":    `arabic mark\u061c`,
		"":                     "",
	} {
		if got := Inert(in); got != want {
			t.Errorf("Inert(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzInert(f *testing.F) {
	for _, s := range []string{"", "a", "\x1b[2J", "\u202e", "\xff", "日本", "a\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Inert(s)
		if !utf8.ValidString(got) {
			t.Fatalf("Inert(%q) = %q: not valid UTF-8", s, got)
		}
		for _, r := range got {
			if unsafeRune(r) {
				t.Fatalf("Inert(%q) = %q keeps %U", s, got, r)
			}
		}
		clean := utf8.ValidString(s) && !strings.ContainsFunc(s, unsafeRune)
		if clean != (got == s) {
			t.Fatalf("Inert(%q) = %q: a clean string must come back as it is, any other changed", s, got)
		}
	})
}

func TestPrinter(t *testing.T) {
	var b bytes.Buffer
	p := To(&b)
	p.Linef("worktree %s on %s", "/src/a\nfake line", "evil\u202e")
	p.Lines("one\ntwo\n")
	tb := p.Table()
	tb.Row("NAME", "BRANCH")
	tb.Row("x\ty", "main")
	tb.Flush()
	want := "worktree /src/a\\nfake line on evil\\u202e\none\ntwo\nNAME  BRANCH\nx\\ty  main\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func FuzzJSON(f *testing.F) {
	for _, s := range []string{"", "a", "\x1b[2J", "\u202e\u009b", "\x7f", "日本"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b bytes.Buffer
		if err := To(&b).JSON(map[string]string{"v": s}); err != nil {
			t.Fatal(err)
		}
		for _, r := range b.String() {
			if unsafeRune(r) && r != '\n' {
				t.Fatalf("JSON of %q holds %U raw: %s", s, r, b.Bytes())
			}
		}
		var back map[string]string
		if err := json.Unmarshal(b.Bytes(), &back); err != nil {
			t.Fatalf("JSON of %q does not decode: %v", s, err)
		}
		// The same value encoding/json alone gives (it turns each invalid
		// byte into U+FFFD).
		plain, _ := json.Marshal(s)
		var want string
		_ = json.Unmarshal(plain, &want)
		if back["v"] != want {
			t.Fatalf("JSON of %q decodes to %q, want %q", s, back["v"], want)
		}
	})
}
