package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
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
		// claude-work: a name after "claude-" is the account too.
		"claude-work": func() { os.Exit(cli.Main(os.Args)) },
		"claude":      testenv.StubClaude,
		// stubbrowser is $BROWSER for a real Claude's login (apistub -proxy).
		"stubbrowser": testenv.StubBrowser,
		// idestand is an IDE with Claude Code's extension: a lock file in
		// ~/.claude/ide, a WebSocket MCP server, and its terminal.
		"idestand": testenv.IDEStand,
		// mcpstand is a stdio MCP server that writes down its environment.
		"mcpstand": testenv.MCPStand,
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
// releases the project supports and sets it) or $CLAUDE_REAL_BIN, and only the
// fleet scripts (fleetScript) against each in $CLAUDE_REAL_FLEET_BINS (a
// release .ci/claude-code-versions marks "fleet": its other scripts would pass
// as on the releases either side, at minutes a release): one subtest per
// release, named for it. A script states what a release must have with
// [claude:X.Y.Z] (true when the Claude under test is X.Y.Z or newer).
func TestRealClaude(t *testing.T) {
	runs := realRuns(os.Getenv("CLAUDE_REAL_BINS"), os.Getenv("CLAUDE_REAL_BIN"), os.Getenv("CLAUDE_REAL_FLEET_BINS"))
	if len(runs) == 0 {
		t.Skip("no real Claude Code: set CLAUDE_REAL_BINS (bash .ci/run installs the supported releases from npm and sets it)")
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "testscripts", "real-claude-*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		c := claudever.Identify(r.bin, "", nil)
		if !c.Known {
			t.Fatalf("%s: which Claude Code release it is cannot be told: %s", r.bin, c.Problem)
		}
		scripts := files
		if r.fleetOnly {
			scripts = slices.DeleteFunc(slices.Clone(files), func(f string) bool { return !fleetScript(f) })
		}
		t.Run(c.Version.String(), func(t *testing.T) {
			// The releases share one pool of -parallel slots: one after
			// another, each release's last long script ran alone while
			// the other slot stood idle (109 s of a 1,338 s run).
			t.Parallel()
			testscript.Run(t, params(scripts, testenv.RealSetup(r.bin, c.Version), testenv.RealCondition(r.bin, c.Version)))
		})
	}
}

// realRun is one real Claude TestRealClaude runs scripts against.
type realRun struct {
	bin       string
	fleetOnly bool // only the fleet scripts (fleetScript)
}

// realRuns lists the real Claudes to test: every script on each of bins
// (':'-separated), or on bin when bins is empty, then the fleet scripts on
// each of fleetBins.
func realRuns(bins, bin, fleetBins string) []realRun {
	var runs []realRun
	for _, b := range filepath.SplitList(bins) {
		runs = append(runs, realRun{bin: b})
	}
	if len(runs) == 0 && bin != "" {
		runs = append(runs, realRun{bin: bin})
	}
	for _, b := range filepath.SplitList(fleetBins) {
		runs = append(runs, realRun{bin: b, fleetOnly: true})
	}
	return runs
}

// fleetScript reports whether a real-Claude script is one of Claude's
// fleet's (background sessions, agent view) or doctor's rows by release:
// what a release marked "fleet" in .ci/claude-code-versions runs.
func fleetScript(path string) bool {
	name := filepath.Base(path)
	return strings.HasPrefix(name, "real-claude-fleet-") || strings.HasPrefix(name, "real-claude-doctor-")
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

// TestScriptsInsideASession runs testscripts/hermetic-*.txtar again, with
// the variables a launcher-started Claude session exports (developers run
// the tests from one): scripts must not see them.
func TestScriptsInsideASession(t *testing.T) {
	for k, v := range map[string]string{
		"CLAUDE_ACCOUNT": "t", "CLAUDE_CONFIG_DIR": t.TempDir(), "CLAUDE_CODE_TASK_LIST_ID": "x",
		"CLAUDE_ACCOUNT_DIR": t.TempDir(), "CLAUDE_ACCOUNT_CLAUDE": "/bin/false",
		"CLAUDE_SECURESTORAGE_CONFIG_DIR": t.TempDir(), "CLAUDE_CODE_ENTRYPOINT": "cli",
		"ANTHROPIC_API_KEY": "sk-ant-inherited", "XDG_CONFIG_HOME": t.TempDir(),
	} {
		t.Setenv(k, v)
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "testscripts", "hermetic-*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testscripts/hermetic-*.txtar: %v", err)
	}
	testscript.Run(t, testscript.Params{
		Files:               files,
		Setup:               testenv.Setup,
		Cmds:                testenv.Commands(),
		Condition:           testenv.Condition,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	})
}

// TestUserGuideContents checks README-CLAUDE-CODE.md's table of contents
// against its headings: every link leads to a heading, and every section
// (##) is listed.
func TestUserGuideContents(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README-CLAUDE-CODE.md"))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("README-CLAUDE-CODE.md is not in this copy of the tree (nix flake check copies the Go files)")
	}
	if err != nil {
		t.Fatal(err)
	}
	anchors, sections := map[string]bool{}, []string{}
	fence := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		level := len(line) - len(strings.TrimLeft(line, "#"))
		a := anchor(strings.TrimSpace(line[level:]))
		anchors[a] = true
		if level == 2 {
			sections = append(sections, a)
		}
	}
	toc, _, _ := strings.Cut(string(data), "\n## ")
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile(`\]\(#([^)]+)\)`).FindAllStringSubmatch(toc, -1) {
		listed[m[1]] = true
		if !anchors[m[1]] {
			t.Errorf("the contents link to #%s, which no heading has", m[1])
		}
	}
	for _, a := range sections {
		if !listed[a] {
			t.Errorf("section #%s is missing from the contents", a)
		}
	}
}

// anchor is the id GitHub gives a heading: lower case, punctuation dropped,
// spaces as dashes.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}
