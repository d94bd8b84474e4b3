package env

import (
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestExpandHome(t *testing.T) {
	e := Env{"HOME": "/home/u"}
	for in, want := range map[string]string{
		"~":                  "/home/u",
		"~/":                 "/home/u",
		"~/worktrees/{repo}": "/home/u/worktrees/{repo}",
		"~user/x":            "~user/x", // another user's home: not ours to guess
		".claude/worktrees":  ".claude/worktrees",
		"/abs/~/x":           "/abs/~/x",
		"":                   "",
	} {
		if got := e.ExpandHome(in); got != want {
			t.Errorf("ExpandHome(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShellPath(t *testing.T) {
	e := Env{"HOME": "/home/u"}
	for in, want := range map[string]string{
		"/home/u/src/app":          "~/src/app",
		"/home/u/my app":           "~/'my app'",
		"/home/u/it's":             `~/'it'\''s'`,
		"/tmp/a$b":                 "'/tmp/a$b'",
		"/tmp/x/.claude/wt/a+b@c":  "/tmp/x/.claude/wt/a+b@c",
		"/home/u":                  "~",
		"/home/user2/x":            "/home/user2/x",
		"/tmp/*":                   "'/tmp/*'",
		"/tmp/new\nline":           "'/tmp/new\nline'",
		"/home/u/~not-a-home/dir!": "~/'~not-a-home/dir!'",
	} {
		if got := e.ShellPath(in); got != want {
			t.Errorf("ShellPath(%q) = %q, want %q", in, got, want)
		}
		roundTrip(t, e, in)
	}
}

// FuzzShellPath: a shell reads every path back as it was.
func FuzzShellPath(f *testing.F) {
	for _, s := range []string{"/home/u/a b", "/x/'y'", "/home/u/$(rm -rf ~)", "/a\\b", "/home/u"} {
		f.Add(s)
	}
	e := Env{"HOME": "/home/u"}
	f.Fuzz(func(t *testing.T, p string) {
		if !strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) || !utf8.ValidString(p) {
			return
		}
		roundTrip(t, e, p)
	})
}

func roundTrip(t *testing.T, e Env, p string) {
	t.Helper()
	word := e.ShellPath(p)
	cmd := exec.Command("sh", "-c", "printf %s "+word)
	cmd.Env = []string{"HOME=" + e.Home(), "PATH=/usr/bin:/bin"}
	out, err := cmd.Output()
	if err != nil || string(out) != p {
		t.Errorf("sh reads ShellPath(%q) = %s back as %q (%v)", p, word, out, err)
	}
}
