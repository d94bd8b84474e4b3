package binding

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/env"
)

func id(s string) string { return s }

func TestMatchLongestPrefix(t *testing.T) {
	bs := []Binding{
		{Dir: "/home/u/work", Account: "work"},
		{Dir: "/home/u/work/app", Account: "app"},
		{Dir: "/", Account: "root"},
		{Dir: "/home/u/workshop", Account: "shop"},
	}
	for dir, want := range map[string]string{
		"/home/u/work":         "work",
		"/home/u/work/x":       "work",
		"/home/u/work/app":     "app",
		"/home/u/work/app/src": "app",
		"/home/u/work/apple":   "work", // a name prefix is not a path prefix
		"/home/u/workshop/a":   "shop",
		"/home/u":              "root",
		"/":                    "root",
	} {
		got, ok := Match(bs, dir, id)
		if !ok || got.Account != want {
			t.Errorf("Match(%q) = %q, %v; want %q", dir, got.Account, ok, want)
		}
	}
	if _, ok := Match(bs[:2], "/home/u/other", id); ok {
		t.Error("Match outside every binding found one")
	}
}

func TestMatchDeclaredWinsOnSameDir(t *testing.T) {
	bs := []Binding{{Dir: "/w", Account: "mine"}, {Dir: "/w", Account: "nix", Declared: true}}
	if got, _ := Match(bs, "/w/x", id); got.Account != "nix" {
		t.Errorf("got %q, want the declared nix", got.Account)
	}
}

func TestParseRoundTrip(t *testing.T) {
	in := []Binding{{Dir: `/a b/"q"`, Account: "x"}, {Dir: "~/work", Account: "w-1"}}
	out, err := Parse(Format(in), "f")
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0].Dir != `/a b/"q"` || out[1].Dir != "~/work" || out[1].Account != "w-1" {
		t.Errorf("round trip: %+v", out)
	}
}

func TestParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		`"/a" "x"`:          "f:1:6: expected \"=\"",
		"\n\"rel\" = \"x\"": "f:2:1: directory \"rel\" is not absolute",
		`"/a" = "X"`:        "f:1:8: account name \"X\" is not valid",
		`"/a = "x"`:         "f:1:",
		`/a = "x"`:          "f:1:1: the directory: expected a string",
		`"/a" = "x" y`:      "f:1:12: unexpected text",
	} {
		_, err := Parse([]byte(in), "f")
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q) = %v; want prefix %q", in, err, want)
		}
	}
}

func TestBindUnbindSymlink(t *testing.T) {
	tmp := t.TempDir()
	e := env.Env{"HOME": tmp, "XDG_CONFIG_HOME": filepath.Join(tmp, "cfg")}
	real := filepath.Join(tmp, "real")
	if err := os.MkdirAll(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Bind(e, Canonical(link), "w"); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{real, link, filepath.Join(link, "sub")} {
		b, ok, err := Lookup(e, dir)
		if err != nil || !ok || b.Account != "w" {
			t.Errorf("Lookup(%s) = %+v %v %v", dir, b, ok, err)
		}
	}
	if acct, ok, err := Unbind(e, Canonical(real)); err != nil || !ok || acct != "w" {
		t.Fatalf("Unbind = %q %v %v", acct, ok, err)
	}
	if _, ok, _ := Lookup(e, real); ok {
		t.Error("still bound after unbind")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("# c\n\"/a\" = \"x\"\n\"~/w\"\t=\t\"y-1\"\r\n"), "/a/b")
	f.Add([]byte(`"/\u00e9" = "z"`), "/é")
	f.Add([]byte(`"/a" = `), "/")
	f.Fuzz(func(t *testing.T, data []byte, dir string) {
		bs, err := Parse(data, "f")
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans lines: %q", err)
			}
			return
		}
		// What parses formats and parses back to the same bindings.
		again, err := Parse(Format(bs), "f")
		if err != nil || len(again) != len(bs) {
			t.Fatalf("Format output does not parse back: %v", err)
		}
		// A match is a binding whose directory is a path prefix of dir,
		// and no longer such prefix exists.
		dir = filepath.Clean("/" + dir)
		b, ok := Match(bs, dir, filepath.Clean)
		for _, x := range bs {
			root := filepath.Clean(x.Dir)
			if Within(dir, root) && (!ok || len(root) > len(filepath.Clean(b.Dir))) {
				t.Fatalf("Match(%q) = %+v, %v; missed longer %q", dir, b, ok, x.Dir)
			}
		}
		if ok && !Within(dir, filepath.Clean(b.Dir)) {
			t.Fatalf("Match(%q) = %q, not a prefix", dir, b.Dir)
		}
	})
}

// The Nix module writes bindings.declared with builtins.toJSON
// (nix/lib/bindings.nix, tested in nix/tests/bindings.nix): this is its output.
func TestParseNixOutput(t *testing.T) {
	nix := "# Declared by the claude-account Nix module (programs.claude-code.accounts.<name>.directories).\n" +
		"\"/home/u/oss/x\" = \"max\"\n\"/home/u/work\" = \"work\"\n"
	bs, err := Parse([]byte(nix), "bindings.declared")
	if err != nil || len(bs) != 2 || bs[1].Dir != "/home/u/work" || bs[1].Account != "work" {
		t.Fatalf("Parse = %+v, %v", bs, err)
	}
}

// BenchmarkLookup is what a launch with no named account adds: read both
// files (ten bindings) and match the working directory, symlinks resolved.
func BenchmarkLookup(b *testing.B) {
	tmp := b.TempDir()
	e := env.Env{"HOME": tmp, "XDG_CONFIG_HOME": filepath.Join(tmp, "cfg")}
	for i := 0; i < 10; i++ {
		d := filepath.Join(tmp, "src", strings.Repeat("d", i+1))
		os.MkdirAll(d, 0o755)
		if _, err := Bind(e, Canonical(d), "acct"); err != nil {
			b.Fatal(err)
		}
	}
	dir := filepath.Join(tmp, "src", "ddddd", "x", "y")
	os.MkdirAll(dir, 0o755)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok, err := Lookup(e, dir); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

// TestBindConcurrent: twenty binds at once, each of its own directory, all
// land in the file.
func TestBindConcurrent(t *testing.T) {
	root := t.TempDir()
	e := env.Env{"HOME": root, "XDG_CONFIG_HOME": filepath.Join(root, "config"), "XDG_RUNTIME_DIR": filepath.Join(root, "run")}
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if _, err := Bind(e, filepath.Join(root, fmt.Sprintf("d%d", i)), "max"); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	bs, err := Read(Path(e))
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 20 {
		t.Fatalf("%d of 20 bindings kept: concurrent binds lost each other's", len(bs))
	}
}

// TestNameLimitIsAccounts: this package repeats account.ValidateName to stay
// a leaf; its limit must be the same.
func TestNameLimitIsAccounts(t *testing.T) {
	if maxNameLen != account.MaxNameLen {
		t.Fatalf("binding allows account names of %d characters, account %d", maxNameLen, account.MaxNameLen)
	}
}
