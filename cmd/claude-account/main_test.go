package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/claude-account/claude-account/internal/claudever"
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
		// stubbrowser is $BROWSER for a real Claude's login (apistub -proxy).
		"stubbrowser": testenv.StubBrowser,
	})
}

// TestScripts runs every behaviour a user can see, with the stub claude:
// testscripts/*.txtar but real-claude-*.txtar (TestRealClaude).
// UPDATE_SCRIPTS=1 rewrites the expected files of cmp commands.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testscripts", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files = slices.DeleteFunc(files, isReal)
	testscript.Run(t, params(files, testenv.Setup, testenv.Condition))
}

// TestRealClaude runs testscripts/real-claude-*.txtar against each real
// Claude Code in $CLAUDE_REAL_BINS (paths, ':'-separated; .ci/run installs the
// releases the project supports and sets it) or $CLAUDE_REAL_BIN: one subtest
// per release, named for it. A script states what a release must have with
// [claude:X.Y.Z] (true when the Claude under test is X.Y.Z or newer).
func TestRealClaude(t *testing.T) {
	bins := filepath.SplitList(os.Getenv("CLAUDE_REAL_BINS"))
	if len(bins) == 0 && os.Getenv("CLAUDE_REAL_BIN") != "" {
		bins = []string{os.Getenv("CLAUDE_REAL_BIN")}
	}
	if len(bins) == 0 {
		t.Skip("no real Claude Code: set CLAUDE_REAL_BINS (bash .ci/run installs the supported releases from npm and sets it)")
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "testscripts", "real-claude-*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bin := range bins {
		c := claudever.Identify(bin, "", nil)
		if !c.Known {
			t.Fatalf("%s: which Claude Code release it is cannot be told: %s", bin, c.Problem)
		}
		t.Run(c.Version.String(), func(t *testing.T) {
			testscript.Run(t, params(files, testenv.RealSetup(bin), testenv.RealCondition(bin, c.Version)))
		})
	}
}

func isReal(path string) bool { return strings.HasPrefix(filepath.Base(path), "real-claude-") }

func params(files []string, setup func(*testscript.Env) error, cond func(string) (bool, error)) testscript.Params {
	update, _ := strconv.ParseBool(os.Getenv("UPDATE_SCRIPTS"))
	return testscript.Params{
		Files:               files,
		Setup:               setup,
		Cmds:                testenv.Commands(),
		Condition:           cond,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       update,
	}
}
