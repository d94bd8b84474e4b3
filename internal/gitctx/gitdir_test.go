package gitctx

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestParseGitFile(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"gitdir: /a/b\n", "/a/b"},
		{"gitdir: /a/b", "/a/b"},
		{"gitdir: /a/b\r\n\n\r", "/a/b"},
		{"gitdir: ../.git/modules/rép o\n", "../.git/modules/rép o"},
		{"gitdir:  /a\n", " /a"},       // only one space belongs to the prefix
		{"gitdir: /a \n", "/a "},       // trailing blanks are part of the path
		{"gitdir: /a\x00junk\n", "/a"}, // git reads a C string
		{"gitdir: /a\nextra\n", "/a\nextra"},
		{"gitdir:/a\n", ""},
		{"GITDIR: /a\n", ""},
		{"gitdir: \n", ""},
		{"gitdir: \x00/a\n", ""},
		{"gitdir: \n\x00", "\n"}, // trimmed before the cut at NUL, as git does
		{"", ""},
		{"\xef\xbb\xbfgitdir: /a\n", ""},
	} {
		got, err := parseGitFile([]byte(c.in))
		if c.want == "" {
			if err == nil || !errors.Is(err, errBadGitFile) {
				t.Errorf("parseGitFile(%q) = %q, %v; want errBadGitFile", c.in, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("parseGitFile(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// TestGitFileMatchesGit puts each .git file in front of a real repository
// and checks that Detect finds a repository exactly when git does.
func TestGitFileMatchesGit(t *testing.T) {
	r := newRepos(t)
	r.git(t, r.base, "init", "-q", "target")
	abs := r.path("target/.git")
	for i, content := range []string{
		"gitdir: " + abs + "\n",
		"gitdir: " + abs + "\r\n",
		"gitdir: " + abs,
		"gitdir: " + abs + "\n\n\n",
		"gitdir: " + abs + "\x00junk\n",
		"gitdir: ../target/.git\n",
		"gitdir:" + abs + "\n",
		"GITDIR: " + abs + "\n",
		"gitdir:  " + abs + "\n",
		"gitdir: " + abs + " \n",
		"gitdir: \n",
		"gitdir: " + r.path("target") + "\n", // a work tree, not a git dir
	} {
		w := filepath.Join(r.base, "w"+string(rune('a'+i)))
		if err := os.MkdirAll(w, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(w, ".git"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Detect(w, nil)
		if err != nil {
			t.Errorf("%q: Detect: %v", content, err)
			continue
		}
		gitDir, gitErr := r.run(w, nil, "rev-parse", "--absolute-git-dir")
		switch {
		case gitErr != nil && got.Kind != NotGit:
			t.Errorf("%q: git fails (%v) but Detect finds %+v", content, gitErr, got)
		case gitErr == nil && got.GitDir != gitDir:
			t.Errorf("%q: git finds %s, Detect %+v", content, gitDir, got)
		case got.Kind == NotGit && len(got.Notes) != 1:
			t.Errorf("%q: NotGit without a note: %+v", content, got)
		}
	}
}

func TestValidHeadContent(t *testing.T) {
	for in, want := range map[string]bool{
		"ref: refs/heads/main\n":                     true,
		"ref:refs/heads/main":                        true,
		"ref: \t\nrefs/x":                            true,
		"ref: heads/main\n":                          false,
		"0123456789abcdef0123456789ABCDEF01234567\n": true,
		"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n": true,
		"0123456789abcdef0123456789abcdef0123456\n":                          false,
		"g123456789abcdef0123456789abcdef01234567":                           false,
		"": false,
	} {
		if got := validHeadContent([]byte(in)); got != want {
			t.Errorf("validHeadContent(%q) = %v, want %v", in, got, want)
		}
	}
}
