package configdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/trust"
)

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	c := exec.Command("git", append([]string{"-C", dir}, args...)...)
	c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e")
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestMakePlanMatrix asserts the printed plan of a first launch in each row
// of the fallback matrix: the plan is a value, so it is tested as one.
func TestMakePlanMatrix(t *testing.T) {
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	home := filepath.Join(root, "home")
	acctDir := filepath.Join(home, ".claude-max")
	if err := account.Init("max", acctDir); err != nil {
		t.Fatal(err)
	}
	ok(t, os.WriteFile(filepath.Join(acctDir, ".mcp.json"), []byte(`{"mcpServers":{"a":{"command":"/bin/true"}}}`), 0o600))
	a, err := account.Load("max", acctDir)
	ok(t, err)

	repo := filepath.Join(root, "repo")
	ok(t, os.MkdirAll(repo, 0o755))
	gitIn(t, repo, "init", "-q", "-b", "main")
	gitIn(t, repo, "commit", "-q", "--allow-empty", "-m", "init")
	gitIn(t, repo, "worktree", "add", "-q", "-b", "wt", filepath.Join(root, "wt"))
	gitIn(t, root, "clone", "-q", "--bare", repo, filepath.Join(root, "bare.git"))
	gitIn(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", repo, "sub")
	ok(t, os.MkdirAll(filepath.Join(root, "plain"), 0o755))

	// Every first launch in a work tree plans the same shape; only where
	// the runtime lives differs.
	runtime := func(dir string) string {
		return "config dir " + dir + "\n" +
			"mkdir " + dir + " (new runtime)\n" +
			"register " + dir + " in $ACCT/.claude-account-runtimes.json (made by claude-account for this account)\n" +
			"mkdir " + dir + "/logs (Claude's logs)\n" +
			"link  " + dir + "/commands -> $ACCT/commands (account's commands)\n" +
			"link  " + dir + "/settings.json -> $ACCT/settings.json (account's settings)\n" +
			"write $ACCT/.claude-account-shared.json (account's shared MCP servers, keys and trust)\n" +
			"write " + dir + "/.claude.json (account's MCP servers and keys)\n" +
			"write $ACCT/.claude-account.json (launcher's record)\n" +
			"write " + dir + "/.claude-account.json (launcher's record)\n" +
			"write " + dir + "/workspace.json (workspace binding)\n"
	}
	accountDir := "config dir $ACCT\n" +
		"write $ACCT/.claude-account-shared.json (account's shared MCP servers, keys and trust)\n" +
		"write $ACCT/.claude.json (account's MCP servers and keys)\n" +
		"write $ACCT/.claude-account.json (launcher's record)\n"
	tests := []struct {
		row, dir, want string
	}{
		{"not in git", filepath.Join(root, "plain"), accountDir},
		{"main worktree", repo, runtime(repo + "/.git/claude-runtime/max")},
		{"linked worktree", filepath.Join(root, "wt"), runtime(repo + "/.git/worktrees/wt/claude-runtime/max")},
		{"bare repo", filepath.Join(root, "bare.git"), accountDir},
		{"submodule", filepath.Join(repo, "sub"), runtime(repo + "/.git/modules/sub/claude-runtime/max")},
	}
	for _, tt := range tests {
		t.Run(tt.row, func(t *testing.T) {
			e := env.Env{"HOME": home, "GIT_CEILING_DIRECTORIES": root}
			ctx, err := gitctx.Detect(tt.dir, e.Get)
			ok(t, err)
			in := Input{Account: a, Context: ctx, Layout: Locate(a, ctx, e),
				Trust: trust.Store{Dir: filepath.Join(root, "trust")}, Now: time.Unix(0, 0),
				Claude: claudever.Binary{Known: true, Version: claudever.V(2, 1, 330)}}
			p, err := MakePlan(in)
			ok(t, err)
			defer p.Close()
			got := strings.ReplaceAll(strings.Join(p.Lines(), "\n")+"\n", acctDir, "$ACCT")
			if got != tt.want {
				t.Errorf("plan in %s:\n%s\nwant:\n%s", tt.row, got, tt.want)
			}
		})
	}
}

func ok(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
