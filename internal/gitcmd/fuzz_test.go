package gitcmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/env"
)

// configTexts are configuration files as repositories carry them, plain
// and hostile, for the soundness check of Names.
var configTexts = []string{
	"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n[remote \"origin\"]\n\turl = https://github.com/o/r\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n",
	"[filter \"x\"]\n\tclean = touch m\n",
	"[FILTER \"x\"]\n\tCLEAN=touch m\n",
	"[filter.x]smudge = touch m",
	"[filter \"x\"] process = touch m\n",
	"\xef\xbb\xbf[merge \"x\"]\r\n\tdriver = touch m\r\n",
	"[diff \"x\"]\n\ttextconv\n",
	"[diff]\n\texternal = touch m ; comment\n",
	"[core]\n\tsshCommand = \"touch m\"\n\taskPass = a\n\tgitProxy = p\n\talternateRefsCommand = a\n",
	"[credential \"https://a.b\"]\n\thelper = !touch m\n",
	"[remote \"o\"]\n\tuploadpack = touch m\n\tvcs = ext\n\treceivepack = r\n",
	"[protocol \"ext\"]\n\tallow = always\n[protocol]\n\tallow = always\n",
	"[submodule \"lib\"]\n\tupdate = !touch m\n",
	"[hook \"lint\"]\n\tcommand = touch m\n\tevent = post-checkout\n",
	"[include]\n\tpath = ../evil\n[includeIf \"gitdir:/\"]\n\tpath = x\n",
	"[core]\n\tlogallrefupdates = true\n\tskipDefaultUpdate = x\n",
	"[a \"filter\"]\n\tx = clean\n",
	"[core] x = 1\n[filter \"a]b\\\" c\"]\n\tclean = m\n",
	"[filter-x]\n\tclean-up = m\n",
}

// touched reports whether Neutralise acts on a key the repository sets.
func touched(key string) bool {
	p := Neutralise([]Entry{{Scope: "local", Key: key, Value: "!v", HasValue: true}}, nil, env.Env{})
	return len(p.Settings)+len(p.Env)+len(p.UploadPack) > 0
}

// namesOracle checks Names against git: when git reads from data a key
// Neutralise acts on, or an include, Names must say so. Data git refuses
// makes every git command fail, so it needs nothing.
func namesOracle(t *testing.T, dir string, data []byte) {
	t.Helper()
	file := filepath.Join(dir, "config")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "config", "--file", file, "--no-includes", "--list", "--name-only", "-z")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1"}
	out, err := cmd.Output()
	if err != nil {
		return
	}
	for _, key := range strings.Split(string(out), "\x00") {
		if key == "" {
			continue
		}
		section, _, _ := strings.Cut(key, ".")
		if (touched(key) || section == "include" || section == "includeif") && !Names(data) {
			t.Fatalf("Names says no for %q, where git reads %q", data, key)
		}
	}
}

func TestNamesAgainstGit(t *testing.T) {
	dir := t.TempDir()
	for _, c := range configTexts {
		namesOracle(t, dir, []byte(c))
	}
	// The plain configuration of a clone needs no listing.
	if Names([]byte(configTexts[0])) {
		t.Error("Names says yes for a plain clone's configuration")
	}
}

// FuzzNames checks Names against git itself (a process per input: slow,
// and thorough).
func FuzzNames(f *testing.F) {
	for _, c := range configTexts {
		f.Add([]byte(c))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		namesOracle(t, dir, data)
	})
}

// FuzzParseList: whatever git prints (or anything else), ParseList either
// refuses it or gives entries that print back to the same bytes.
func FuzzParseList(f *testing.F) {
	f.Add([]byte("system\x00credential.helper\nstore\x00local\x00filter.x.clean\ntouch m\x00local\x00filter.y.smudge\x00"))
	f.Add([]byte("command\x00credential.https://a.b.helper\n\x00worktree\x00core.x\nline one\nline two\x00"))
	f.Add([]byte("local\x00filter.a=b\x00c.clean\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		list, err := ParseList(data)
		if err != nil {
			return
		}
		var b bytes.Buffer
		for _, e := range list {
			if !validKey(e.Key) || strings.ContainsAny(e.Key, "\x00\n") || strings.Contains(e.Value, "\x00") {
				t.Fatalf("entry %+v from %q", e, data)
			}
			b.WriteString(e.Scope + "\x00" + e.Key)
			if e.HasValue {
				b.WriteString("\n" + e.Value)
			} else if e.Value != "" {
				t.Fatalf("entry %+v has a value but no '='", e)
			}
			b.WriteByte(0)
		}
		if !bytes.Equal(b.Bytes(), data) {
			t.Fatalf("ParseList(%q) prints back as %q", data, b.Bytes())
		}
		// Whatever the repository's entries, the plan sets no key outside
		// the sections of the package comment.
		p := Neutralise(list, nil, env.Env{})
		for _, s := range p.Settings {
			section, _, _ := strings.Cut(s.Key, ".")
			switch section {
			case "filter", "merge", "diff", "hook", "credential", "core", "protocol", "submodule":
			default:
				t.Fatalf("plan sets %q", s.Key)
			}
		}
	})
}

// refnameDisposition is git's table of what each byte does in a ref name
// (refs.c, 2.39): 0 fine, 1 ends the component, 2 '.', 3 '{', 4 never,
// 5 '*'.
var refnameDisposition = [256]byte{
	1, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 2, 1,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 4,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 0, 4, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 4, 4,
}

// gitCheckRefName is a line-by-line port of git's check_refname_format
// (flags 0) on a C string: the oracle CheckRefName is fuzzed against.
func gitCheckRefName(name string) bool {
	if i := strings.IndexByte(name, 0); i >= 0 {
		return false // we refuse what git would cut short
	}
	if name == "@" {
		return false
	}
	s := name + "\x00"
	count := 0
	pos := 0
	var clen int
	for {
		// check_refname_component
		last := byte(0)
		cp := pos
		for ; ; cp++ {
			ch := s[cp]
			switch refnameDisposition[ch] {
			case 1:
				goto out
			case 2:
				if last == '.' {
					return false
				}
			case 3:
				if last == '@' {
					return false
				}
			case 4, 5:
				return false
			}
			last = ch
		}
	out:
		clen = cp - pos
		if clen == 0 || s[pos] == '.' || clen >= 5 && s[cp-5:cp] == ".lock" {
			return false
		}
		count++
		if s[pos+clen] == 0 {
			break
		}
		pos += clen + 1
	}
	if s[pos+clen-1] == '.' {
		return false
	}
	return count >= 2
}

var refNames = []string{
	"refs/heads/main", "refs/remotes/origin/main", "refs/remotes/--output=x", "refs/heads/-x",
	"main", "refs/heads/", "/refs/heads/a", "refs//a", "refs/heads/a.lock", "refs/heads/.a",
	"refs/heads/a..b", "refs/heads/a@{1}", "refs/heads/a b", "refs/heads/a~1", "refs/heads/a^",
	"refs/heads/a:b", "refs/heads/a?", "refs/heads/a[", "refs/heads/a\\b", "refs/heads/a*",
	"refs/heads/a.", "@", "refs/heads/@", "refs/heads/é", "refs/heads/a\x7f", "refs/heads/a\tb",
	"refs/heads/a/.lock/b", "refs/heads/{x}", "refs/heads/a@b", "refs/heads/x.lockx",
}

// TestCheckRefNameAgainstGit compares with git check-ref-format itself.
func TestCheckRefNameAgainstGit(t *testing.T) {
	for _, n := range refNames {
		gitOK := exec.Command("git", "check-ref-format", n).Run() == nil
		if got := CheckRefName(n) == nil; got != gitOK {
			t.Errorf("CheckRefName(%q) ok = %v, git check-ref-format says %v", n, got, gitOK)
		}
		if got := gitCheckRefName(n); got != gitOK {
			t.Errorf("the port of git says %v for %q, git %v", got, n, gitOK)
		}
	}
}

func FuzzCheckRefName(f *testing.F) {
	for _, n := range refNames {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := CheckRefName(name)
		if want := gitCheckRefName(name); (err == nil) != want {
			t.Fatalf("CheckRefName(%q) = %v, git's rules say ok=%v", name, err, want)
		}
		if err != nil {
			return
		}
		// A valid name under the prefix never reads as an option once
		// shortened.
		for _, prefix := range []string{"refs/heads/", "refs/remotes/", "refs/"} {
			if s := ShortRef(name, prefix); strings.HasPrefix(name, prefix) && strings.HasPrefix(s, "-") {
				t.Fatalf("ShortRef(%q, %q) = %q", name, prefix, s)
			}
		}
	})
}

func TestShortRef(t *testing.T) {
	for _, c := range [][3]string{
		{"refs/remotes/origin/main", "refs/remotes/", "origin/main"},
		{"refs/remotes/--output=x", "refs/remotes/", "refs/remotes/--output=x"},
		{"refs/heads/main", "refs/remotes/", "refs/heads/main"},
		{"refs/heads/", "refs/heads/", "refs/heads/"},
	} {
		if got := ShortRef(c[0], c[1]); got != c[2] {
			t.Errorf("ShortRef(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// FuzzParseWorktrees: whatever git prints (or anything else), ParseWorktrees
// gives one entry for each "worktree" line, and the entries read back the
// same from what git would print for them.
func FuzzParseWorktrees(f *testing.F) {
	f.Add([]byte("worktree /r.git\nbare\n\nworktree /w/main\nHEAD 1234\nbranch refs/heads/main\n\n"))
	f.Add([]byte("worktree /w/x\nHEAD 1234\ndetached\nlocked reason\nprunable gitdir file points to non-existent location\n"))
	f.Add([]byte("HEAD 1\nworktree\nworktree a b\nbranch\n\x00\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		list := ParseWorktrees(data)
		n := 0
		for _, line := range bytes.Split(data, []byte{'\n'}) {
			if k, _, _ := bytes.Cut(line, []byte{' '}); string(k) == "worktree" {
				n++
			}
		}
		if len(list) != n {
			t.Fatalf("ParseWorktrees(%q) gave %d entries for %d worktree lines", data, len(list), n)
		}
		for _, w := range list {
			if strings.Contains(w.Path+w.HEAD+w.Branch, "\n") {
				t.Fatalf("ParseWorktrees(%q): entry %+v spans lines", data, w)
			}
		}
		if again := ParseWorktrees(printWorktrees(list)); !reflect.DeepEqual(again, list) {
			t.Fatalf("ParseWorktrees(%q) = %+v, but printed it reads %+v", data, list, again)
		}
	})
}

// FuzzParseStatus: whatever git prints (or anything else), ParseStatus
// counts no more entries than lines, no negative commits, and reads back the
// same from what git would print for it.
func FuzzParseStatus(f *testing.F) {
	f.Add([]byte("# branch.oid abc\n# branch.head main\n# branch.upstream origin/main\n# branch.ab +2 -1\n1 .M N... 100644 100644 100644 a b f\n? u\n"))
	f.Add([]byte("# branch.ab +-2 -99999999999999999999999\n2 R. N... 100644 100644 100644 a b R100 new\told\n"))
	f.Add([]byte("#\n\n? \"new\\nline\"\nu UU"))
	f.Fuzz(func(t *testing.T, data []byte) {
		st := ParseStatus(data)
		if st.Ahead < 0 || st.Behind < 0 || st.Changed < 0 || st.Changed > bytes.Count(data, []byte{'\n'})+1 {
			t.Fatalf("ParseStatus(%q) = %+v", data, st)
		}
		if !st.Upstream && (st.Ahead != 0 || st.Behind != 0) {
			t.Fatalf("ParseStatus(%q) = %+v: commits without an upstream", data, st)
		}
		if st.Changed > 1<<16 {
			return
		}
		if again := ParseStatus(printStatus(st)); again != st {
			t.Fatalf("ParseStatus(%q) = %+v, but printed it reads %+v", data, st, again)
		}
	})
}

// FuzzParseIgnored: whatever git prints (or anything else), ParseIgnored
// gives no more paths than records, none empty or holding a NUL, and reads
// back the same from what git would print for them.
func FuzzParseIgnored(f *testing.F) {
	f.Add([]byte("? u\x00! secrets.local\x00! node_modules/\x00"))
	f.Add([]byte("2 R. N... 100644 100644 100644 a b R100 new\x00! old\x00! x\n\x00"))
	f.Add([]byte("! \x00!\x002 \x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		paths := ParseIgnored(data)
		if len(paths) > bytes.Count(data, []byte{0})+1 {
			t.Fatalf("ParseIgnored(%q) gave %d paths", data, len(paths))
		}
		var b bytes.Buffer
		for _, p := range paths {
			if p == "" || strings.Contains(p, "\x00") {
				t.Fatalf("ParseIgnored(%q) gave path %q", data, p)
			}
			b.WriteString("! " + p + "\x00")
		}
		if again := ParseIgnored(b.Bytes()); !reflect.DeepEqual(again, paths) {
			t.Fatalf("ParseIgnored(%q) = %q, but printed it reads %q", data, paths, again)
		}
	})
}
