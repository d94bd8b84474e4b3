package clone

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/env"
)

func TestBase(t *testing.T) {
	for _, c := range []struct {
		env  env.Env
		want string
		err  bool
	}{
		{env.Env{"HOME": "/h"}, "/h/.local/share/claude-account", false},
		{env.Env{"HOME": "/h", "XDG_DATA_HOME": "/d"}, "/d/claude-account", false},
		{env.Env{"HOME": "/h", "XDG_DATA_HOME": "rel"}, "/h/.local/share/claude-account", false},
		{env.Env{"HOME": "/h", "XDG_DATA_HOME": "/d", "CLAUDE_ACCOUNT_BASE": "/b/"}, "/b", false},
		{env.Env{"HOME": "/h", "CLAUDE_ACCOUNT_BASE": "~/b"}, "", true},
	} {
		got, err := Base(c.env)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("Base(%v) = %q, %v; want %q, error %v", c.env, got, err, c.want, c.err)
		}
	}
}

func TestLayout(t *testing.T) {
	l := Layout{Base: "/b"}
	s := Source{Name: "o__r"}
	if got := l.Repo(s); got != "/b/repos/o__r.git" {
		t.Errorf("Repo = %s", got)
	}
	if got := l.Worktree(s, "fix/x"); got != "/b/worktrees/o__r/fix+x" {
		t.Errorf("Worktree = %s", got)
	}
}

// fakeGit puts a git first on PATH that makes a partial repository when
// cloning, then, with FAKE_READY set, says so and hangs; with FAKE_RACE set,
// it also makes that directory, as a concurrent clone would.
func fakeGit(t *testing.T) {
	dir := t.TempDir()
	const script = `#!/bin/sh
while [ "${1#-}" != "$1" ]; do shift; done # --no-pager, --git-dir=…
case "$1" in
clone)
	eval "dest=\${$#}"
	mkdir -p "$dest/objects/pack" && echo half > "$dest/objects/pack/x.pack"
	if [ -n "$FAKE_RACE" ]; then mkdir -p "$FAKE_RACE/objects"; fi
	if [ -n "$FAKE_READY" ]; then : > "$FAKE_READY"; exec sleep 30; fi
	exit 0;;
esac
case "$1 $2" in
"symbolic-ref --quiet") echo main;;
"rev-parse --is-bare-repository") echo true;;
"rev-parse --verify") exit 1;;
"config --get") [ "$3" = remote.origin.url ] && echo "$FAKE_URL";;
esac
exit 0
`
	if err := os.WriteFile(filepath.Join(dir, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

func TestEnsureRepoInterrupted(t *testing.T) {
	fakeGit(t)
	base := t.TempDir()
	ready := filepath.Join(base, "ready")
	dest := filepath.Join(base, "repos", "o__r.git")
	src, _ := Parse("file:///x/o/r")
	g := Git{Env: append(os.Environ(), "FAKE_READY="+ready), Dir: base}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := EnsureRepo(ctx, g, dest, src)
		done <- err
	}()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the fake git clone did not start")
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("EnsureRepo = %v, want context.Canceled", err)
	}
	left, err := os.ReadDir(filepath.Dir(dest))
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("an interrupted clone left %v in %s", left, filepath.Dir(dest))
	}
}

func TestEnsureRepoRaced(t *testing.T) {
	fakeGit(t)
	base := t.TempDir()
	dest := filepath.Join(base, "repos", "o__r.git")
	src, _ := Parse("file:///x/o/r")
	g := Git{Env: append(os.Environ(), "FAKE_RACE="+dest, "FAKE_URL="+src.URL), Dir: base}
	r, err := EnsureRepo(context.Background(), g, dest, src)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Repo{Dir: dest, URL: src.URL}); r != want {
		t.Errorf("EnsureRepo = %+v, want the other clone fetched: %+v", r, want)
	}
	left, _ := os.ReadDir(filepath.Dir(dest))
	if len(left) != 1 || left[0].Name() != "o__r.git" {
		t.Errorf("repos/ holds %v, want only o__r.git", left)
	}
	if _, err := os.Stat(filepath.Join(dest, "objects", "pack", "x.pack")); err == nil {
		t.Errorf("our clone replaced the one that won the race")
	}
}
