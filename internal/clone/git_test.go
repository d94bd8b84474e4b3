package clone

import (
	"errors"
	"os/exec"
	"slices"
	"testing"

	"github.com/claude-account/claude-account/internal/env"
)

func TestLastLine(t *testing.T) {
	for _, c := range []struct {
		stderr string
		err    error
		want   string
	}{
		{"Cloning into bare repository 'x'...\nfatal: '/nope' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n",
			nil, "'/nope' does not appear to be a git repository"},
		{"remote: Repository not found.\nfatal: repository 'https://github.com/o/r.git/' not found\n", nil,
			"repository 'https://github.com/o/r.git/' not found"},
		{"error: could not lock config file x: File exists\n", nil, "could not lock config file x: File exists"},
		{"Receiving objects: 10%\rReceiving objects: 20%\rsomething broke\r\n", nil, "something broke"},
		{"fatal: \nlast words\n", nil, "last words"},
		{"fatal: a\x1b[31mred\n", nil, "a [31mred"},
		{"", exec.ErrNotFound, "git is not installed (not found on PATH)"},
		{"  \n", errors.New("exit status 128"), "exit status 128"},
		{"", nil, "failed"},
	} {
		if got := lastLine(c.stderr, c.err); got != c.want {
			t.Errorf("lastLine(%q) = %q, want %q", c.stderr, got, c.want)
		}
	}
}

func TestGitEnv(t *testing.T) {
	got := GitEnv(env.Env{"HOME": "/h", "GIT_DIR": "/elsewhere/.git", "GIT_WORK_TREE": "/elsewhere",
		"GIT_INDEX_FILE": "/i", "GIT_TERMINAL_PROMPT": "1", "GIT_CONFIG_GLOBAL": "/g"})
	want := []string{"GIT_CONFIG_GLOBAL=/g", "GIT_TERMINAL_PROMPT=0", "HOME=/h"}
	if !slices.Equal(got, want) {
		t.Errorf("GitEnv = %q, want %q", got, want)
	}
}
