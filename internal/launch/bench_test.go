package launch

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/env"
)

// benchWorkspace is an account and a repository whose runtime a first
// launch has made: every later launch finds it in sync.
func benchWorkspace(b *testing.B) (*Workspace, IO) {
	dir := b.TempDir()
	repo := filepath.Join(dir, "repo")
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v\n%s", err, out)
	}
	home := filepath.Join(dir, "home")
	acctDir := filepath.Join(home, ".claude-bench")
	if err := account.Init("bench", acctDir); err != nil {
		b.Fatal(err)
	}
	os.WriteFile(filepath.Join(acctDir, ".mcp.json"), []byte(`{"mcpServers":{"a":{"command":"/bin/true","args":["x"]},"b":{"command":"/bin/true"}}}`), 0o600)
	os.WriteFile(filepath.Join(acctDir, "settings.json"), []byte(`{"model":"opus","permissions":{"allow":["Edit"]}}`), 0o600)
	a, err := account.Load("bench", acctDir)
	if err != nil {
		b.Fatal(err)
	}
	e := env.Env{"HOME": home, "XDG_RUNTIME_DIR": filepath.Join(dir, "run"), "PATH": os.Getenv("PATH")}
	w, err := Open(a, repo, e, time.Now)
	if err != nil {
		b.Fatal(err)
	}
	w.Claude = claudever.Binary{Path: "/bin/true", Version: claudever.V(2, 1, 330), Known: true}
	io := IO{Stdout: io.Discard, Stderr: io.Discard, Note: func(string) {}}
	held, err := w.Acquire()
	if err != nil {
		b.Fatal(err)
	}
	if err := w.prepareSession(held, io); err != nil {
		b.Fatal(err)
	}
	held.Release()
	w.afterExit(configdir.Stamp(w.Layout), true, io)
	return w, io
}

// BenchmarkFindClaude is Claude found and its release read as npm lays it
// out ($CLAUDE_ACCOUNT_CLAUDE a link to cli.js beside package.json): the
// path resolved, package.json read, nothing run.
func BenchmarkFindClaude(b *testing.B) {
	w, _ := benchWorkspace(b)
	pkg := filepath.Join(b.TempDir(), "node_modules", "@anthropic-ai", "claude-code")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		b.Fatal(err)
	}
	os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@anthropic-ai/claude-code","version":"2.1.330"}`), 0o644)
	os.WriteFile(filepath.Join(pkg, "cli.js"), []byte("#!/bin/sh\n"), 0o755)
	link := filepath.Join(b.TempDir(), "claude")
	if err := os.Symlink(filepath.Join(pkg, "cli.js"), link); err != nil {
		b.Fatal(err)
	}
	w.env["CLAUDE_ACCOUNT_CLAUDE"] = link
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bin, err := w.FindClaude()
		if err != nil || bin.Version != claudever.V(2, 1, 330) {
			b.Fatal(bin, err)
		}
	}
}

// BenchmarkOpen is the workspace found: the git context, the config dir,
// whether the last Claude there ended cleanly.
func BenchmarkOpen(b *testing.B) {
	w, _ := benchWorkspace(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Open(w.Account, w.dir, w.env, time.Now); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrepare is what a session does before Claude starts, in sync:
// the instance lock, the plan read and found empty, the warnings.
func BenchmarkPrepare(b *testing.B) {
	w, io := benchWorkspace(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		held, err := w.Acquire()
		if err != nil {
			b.Fatal(err)
		}
		if err := w.prepareSession(held, io); err != nil {
			b.Fatal(err)
		}
		w.warn(io)
		_ = w.sessionArgs("id", "token", nil, io)
		_ = w.ClaudeEnv().List()
		held.Release()
	}
}

// BenchmarkAfterExit is the after-exit pass of a session that changed
// nothing the account shares: it must write nothing.
func BenchmarkAfterExit(b *testing.B) {
	w, io := benchWorkspace(b)
	stamp := configdir.Stamp(w.Layout)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.afterExit(stamp, true, io)
	}
}

// BenchmarkBringNoResume is what conversations add to a launch that resumes
// none by id (a new session, --continue, the picker): one scan of Claude's
// arguments, no file touched.
func BenchmarkBringNoResume(b *testing.B) {
	w, io := benchWorkspace(b)
	args := []string{"--model", "opus", "--continue", "-p", "go on"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.bring(args, io)
	}
}

// BenchmarkBringResumeHere is claude --resume ID of a conversation already
// where Claude looks, the usual case: its key, the sessions running now
// (none may run it), the copies of that id in the account's places (only
// files named for it: conversation.FindID), the cleanup period read from
// settings.json.
func BenchmarkBringResumeHere(b *testing.B) {
	w, io := benchWorkspace(b)
	id := "12345678-1234-4234-8234-123456789abc"
	dir := filepath.Join(w.Layout.ConfigDir, "projects", conversation.KeyFor(w.Context.Dir, w.Claude))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte("{}\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	args := []string{"--resume", id}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.bring(args, io)
	}
}

// BenchmarkAfterExitKept is the after-exit pass of a session that changed
// nothing, in a runtime of 200 transcripts the account keeps copies of
// already: a stat of each, no lock.
func BenchmarkAfterExitKept(b *testing.B) {
	w, io := benchWorkspace(b)
	dir := filepath.Join(w.Layout.ConfigDir, "projects", conversation.KeyFor(w.Context.Dir, w.Claude))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		id := fmt.Sprintf("12345678-1234-4234-8234-%012d", i)
		if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(`{"type":"user","cwd":"/x"}`+"\n"), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	w.started = 1 // every transcript is this session's: the first pass links them
	stamp := configdir.Stamp(w.Layout)
	w.afterExit(stamp, true, io)
	if todo, first, refresh := w.unkept(w.record()); len(todo) != 0 || first || refresh {
		b.Fatal("the first pass kept no copy of some")
	}
	w.started = time.Now().UnixNano()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.afterExit(stamp, true, io)
	}
}
