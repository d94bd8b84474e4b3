package testenv

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rogpeppe/go-internal/testscript"
)

// mkclaude [-native] DIR VERSION [PROGRAM]: an npm install of Claude Code
// VERSION in DIR, as 'npm install --prefix DIR' lays it out
// (node_modules/.bin/claude linking to the package's cli.js beside its
// package.json), whose cli.js runs PROGRAM (the stub claude when not given; a
// real Claude behind another release's number shows what the launcher does
// for that release). The launcher reads VERSION from package.json, as from a
// real one. With -native the package holds the stub claude itself as
// bin/claude (a hard link), as npm's native releases (2.1.330 on) hold their
// binary: the running program, not a script before it, is then that
// package's (/proc/PID/exe), and it answers --version with VERSION.
func mkclaude(ts *testscript.TestScript, neg bool, args []string) {
	native := len(args) > 0 && args[0] == "-native"
	if native {
		args = args[1:]
	}
	if neg || len(args) < 2 || len(args) > 3 || native && len(args) != 2 {
		ts.Fatalf("usage: mkclaude [-native] DIR VERSION [PROGRAM]")
	}
	if native {
		mkclaudeNative(ts, ts.MkAbs(args[0]), args[1])
		return
	}
	dir := ts.MkAbs(args[0])
	var stub string
	if len(args) == 3 {
		stub = args[2]
	} else {
		var err error
		stub, err = lookIn(ts.Getenv("PATH"), "claude")
		ts.Check(err)
	}
	pkg := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code")
	ts.Check(os.MkdirAll(pkg, 0o755))
	ts.Check(os.MkdirAll(filepath.Join(dir, "node_modules", ".bin"), 0o755))
	ts.Check(os.WriteFile(filepath.Join(pkg, "package.json"),
		[]byte(fmt.Sprintf(`{"name": "@anthropic-ai/claude-code", "version": %q, "bin": {"claude": "cli.js"}}`+"\n", args[1])), 0o644))
	ts.Check(os.WriteFile(filepath.Join(pkg, "cli.js"),
		[]byte(fmt.Sprintf("#!/bin/sh\nCLAUDE_STUB_VERSION=%s exec %s \"$@\"\n", args[1], stub)), 0o755))
	ts.Check(os.Symlink("../@anthropic-ai/claude-code/cli.js", filepath.Join(dir, "node_modules", ".bin", "claude")))
}

// mkclaudeNative is mkclaude -native.
func mkclaudeNative(ts *testscript.TestScript, dir, version string) {
	stub, err := lookIn(ts.Getenv("PATH"), "claude")
	ts.Check(err)
	pkg := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code")
	ts.Check(os.MkdirAll(filepath.Join(pkg, "bin"), 0o755))
	ts.Check(os.MkdirAll(filepath.Join(dir, "node_modules", ".bin"), 0o755))
	ts.Check(os.WriteFile(filepath.Join(pkg, "package.json"),
		[]byte(fmt.Sprintf(`{"name": "@anthropic-ai/claude-code", "version": %q, "bin": {"claude": "bin/claude"}}`+"\n", version)), 0o644))
	// Named claude: the test binary runs the command its name says.
	bin := filepath.Join(pkg, "bin", "claude")
	if err := os.Link(stub, bin); err != nil {
		data, err := os.ReadFile(stub)
		ts.Check(err)
		ts.Check(os.WriteFile(bin, data, 0o755))
	}
	ts.Check(os.Symlink("../@anthropic-ai/claude-code/bin/claude", filepath.Join(dir, "node_modules", ".bin", "claude")))
}

// lookIn finds an executable name in the directories of path.
func lookIn(path, name string) (string, error) {
	for _, d := range filepath.SplitList(path) {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found", name)
}
