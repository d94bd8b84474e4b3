package gitctx

import (
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var configCases = []struct {
	name, in string
	bare     tristate
	worktree string // "" for unset
	err      bool
}{
	{name: "empty", in: ""},
	{name: "plain", in: "[core]\n\tbare = true\n", bare: boolTrue},
	{name: "case", in: "[CoRe]\n\tBARE=TRUE\n", bare: boolTrue},
	{name: "bare key alone", in: "[core]\n\tbare\n", bare: boolTrue},
	{name: "bare key at end of file", in: "[core]\n\tbare", bare: boolTrue},
	{name: "empty value is false", in: "[core]\n\tbare =\n", bare: boolFalse},
	{name: "yes with comment", in: "[core]\n\tbare = yes # a comment\n", bare: boolTrue},
	{name: "quoted on", in: "[core]\n\tbare = \"on\" ; c\n", bare: boolTrue},
	{name: "off", in: "[core]\n\tbare = Off\n", bare: boolFalse},
	{name: "one", in: "[core]\n\tbare = 1\n", bare: boolTrue},
	{name: "zero", in: "[core]\n\tbare = 0\n", bare: boolFalse},
	{name: "unit", in: "[core]\n\tbare = 2k\n", bare: boolTrue},
	{name: "zero with unit", in: "[core]\n\tbare = 0g\n", bare: boolFalse},
	{name: "hex", in: "[core]\n\tbare = 0x10\n", bare: boolTrue},
	{name: "negative", in: "[core]\n\tbare = -1\n", bare: boolTrue},
	{name: "last wins", in: "[core]\nbare = false\n[remote \"o\"]\nurl = x\n[core]\nbare = true\n", bare: boolTrue},
	{name: "subsection is not core", in: "[core \"x\"]\n\tbare = true\n"},
	{name: "dotted section is not core", in: "[core.x]\n\tbare = true\n"},
	{name: "corex is not core", in: "[corex]\n\tbare = true\n[cor]\nbare = true\n"},
	{name: "key on header line", in: "[core] bare = true\n", bare: boolTrue},
	{name: "bom", in: "\xef\xbb\xbf[core]\nbare = true\n", bare: boolTrue},
	{name: "crlf", in: "[core]\r\n\tbare = true\r\n\tworktree = ../x\r\n", bare: boolTrue, worktree: "../x"},
	{name: "key before section", in: "bare = true\n[core]\n"},
	{name: "other keys", in: "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbarex = 1\n\tbar = 1\n\tworktrees = a\n", bare: boolUnset},
	{name: "submodule worktree", in: "[core]\n\tbare = false\n\tworktree = ../../../s\n", bare: boolFalse, worktree: "../../../s"},
	{name: "worktree with spaces", in: "[core]\n\tworktree = ../../rép o\n", worktree: "../../rép o"},
	{name: "worktree quoted", in: "[core]\n\tworktree = \"  spaced  \"\n", worktree: "  spaced  "},
	{name: "worktree escapes", in: "[core]\n\tworktree = a\\\\b\\\"c\\td\n", worktree: "a\\b\"c\td"},
	{name: "worktree continuation", in: "[core]\n\tworktree = a\\\nb\n", worktree: "ab"},
	{name: "inner blanks become spaces", in: "[core]\n\tworktree = a\t\tb  # c\n", worktree: "a  b"},
	{name: "hash inside quotes", in: "[core]\n\tworktree = \"a#b\"\n", worktree: "a#b"},
	{name: "subsection with escapes", in: "[core \"a\\\"b\"]\nbare = true\n[core]\nworktree = w\n", worktree: "w"},
	{name: "comments everywhere", in: "# c\n; c\n[core] # c\n\t; bare = true\n\tbare = false ; c\n", bare: boolFalse},

	{name: "bad boolean", in: "[core]\n\tbare = maybe\n", err: true},
	{name: "digit separator", in: "[core]\n\tbare = 1_0\n", err: true},
	{name: "unterminated header", in: "[core\n", err: true},
	{name: "empty header", in: "[]\nbare = true\n", err: true},
	{name: "space in header", in: "[ core]\n", err: true},
	{name: "unquoted subsection", in: "[core x]\n", err: true},
	{name: "comment after key", in: "[core]\n\tbare # c\n", err: true},
	{name: "unterminated quote", in: "[core]\n\tworktree = \"a\n", err: true},
	{name: "unknown escape", in: "[core]\n\tworktree = a\\q\n", err: true},
	{name: "key starts with digit", in: "[core]\n1bare = x\n", err: true},
	{name: "partial bom", in: "\xef\xbb[core]\n", err: true},
	{name: "worktree without value", in: "[core]\n\tworktree\n", err: true},
}

func TestParseConfig(t *testing.T) {
	for _, c := range configCases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := parseConfig([]byte(c.in))
			if (err != nil) != c.err {
				t.Fatalf("err = %v, want error %v", err, c.err)
			}
			if err != nil {
				var ce *configError
				if !errors.As(err, &ce) || ce.line < 1 || ce.line > strings.Count(c.in, "\n")+1 {
					t.Errorf("err = %#v, want a *configError with a line in the file", err)
				}
				return
			}
			if cfg.bare != c.bare {
				t.Errorf("bare = %v, want %v", cfg.bare, c.bare)
			}
			if cfg.hasWorktree != (c.worktree != "") || cfg.worktree != c.worktree {
				t.Errorf("worktree = %q (%v), want %q", cfg.worktree, cfg.hasWorktree, c.worktree)
			}
		})
	}
}

// TestParseConfigMatchesGit asks git config about the same files.
func TestParseConfigMatchesGit(t *testing.T) {
	r := newRepos(t)
	f := filepath.Join(r.root, "config")
	for _, c := range configCases {
		t.Run(c.name, func(t *testing.T) {
			want := r.coreConfig(t, f, c.in)
			if want.err != c.err {
				t.Fatalf("git rejects it: %v; the table says %v", want.err, c.err)
			}
			if !c.err && (c.bare != want.bare || c.worktree != want.worktree) {
				t.Errorf("the table says bare %v, worktree %q; git says %v, %q", c.bare, c.worktree, want.bare, want.worktree)
			}
		})
	}
}

// TestParseConfigRandomMatchesGit compares with git on generated files
// full of the parser's corner cases: quotes, escapes, comments, CRs,
// subsections, keys without values.
func TestParseConfigRandomMatchesGit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs git 900 times")
	}
	r := newRepos(t)
	f := filepath.Join(r.root, "config")
	rng := rand.New(rand.NewSource(1))
	pick := func(xs ...string) string { return xs[rng.Intn(len(xs))] }
	for i := 0; i < 300; i++ {
		var b strings.Builder
		for j := rng.Intn(6); j >= 0; j-- {
			if rng.Intn(5) == 0 {
				b.WriteString(pick("[core]", "[Core]", "[core \"x\"]", "[core.x]", "[remote \"o\"]", "[core] ") + pick("\n", "\r\n", " "))
				continue
			}
			b.WriteString(pick("", "\t", " ") + pick("bare", "BARE", "worktree", "WorkTree", "url", "bare2") + pick("", " ", "\t"))
			if rng.Intn(6) > 0 {
				b.WriteString("=" + pick("", " ", "\t"))
				for k := rng.Intn(5); k >= 0; k-- {
					b.WriteString(pick("true", "off", "0", "1k", "0x", "a", "é b", " ", "\t", `"`, `\\`, `\"`, `\n`, `\t`, "\\\n", "#c", ";c", "\r", "../x"))
				}
			}
			b.WriteString(pick("\n", "\r\n", "", "\n\n"))
		}
		in := b.String()
		got, err := parseConfig([]byte(in))
		want := r.coreConfig(t, f, in)
		if (err != nil) != want.err {
			t.Errorf("%q: error %v; git rejects it: %v", in, err, want.err)
		} else if err == nil && (got.bare != want.bare || got.worktree != want.worktree) {
			t.Errorf("%q: bare %v, worktree %q; git says %v, %q", in, got.bare, got.worktree, want.bare, want.worktree)
		}
	}
}

type gitCore struct {
	bare     tristate
	worktree string
	err      bool // git's repository setup would die on this file
}

// coreConfig writes content to file and asks git config for core.bare
// and core.worktree. Setup dies where git config fails to parse the file,
// on a bad boolean, and on a core.worktree without a value.
func (r *repos) coreConfig(t *testing.T, file, content string) gitCore {
	t.Helper()
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	var c gitCore
	if _, err := r.run(r.root, nil, "config", "--file", file, "--list"); err != nil {
		c.err = true
		return c
	}
	bare, err := r.run(r.root, nil, "config", "--file", file, "--type=bool", "--get", "core.bare")
	switch {
	case err != nil && strings.Contains(err.Error(), "bad boolean"):
		c.err = true
	case bare == "true":
		c.bare = boolTrue
	case bare == "false":
		c.bare = boolFalse
	}
	// -z keeps values' own newlines; every value counts, not just the last.
	out, err := r.run(r.root, nil, "config", "--file", file, "-z", "--get-all", "core.worktree")
	if err == nil {
		vals := strings.Split(out, "\x00")
		for _, v := range vals[:len(vals)-1] {
			c.worktree = v
			if v == "" {
				c.err = true
			}
		}
	}
	return c
}

func TestParseBool(t *testing.T) {
	for in, want := range map[string]int{
		"true": 1, "YES": 1, "On": 1, "1": 1, "-3": 1, "10m": 1, "0x1": 1, "010": 1,
		"false": 0, "No": 0, "OFF": 0, "": 0, "0": 0, "0k": 0, "00": 0,
		"\t0": 0, " +2": 1, "-0x10": 1, "0X0": 0, "2147483647": 1, "-2147483647": 1, "2097151k": 1, "1g": 1,
		"maybe": -1, "1x": -1, "k": -1, "1_0": -1, " true": -1, "0 ": -1, "08": -1, "0x": -1, "0b1": -1, "0o7": -1,
		"2147483648": -1, "-2147483648": -1, "2097152k": -1, "2g": -1, "99999999999999999999": -1, "+": -1, "1kk": -1,
	} {
		v, ok := parseBool(in)
		got := -1
		if ok {
			got = 0
			if v {
				got = 1
			}
		}
		if got != want {
			t.Errorf("parseBool(%q) = %v, %v; want %d", in, v, ok, want)
		}
	}
}
