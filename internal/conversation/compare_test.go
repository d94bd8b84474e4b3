package conversation

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// line is a message line of a transcript, as Claude writes them.
func line(uuid, parent, text string) string {
	return `{"parentUuid":` + parent + `,"type":"user","message":{"role":"user","content":"` + text + `"},"uuid":"` + uuid + `"}` + "\n"
}

func TestCompare(t *testing.T) {
	t1 := line("u1", "null", "T1") + line("a1", `"u1"`, "reply")
	t2 := t1 + line("u2", `"a1"`, "T2") + line("a2", `"u2"`, "reply")
	t3 := t1 + line("u3", `"a1"`, "T3")
	title := `{"type":"custom-title","customTitle":"x","sessionId":"s"}` + "\n"
	for _, c := range []struct {
		name string
		a, b string
		want Order
	}{
		{"equal", t1, t1, Same},
		{"empty", "", "", Same},
		{"continued", t2, t1, Newer},
		{"handed back", t1, t2, Older},
		{"both continued", t2, t3, Diverged},
		// The same messages, lines in another order or a title line more:
		// neither lacks a message of the other.
		{"title added", t1 + title, title + t1, Same},
		// Not a prefix (a line Claude rewrote), but every message is there.
		{"rewritten line", title + t2, t1, Newer},
		{"rewritten line, other side", t1, title + t2, Older},
		// A uuid inside a message is not the message's.
		{"nested uuid", t1 + `{"type":"x","data":{"uuid":"u9"}}` + "\n", line("u1", "null", "T1") + line("a1", `"u1"`, "other reply"), Same},
	} {
		if got := Compare([]byte(c.a), []byte(c.b)); got != c.want {
			t.Errorf("%s: Compare = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestCompareFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Longer than a block, so that the prefix is read in several.
	big := bytes.Repeat([]byte(line("x", "null", "padding")), 2000)
	t1 := string(big) + line("u1", `"x"`, "T1")
	t2 := t1 + line("u2", `"u1"`, "T2")
	t3 := t1 + line("u3", `"u1"`, "T3")
	a, b, c := write("a.jsonl", t1), write("b.jsonl", t2), write("c.jsonl", t3)
	for _, tc := range []struct {
		x, y string
		want Order
	}{{a, a, Same}, {a, b, Older}, {b, a, Newer}, {b, c, Diverged}, {c, write("d.jsonl", t3), Same}} {
		got, err := CompareFiles(tc.x, tc.y)
		if err != nil || got != tc.want {
			t.Errorf("CompareFiles(%s, %s) = %v, %v; want %v", filepath.Base(tc.x), filepath.Base(tc.y), got, err, tc.want)
		}
	}
	// A line longer than a read (a pasted log), in copies that are not
	// each other's start: its uuid counts.
	long := `{"type":"user","message":{"content":"` + string(bytes.Repeat([]byte("x"), 200<<10)) + `"},"uuid":"long"}` + "\n"
	title := `{"type":"custom-title","customTitle":"t"}` + "\n"
	l1, l2 := write("l1.jsonl", title+long), write("l2.jsonl", long+line("u2", `"long"`, "T2"))
	if got, err := CompareFiles(l2, l1); err != nil || got != Newer {
		t.Errorf("CompareFiles of a long line's copies = %v, %v; want newer", got, err)
	}
	if _, err := CompareFiles(a, filepath.Join(dir, "none.jsonl")); err == nil {
		t.Error("CompareFiles of a missing file: no error")
	}
}

// FuzzCompare: any two transcripts stand to each other as their mirror
// does, a transcript is the same as itself, and one continued is newer.
func FuzzCompare(f *testing.F) {
	f.Add([]byte(line("u1", "null", "T1")), []byte(line("u1", "null", "T1")+line("u2", `"u1"`, "T2")))
	f.Add([]byte(`{"uuid":"a"}`+"\n"+`{"uuid":"b"}`), []byte(`{"uuid":"b"}`+"\n"+`{"uuid":"a"}`+"\n"))
	f.Add([]byte(`{"uuid":1}`), []byte(`{"uuid":"`))
	mirror := map[Order]Order{Same: Same, Newer: Older, Older: Newer, Diverged: Diverged}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ab, ba := Compare(a, b), Compare(b, a)
		if ba != mirror[ab] {
			t.Fatalf("Compare(a, b) = %v but Compare(b, a) = %v", ab, ba)
		}
		if Compare(a, a) != Same {
			t.Fatal("a transcript is not the same as itself")
		}
		more := append(append(append([]byte{}, a...), '\n'), line("fuzz-new-message", "null", "more")...)
		if Compare(more, a) != Newer {
			t.Fatalf("a transcript continued is %v, not newer", Compare(more, a))
		}
	})
}

// TestByPrefix: only one copy that begins with all of the other's bytes
// proves the other, and never an empty one, a cut line, a link, or the
// same messages in other bytes.
func TestByPrefix(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := string(bytes.Repeat([]byte(line("x", "null", "padding")), 2000))
	t1 := big + line("u1", `"x"`, "T1")
	t2 := t1 + line("u2", `"u1"`, "T2")
	a, b := write("a.jsonl", t1), write("b.jsonl", t2)
	empty, cut := write("empty.jsonl", ""), write("cut.jsonl", t1[:len(t1)-5])
	other := write("other.jsonl", `{"type":"custom-title"}`+"\n"+t1)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		x, y  string
		lines bool
		want  Order
		ok    bool
	}{
		{a, write("a2.jsonl", t1), true, Same, true},
		{b, a, true, Newer, true},
		{a, b, true, Older, true},
		{a, empty, true, Diverged, false},
		{empty, empty, false, Diverged, false},
		{a, cut, true, Diverged, false},
		{a, cut, false, Newer, true}, // a side file need not be lines
		{a, other, true, Diverged, false},
		{a, link, true, Diverged, false},
		{a, filepath.Join(dir, "none.jsonl"), true, Diverged, false},
	} {
		if got, ok := ByPrefix(c.x, c.y, c.lines); got != c.want || ok != c.ok {
			t.Errorf("ByPrefix(%s, %s, %v) = %v, %v; want %v, %v", filepath.Base(c.x), filepath.Base(c.y), c.lines, got, ok, c.want, c.ok)
		}
	}
}
