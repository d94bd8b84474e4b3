package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/claude-account/claude-account/internal/cli"
	"github.com/claude-account/claude-account/internal/testenv"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"claude-account": func() { os.Exit(cli.Main(os.Args)) },
		// claudemax is the launcher name home-manager installs: the program
		// name alone selects the account.
		"claudemax": func() { os.Exit(cli.Main(os.Args)) },
		"claude":    testenv.StubClaude,
	})
}

// TestScripts runs every behaviour a user can see: testscripts/*.txtar.
// UPDATE_SCRIPTS=1 rewrites the expected files of cmp commands.
func TestScripts(t *testing.T) {
	update, _ := strconv.ParseBool(os.Getenv("UPDATE_SCRIPTS"))
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testscripts"),
		Setup:               testenv.Setup,
		Cmds:                testenv.Commands(),
		Condition:           testenv.Condition,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       update,
	})
}

// TestScriptsInsideASession runs testdata/hermetic/*.txtar with the
// variables a launcher-started Claude session exports (developers run the
// tests from one): scripts must not see them.
func TestScriptsInsideASession(t *testing.T) {
	for k, v := range map[string]string{
		"CLAUDE_ACCOUNT": "t", "CLAUDE_CONFIG_DIR": t.TempDir(), "CLAUDE_CODE_TASK_LIST_ID": "x",
		"CLAUDE_ACCOUNT_DIR": t.TempDir(), "CLAUDE_ACCOUNT_CLAUDE": "/bin/false",
		"CLAUDE_SECURESTORAGE_CONFIG_DIR": t.TempDir(), "CLAUDE_CODE_ENTRYPOINT": "cli",
		"ANTHROPIC_API_KEY": "sk-ant-inherited", "XDG_CONFIG_HOME": t.TempDir(),
	} {
		t.Setenv(k, v)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "hermetic"),
		Setup:               testenv.Setup,
		Cmds:                testenv.Commands(),
		Condition:           testenv.Condition,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	})
}
