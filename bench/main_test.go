package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestQuickInsideASession runs the harness as .ci/run does (-quick), from an
// environment like the one a launcher-started Claude session gives its
// commands, plus an API key and XDG dirs of its own: none of it may reach
// the fixtures (an inherited CLAUDE_ACCOUNT=t once made every worktree run
// fail with 'account "t" not found').
func TestQuickInsideASession(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// The reference wrapper runs beside ours: nix flake check's copy of the
	// tree has only the Go files, and its sandbox no jq.
	if _, err := os.Stat(filepath.Join(root, "bench", "reference-wrapper.sh")); err != nil {
		t.Skip("bench/reference-wrapper.sh is not in this copy of the tree")
	}
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("jq is not installed (.ci/run installs it); the reference wrapper needs it")
	}
	elsewhere := t.TempDir()
	cmd := exec.Command("go", "run", "./bench", "-quick")
	cmd.Dir = root
	cmd.Env = append(os.Environ(),
		"CLAUDE_ACCOUNT=t",
		"CLAUDE_CONFIG_DIR="+filepath.Join(elsewhere, "config"),
		"CLAUDE_CODE_TASK_LIST_ID=x",
		"CLAUDE_ACCOUNT_DIR="+filepath.Join(elsewhere, "account"),
		"CLAUDE_ACCOUNT_CLAUDE=/bin/false",
		"CLAUDE_SECURESTORAGE_CONFIG_DIR="+filepath.Join(elsewhere, "secure"),
		"ANTHROPIC_API_KEY=sk-ant-inherited",
		"XDG_CONFIG_HOME="+filepath.Join(elsewhere, "xdg"),
	)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./bench -quick: %v\n%s", err, out)
	}
}
