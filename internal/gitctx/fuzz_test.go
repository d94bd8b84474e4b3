package gitctx

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func FuzzParseGitFile(f *testing.F) {
	for _, s := range []string{
		"gitdir: /home/u/src/app/.git/worktrees/feature\n",
		"gitdir: ../.git/modules/rép o\r\n",
		"gitdir: /a\x00b\n",
		"gitdir:\n",
		"gitdir: \r\n\r\n",
		"GITDIR: /a",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := parseGitFile(data)
		if err != nil {
			if !errors.Is(err, errBadGitFile) {
				t.Fatalf("error %v does not wrap errBadGitFile", err)
			}
			if got != "" {
				t.Fatalf("error %v with path %q", err, got)
			}
			return
		}
		// The path is what follows the prefix, verbatim, cut at a NUL.
		if !bytes.HasPrefix(data, []byte("gitdir: ")) || !bytes.HasPrefix(data[8:], []byte(got)) {
			t.Fatalf("path %q is not the text after the prefix of %q", got, data)
		}
		if got == "" || strings.IndexByte(got, 0) >= 0 {
			t.Fatalf("bad path %q from %q", got, data)
		}
		// Line ends are trimmed before the cut at a NUL, as in git, so
		// "gitdir: \n\x00" is the path "\n"; without a NUL none are left.
		if bytes.IndexByte(data, 0) < 0 && strings.TrimRight(got, "\r\n") != got {
			t.Fatalf("path %q from %q keeps a line end", got, data)
		}
		if strings.TrimRight(got, "\r\n") != got {
			return
		}
		// Round trip: what git writes, we read back.
		again, err := parseGitFile([]byte("gitdir: " + got + "\n"))
		if err != nil || again != got {
			t.Fatalf("round trip of %q gives %q, %v", got, again, err)
		}
	})
}

func FuzzParseConfig(f *testing.F) {
	for _, c := range configCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := parseConfig(data)
		if err != nil {
			var ce *configError
			if !errors.As(err, &ce) || ce.line < 1 || ce.line > bytes.Count(data, []byte("\n"))+1 {
				t.Fatalf("error %#v has no line in the file", err)
			}
		}
		if cfg.hasWorktree != (cfg.worktree != "") {
			t.Fatalf("worktree %q but hasWorktree %v", cfg.worktree, cfg.hasWorktree)
		}
		if cfg.bare < boolUnset || cfg.bare > boolTrue {
			t.Fatalf("bare = %d", cfg.bare)
		}
		// Nothing outside a [core] header can set anything.
		if !bytes.Contains(bytes.ToLower(data), []byte("core")) && (cfg.bare != boolUnset || cfg.hasWorktree) {
			t.Fatalf("values %+v without a core section", cfg)
		}
		// Round trip: write the values back as git would, read them again.
		var b strings.Builder
		b.WriteString("[core]\n")
		switch cfg.bare {
		case boolTrue:
			b.WriteString("\tbare = true\n")
		case boolFalse:
			b.WriteString("\tbare = false\n")
		}
		if cfg.hasWorktree {
			b.WriteString("\tworktree = " + quoteConfig(cfg.worktree) + "\n")
		}
		again, err := parseConfig([]byte(b.String()))
		if err != nil || again != cfg {
			t.Fatalf("round trip of %+v through %q gives %+v, %v", cfg, b.String(), again, err)
		}
	})
}

// quoteConfig quotes a value the way git config writes one that needs it.
func quoteConfig(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\b", `\b`)
	return `"` + r.Replace(v) + `"`
}
