package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// makeFixture writes a benchmark fixture into out: an account (settings.json,
// commands/, mcp.json with eight servers, managed.json: the inputs of both
// launchers), a git repository with a project overlay, a .claude.json of about
// mb megabytes (a long, real-looking "projects" history, identity keys and a
// stale server), and a fake Claude that prints its config dir. The same seed
// makes the same fixture every time.
func makeFixture(out string, mb float64) error {
	rng := rand.New(rand.NewSource(7))
	acct := filepath.Join(out, "account")
	if err := os.MkdirAll(filepath.Join(acct, "commands", "git"), 0o755); err != nil {
		return err
	}
	settings := map[string]any{
		"permissions": map[string]any{"allow": []string{"Bash(git diff:*)", "Edit"}, "deny": []string{"Read(./.env)"}},
		"env":         map[string]string{"DISABLE_TELEMETRY": "1"},
		"statusLine":  map[string]string{"type": "command", "command": "echo status"},
		"hooks": map[string]any{"PostToolUse": []any{map[string]any{"matcher": "Edit",
			"hooks": []any{map[string]string{"type": "command", "command": "true"}}}}},
		"model": "opus",
	}
	servers := map[string]any{}
	for i := 0; i < 8; i++ {
		servers[fmt.Sprintf("srv%d", i)] = map[string]any{"type": "stdio", "command": "/bin/true",
			"args": []string{"--n", fmt.Sprint(i)}, "env": map[string]string{"K": fmt.Sprint(i)}}
	}
	managed := map[string]any{}
	for _, k := range []string{"permissions", "env", "statusLine", "hooks"} {
		managed[k] = settings[k]
	}
	files := map[string]any{
		filepath.Join(acct, "settings.json"): settings,
		filepath.Join(acct, "mcp.json"):      map[string]any{"mcpServers": servers},
		filepath.Join(acct, "managed.json"):  managed,
	}
	for path, v := range files {
		if err := writeJSON(path, v); err != nil {
			return err
		}
	}
	for _, c := range []string{"worktree-create", "worktree-status"} {
		body := fmt.Sprintf("# %s\nDo the %s thing.\n", c, c)
		if err := os.WriteFile(filepath.Join(acct, "commands", "git", c+".md"), []byte(body), 0o644); err != nil {
			return err
		}
	}

	repo := filepath.Join(out, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".claude"), 0o755); err != nil {
		return err
	}
	overlay := map[string]any{"mcpServers": map[string]any{"srv1": map[string]string{"command": "/bin/echo"}, "proj": map[string]string{"command": "/bin/true"}}}
	if err := writeJSON(filepath.Join(repo, ".claude", ".mcp.json"), overlay); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(repo, "README"), []byte("fixture\n"), 0o644); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(repo, ".git")); err != nil {
		for _, args := range [][]string{{"init", "-q", repo}, {"-C", repo, "add", "README"}, {"-C", repo, "commit", "-qm", "init"}} {
			c := exec.Command("git", args...)
			c.Env = append(os.Environ(), "GIT_AUTHOR_NAME=f", "GIT_AUTHOR_EMAIL=f@x", "GIT_COMMITTER_NAME=f", "GIT_COMMITTER_EMAIL=f@x")
			if b, err := c.CombinedOutput(); err != nil {
				return fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, b)
			}
		}
	}

	// The state: a history of projects until it reaches the size asked for.
	projects := map[string]any{}
	target := int(mb * 1024 * 1024)
	for size, i := 0, 0; size < target; i++ {
		hist := make([]any, 40)
		for j := range hist {
			hist[j] = map[string]any{"display": strings.Repeat("refactor the parser ", 1+rng.Intn(30)), "pastedContents": map[string]any{}}
		}
		p := map[string]any{"allowedTools": []any{}, "history": hist, "mcpContextUris": []any{},
			"lastCost": rng.Float64(), "exampleFiles": []string{"a.go", "b.go"}}
		b, _ := json.Marshal(p)
		size += len(b)
		projects[fmt.Sprintf("/home/u/src/project-%d", i)] = p
	}
	state := map[string]any{"numStartups": 412, "userID": strings.Repeat("u", 64),
		"oauthAccount": map[string]string{"emailAddress": "a@b.c", "accountUuid": "x"}, "hasCompletedOnboarding": true,
		"projects": projects, "mcpServers": map[string]any{"old": map[string]string{"command": "stale"}}}
	if err := writeJSON(filepath.Join(out, "state.json"), state); err != nil {
		return err
	}
	// Laid out as npm installs Claude Code (the launcher reads its release
	// from package.json), with a link where the other variants look for it.
	pkg := filepath.Join(out, "npm", "node_modules", "@anthropic-ai", "claude-code")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name": "@anthropic-ai/claude-code", "version": "2.1.330"}`+"\n"), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(pkg, "cli.js"), []byte("#!/bin/sh\necho \"CLAUDE_CONFIG_DIR=$CLAUDE_CONFIG_DIR\"\n"), 0o755); err != nil {
		return err
	}
	return os.Symlink(filepath.Join(pkg, "cli.js"), filepath.Join(out, "fake-claude"))
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

type fixture struct {
	dir, repo, home, state, fake, bin, ref, account string
	launcher                                        string // claudebench: a link to bin, as home-manager installs it
	floor                                           string
}

// newFixture makes a fixture of size MB in work/name for the launcher bin:
// its own account, repository and runtime, so that two launchers (this
// tree's and -base's) never share state. The stub Claude (tools.stub) is
// put where npm installs Claude Code, so the launcher reads its release from
// package.json as it would the real one's.
func newFixture(work, name, size, bin string, t tools) *fixture {
	dir := filepath.Join(work, name)
	// In a child process: a 100 MB state built here would raise this
	// process's peak memory, which every child forked later inherits as its
	// own peak (ru_maxrss counts the memory a child had before exec).
	self, err := os.Executable()
	check(err)
	run(self, "-make-fixture", dir, "-sizes", size)
	fx := &fixture{dir: dir, repo: filepath.Join(dir, "repo"), home: filepath.Join(dir, "home"),
		state: filepath.Join(dir, "state.json"), fake: filepath.Join(dir, "fake-claude"), bin: bin, ref: t.ref,
		account: filepath.Join(dir, "account"), floor: t.floor}
	cli, err := filepath.EvalSymlinks(fx.fake)
	check(err)
	run("cp", t.stub, cli)
	// The same account for both: our account dir holds the fixture's files.
	acct := filepath.Join(fx.home, ".claude-bench")
	check(os.MkdirAll(acct, 0o700))
	run("cp", "-r", filepath.Join(fx.account, "commands"), acct+"/")
	run("cp", filepath.Join(fx.account, "settings.json"), acct+"/settings.json")
	run("cp", filepath.Join(fx.account, "mcp.json"), acct+"/.mcp.json")
	check(os.WriteFile(filepath.Join(acct, "account.toml"), []byte("name = \"bench\"\n"), 0o644))
	// The reference merges the overlay unconditionally; ours only when trusted.
	fx.launcher = filepath.Join(dir, "bin", "claudebench")
	check(os.MkdirAll(filepath.Dir(fx.launcher), 0o755))
	check(os.Symlink(bin, fx.launcher))
	c := fx.cmd(bin, "trust")
	runCmd(c)
	runCmd(fx.ours())
	return fx
}

func (fx *fixture) cmd(path string, args ...string) *exec.Cmd {
	c := exec.Command(path, args...)
	c.Dir = fx.repo
	c.Env = append(os.Environ(), "HOME="+fx.home, "XDG_DATA_HOME="+fx.home+"/.local/share",
		"XDG_STATE_HOME="+fx.home+"/.local/state", "XDG_RUNTIME_DIR="+fx.home+"/run",
		"CLAUDE_ACCOUNT_CLAUDE="+fx.fake, "TMPDIR="+fx.dir)
	return c
}

func (fx *fixture) ours() *exec.Cmd { return fx.cmd(fx.launcher) }
func (fx *fixture) reference() *exec.Cmd {
	return fx.cmd("bash", fx.ref, fx.account, fx.fake)
}
func (fx *fixture) cp() *exec.Cmd {
	return fx.cmd(fx.floor, "copy", fx.state, filepath.Join(fx.dir, "copy.json"))
}
func (fx *fixture) durableCopy() *exec.Cmd {
	return fx.cmd(fx.floor, "durable-copy", fx.state, filepath.Join(fx.dir, "copy.json"))
}
func (fx *fixture) runtime() string { return filepath.Join(fx.repo, ".git", "claude-runtime", "bench") }

// stale puts the large state (with a stale mcpServers) in our runtime.
func (fx *fixture) stale() {
	run("cp", fx.state, filepath.Join(fx.runtime(), ".claude.json"))
}

func (fx *fixture) refStale() {
	fx.refReset()
	run("cp", fx.state, filepath.Join(fx.repo, ".git", "claude-runtime", ".claude.json"))
}

// refReset removes the reference's PID file: its exec'd PID is gone, but a
// reused PID would make it refuse to start.
func (fx *fixture) refReset() {
	matches, _ := filepath.Glob(filepath.Join(fx.dir, "claude-*.pid"))
	for _, m := range matches {
		os.Remove(m)
	}
}
