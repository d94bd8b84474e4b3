package shell

import (
	"os/exec"
	"testing"
)

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"plain":         "plain",
		"/a/b-c_d.e":    "/a/b-c_d.e",
		"":              "''",
		"~":             "'~'",
		"a b":           "'a b'",
		"it's":          `'it'\''s'`,
		"$HOME":         "'$HOME'",
		"x;rm -rf /":    "'x;rm -rf /'",
		"--account=max": "--account=max",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

// FuzzQuote checks with a real sh that a quoted word reads back as itself.
func FuzzQuote(f *testing.F) {
	if _, err := exec.LookPath("sh"); err != nil {
		f.Skip("no sh")
	}
	for _, s := range []string{"", "a b", "it's", "$(x)", "`x`", "\\", "\n", "-n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range s {
			if r == 0 {
				return // not an argument sh can pass
			}
		}
		out, err := exec.Command("sh", "-c", "printf %s "+Quote(s)).Output()
		if err != nil {
			t.Fatalf("sh -c printf %%s %s: %v", Quote(s), err)
		}
		if string(out) != s {
			t.Fatalf("Quote(%q) read back as %q", s, out)
		}
	})
}
