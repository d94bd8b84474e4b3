package gitcmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseWorktrees(t *testing.T) {
	out := "worktree /b/repos/o__r.git\nbare\n\n" +
		"worktree /b/worktrees/o__r/main\nHEAD 1234\nbranch refs/heads/main\n\n" +
		"worktree /b/worktrees/o__r/x\nHEAD 1234\ndetached\nlocked\nprunable gitdir file points to non-existent location\n"
	want := []Worktree{
		{Path: "/b/repos/o__r.git", Bare: true},
		{Path: "/b/worktrees/o__r/main", HEAD: "1234", Branch: "refs/heads/main"},
		{Path: "/b/worktrees/o__r/x", HEAD: "1234", Detached: true, Locked: true, Prunable: true},
	}
	if got := ParseWorktrees([]byte(out)); !reflect.DeepEqual(got, want) {
		t.Errorf("ParseWorktrees = %+v, want %+v", got, want)
	}
	if got := ParseWorktrees([]byte("HEAD 1234\nbranch refs/heads/x\n")); got != nil {
		t.Errorf("lines before any worktree gave %+v", got)
	}
}

// The ignored entries only; a rename's old path, which may read as one, not.
func TestParseIgnored(t *testing.T) {
	out := "1 .M N... 100644 100644 100644 a b f\x00" +
		"2 R. N... 100644 100644 100644 a b R100 new\x00! not-ignored-old\x00" +
		"? untracked\x00! secrets.local\x00! node_modules/\x00! we ird\nname\x00! \x00"
	want := []string{"secrets.local", "node_modules/", "we ird\nname"}
	if got := ParseIgnored([]byte(out)); !reflect.DeepEqual(got, want) {
		t.Errorf("ParseIgnored(%q) = %q, want %q", out, got, want)
	}
}

func TestParseStatus(t *testing.T) {
	for in, want := range map[string]Status{
		"# branch.oid abc\n# branch.head main\n":                       {},
		"# branch.head main\n# branch.ab +2 -0\n":                      {Upstream: true, Ahead: 2},
		"# branch.ab +0 -3\n1 .M N... 100644 100644 100644 a b file\n": {Changed: 1, Upstream: true, Behind: 3},
		"# branch.head main\n? untracked\n":                            {Changed: 1},
		"# branch.ab +1 -1\n":                                          {Upstream: true, Ahead: 1, Behind: 1},
		"1 .M N... 100644 100644 100644 a b f\n? u\n2 R. N... 100644 100644 100644 a b R100 new\told\nu UU N... 100644 100644 100644 100644 a b c f\n": {Changed: 4},
		"# branch.ab +-2 -x\n": {Upstream: true},
	} {
		if got := ParseStatus([]byte(in)); got != want {
			t.Errorf("ParseStatus(%q) = %+v, want %+v", in, got, want)
		}
	}
}

// TestPorcelainOfRealGit reads what git prints: a linked worktree, locked
// and detached, and a branch ahead of and behind its upstream with a
// change, an untracked file and a file with a newline in its name.
func TestPorcelainOfRealGit(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	g := Git{Dir: f.repo, Env: f.env}
	linked := filepath.Join(f.dir, "linked")
	f.git(f.repo, "worktree", "add", "-q", "--detach", linked)
	f.git(f.repo, "worktree", "lock", linked)
	out, _, err := g.Run(ctx, nil, "worktree", "list", "--porcelain")
	if err != nil {
		t.Fatal(err)
	}
	head := strings.TrimSpace(f.git(f.repo, "rev-parse", "HEAD"))
	real := func(p string) string { // git prints paths resolved
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	want := []Worktree{
		{Path: real(f.repo), HEAD: head, Branch: "refs/heads/main"},
		{Path: real(linked), HEAD: head, Detached: true, Locked: true},
	}
	if got := ParseWorktrees(out); !reflect.DeepEqual(got, want) {
		t.Errorf("ParseWorktrees(%q) = %+v, want %+v", out, got, want)
	}

	f.git(f.repo, "branch", "up")
	f.git(f.repo, "commit", "-q", "--allow-empty", "-m", "ahead")
	f.git(f.repo, "checkout", "-q", "up")
	f.git(f.repo, "commit", "-q", "--allow-empty", "-m", "behind 1")
	f.git(f.repo, "commit", "-q", "--allow-empty", "-m", "behind 2")
	f.git(f.repo, "checkout", "-q", "main")
	f.git(f.repo, "branch", "-q", "--set-upstream-to=up")
	f.write("repo/README", "changed\n")
	f.write("repo/new\nline", "x\n")
	out, _, err = g.Run(ctx, nil, "status", "--porcelain=v2", "--branch")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ParseStatus(out), (Status{Changed: 2, Upstream: true, Ahead: 1, Behind: 2}); got != want {
		t.Errorf("ParseStatus(%q) = %+v, want %+v", out, got, want)
	}
	if err := os.Remove(filepath.Join(f.repo, "new\nline")); err != nil {
		t.Fatal(err)
	}
	f.git(f.repo, "branch", "-q", "--unset-upstream")
	out, _, err = g.Run(ctx, nil, "status", "--porcelain=v2", "--branch")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ParseStatus(out), (Status{Changed: 1}); got != want {
		t.Errorf("ParseStatus(%q) = %+v, want %+v", out, got, want)
	}

	// What git ignores: a file matched by a pattern, one in a directory
	// that is not, a directory matched whole (listed once, as a directory),
	// a name with a newline; not an untracked file, nor a renamed one.
	f.write("repo/.gitignore", "*.local\nbuild/\n")
	f.write("repo/secrets.local", "x\n")
	f.write("repo/d/e/deep.local", "x\n")
	f.write("repo/build/out/a", "x\n")
	f.write("repo/new\nline.local", "x\n")
	f.git(f.repo, "mv", "README", "README2")
	out, _, err = g.Run(ctx, nil, "status", "--porcelain=v2", "-z", "--ignored=matching")
	if err != nil {
		t.Fatal(err)
	}
	want2 := []string{"build/", "d/e/deep.local", "new\nline.local", "secrets.local"}
	if got := ParseIgnored(out); !reflect.DeepEqual(got, want2) {
		t.Errorf("ParseIgnored(%q) = %q, want %q", out, got, want2)
	}
}

// printWorktrees is what git prints for list.
func printWorktrees(list []Worktree) []byte {
	var b strings.Builder
	for _, w := range list {
		fmt.Fprintf(&b, "worktree %s\n", w.Path)
		if w.HEAD != "" {
			fmt.Fprintf(&b, "HEAD %s\n", w.HEAD)
		}
		if w.Branch != "" {
			fmt.Fprintf(&b, "branch %s\n", w.Branch)
		}
		for _, flag := range []struct {
			on   bool
			name string
		}{{w.Bare, "bare"}, {w.Detached, "detached"}, {w.Locked, "locked"}, {w.Prunable, "prunable"}} {
			if flag.on {
				b.WriteString(flag.name + "\n")
			}
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// printStatus is what git prints for st.
func printStatus(st Status) []byte {
	var b strings.Builder
	b.WriteString("# branch.oid 1234\n# branch.head main\n")
	if st.Upstream {
		fmt.Fprintf(&b, "# branch.upstream up\n# branch.ab +%d -%d\n", st.Ahead, st.Behind)
	}
	for i := 0; i < st.Changed; i++ {
		fmt.Fprintf(&b, "? file%d\n", i)
	}
	return []byte(b.String())
}
