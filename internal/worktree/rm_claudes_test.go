package worktree

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/claudeproc"
	"github.com/claude-account/claude-account/internal/gitctx"
)

// repoWith makes a repository with one commit and the ephemeral worktree
// agent-a0000001, an hour old.
func repoWith(t *testing.T) (*Repo, *Entry) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "repo")
	env := append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	for _, args := range [][]string{{"init", "-q", "-b", "main", dir}, {"-C", dir, "commit", "-q", "--allow-empty", "-m", "one"}} {
		cmd := exec.Command("git", args...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	ctx, err := gitctx.Detect(dir, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(ctx, "", env)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.New(Options{Slug: "agent-a0000001", Now: time.Now().Add(-time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	e, err := r.Resolve(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	return r, e
}

// A process table that cannot say where a Claude works (macOS without
// lsof) keeps the worktree: rm refuses unless forced, gc keeps it, saying why.
func TestRemoveWhenClaudesUnknown(t *testing.T) {
	r, e := repoWith(t)
	unknown := func(string) ([]int, error) {
		return nil, errors.New("claude (PID 812) runs, and where it works cannot be read (lsof is not in /usr/sbin nor on PATH)")
	}
	vs, err := r.GC(GCOptions{Claudes: unknown, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || vs[0].Removed || !strings.HasPrefix(vs[0].Why, "cannot tell whether a Claude works there: claude (PID 812) runs") {
		t.Errorf("gc: %+v, want it kept: cannot tell", vs)
	}
	_, err = r.Remove(e, RemoveOptions{Claudes: unknown, Now: time.Now()})
	var re *Refusal
	if !errors.As(err, &re) || re.Reason != ReasonClaudeUnknown || !strings.Contains(err.Error(), "cannot tell whether a Claude works in "+e.Path+": claude (PID 812)") ||
		!strings.HasSuffix(err.Error(), "remove anyway with 'claude-account worktree rm --force "+e.Path+"'") {
		t.Errorf("rm: %v, want a refusal naming --force", err)
	}
	if _, err := os.Stat(e.Path); err != nil {
		t.Fatalf("the refused worktree is gone: %v", err)
	}
	// A Claude that surely works there stops even --force.
	_, err = r.Remove(e, RemoveOptions{Force: true, Claudes: func(string) ([]int, error) { return []int{812}, nil }, Now: time.Now()})
	if !errors.As(err, &re) || re.Reason != ReasonClaude || !strings.Contains(err.Error(), "claude (PID 812) works in") {
		t.Errorf("rm --force with a Claude there: %v, want a refusal", err)
	}
	if _, err := r.Remove(e, RemoveOptions{Force: true, Claudes: unknown, Now: time.Now()}); err != nil {
		t.Fatalf("rm --force: %v", err)
	}
	if _, err := os.Stat(e.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("rm --force left %s (%v)", e.Path, err)
	}
}

// A process of ours whose command line macOS would not give, read after
// read, may be a Claude under another name: where it works, rm refuses
// unless forced and gc keeps the worktree, each saying so (the message is
// claudeproc's, on a recorded case: no macOS machine runs this).
func TestRemoveWhenMaybeClaude(t *testing.T) {
	r, e := repoWith(t)
	maybe := func(string) ([]int, error) {
		return nil, &claudeproc.UnknownError{PID: 812, Maybe: "kern.procargs2: invalid argument, 4 tries"}
	}
	const says = "PID 812 works there and may be Claude: its command line cannot be read (kern.procargs2: invalid argument, 4 tries)"
	vs, err := r.GC(GCOptions{Claudes: maybe, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || vs[0].Removed || vs[0].Why != "cannot tell whether a Claude works there: "+says {
		t.Errorf("gc: %+v, want it kept: %s", vs, says)
	}
	_, err = r.Remove(e, RemoveOptions{Claudes: maybe, Now: time.Now()})
	var re *Refusal
	var ue *claudeproc.UnknownError
	if !errors.As(err, &re) || re.Reason != ReasonClaudeUnknown || !errors.As(err, &ue) || !strings.Contains(err.Error(), "cannot tell whether a Claude works in "+e.Path+": "+says) {
		t.Errorf("rm: %v, want a refusal: %s", err, says)
	}
	if _, err := os.Stat(e.Path); err != nil {
		t.Fatalf("the refused worktree is gone: %v", err)
	}
}
