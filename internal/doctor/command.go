package doctor

import (
	"strings"

	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/shell"
)

// Command is the doctor command (with args, e.g. "--fix") for the config
// dir in checks, as a message suggests it: it names the account and the
// workspace, so that it runs as printed wherever the message is printed
// (claudemax sets no CLAUDE_ACCOUNT in the user's shell, and run --worktree
// prints in another workspace than the one it names). Outside a work tree
// the config dir is the account's: any directory outside git names it, and
// / is one.
func Command(in Input, args ...string) string {
	dir := "/"
	if in.Context.Kind != gitctx.NotGit && in.Context.Kind != gitctx.Bare && in.Context.Toplevel != "" {
		dir = in.Context.Toplevel
	}
	words := append([]string{"claude-account", "doctor"}, args...)
	words = append(words, "--account", in.Account.Name, shell.Quote(dir))
	return strings.Join(words, " ")
}

// trustCommand approves the overlay at path, from anywhere.
func trustCommand(path string) string { return "claude-account trust " + shell.Quote(path) }
