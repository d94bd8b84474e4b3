package worktree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/claude-account/claude-account/internal/gitcmd"
)

// FuzzDefaultBase: whatever a repository's refs/remotes/origin/HEAD and
// HEAD hold (they are files of the repository), the default base never
// reads as an option to git and holds no control character; from a
// symbolic ref it is a valid ref's name.
func FuzzDefaultBase(f *testing.F) {
	for _, s := range [][2]string{
		{"ref: refs/remotes/origin/main\n", "ref: refs/heads/main\n"},
		{"ref: refs/remotes/--output=x\n", "ref: refs/heads/main\n"},
		{"ref: refs/remotes/origin/main\nref: x", "ref: refs/heads/--x\n"},
		{"ref: refs/heads/main", "ref: refs/heads/a..b"},
		{"", "ref: refs/remotes/origin/-x"},
		{"ref: refs/remotes/a\x1b[31m", "0123456789012345678901234567890123456789\n"},
	} {
		f.Add(s[0], s[1], false)
	}
	f.Fuzz(func(t *testing.T, originHead, head string, bare bool) {
		common := t.TempDir()
		write := func(rel, data string) {
			p := filepath.Join(common, filepath.FromSlash(rel))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte(data), 0o644)
		}
		write("HEAD", head)
		if originHead != "" {
			write("refs/remotes/origin/HEAD", originHead)
		}
		// The refs they may name exist, so that each is taken.
		for _, data := range []string{originHead, head} {
			if target, ok := strings.CutPrefix(strings.TrimSpace(data), "ref: "); ok && gitcmd.CheckRefName(target) == nil {
				write(target, strings.Repeat("0", 40)+"\n")
			}
		}
		// git itself is never reached from a symbolic HEAD; a detached one
		// asks it, which fails here (no such dir) and gives "HEAD".
		r := &Repo{Common: common, Bare: bare, Git: Git{Dir: filepath.Join(common, "nowhere")}}
		base := r.defaultBase()
		if strings.HasPrefix(base, "-") || strings.ContainsFunc(base, unicode.IsControl) {
			t.Fatalf("defaultBase = %q from origin/HEAD %q and HEAD %q", base, originHead, head)
		}
		if strings.HasPrefix(base, "refs/") && gitcmd.CheckRefName(base) != nil {
			t.Fatalf("defaultBase = %q, no valid ref", base)
		}
	})
}
