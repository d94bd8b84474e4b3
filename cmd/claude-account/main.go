// Command claude-account launches Claude Code with a per-account, per-worktree
// configuration. Everything it does lives in internal/cli so tests can run it
// in-process; this file only hands over the arguments and the exit code.
package main

import (
	"os"

	"github.com/claude-account/claude-account/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args))
}
