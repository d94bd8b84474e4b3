package cli

import (
	"os"

	"github.com/claude-account/claude-account/internal/mcpenv"
)

// MCPEnvCmd is `claude-account mcp-env VAR=FILE… -- COMMAND ARGS…`. dispatch
// runs it before kong, so that the server's own arguments (its --help
// included) are never ours; kong only shows its help.
type MCPEnvCmd struct {
	Args []string `arg:"" optional:"" passthrough:"" name:"var=file… -- command" help:"Each secret as VAR=FILE, then --, then the MCP server's command line."`
}

// Help is shown under the command's usage.
func (MCPEnvCmd) Help() string {
	return `Starts an MCP server with secrets read from files: each VAR=FILE exports the
content of FILE (trailing newlines removed, as $(cat FILE) gives it) as VAR,
then the command after -- replaces this process. The Nix module makes an MCP
server declared with env.VAR.file = "/run/secrets/…" (sops-nix, agenix) run
through it, so the secret is read when Claude starts the server and never
written to the store, the account's files or .claude.json: they hold the path.

A file that cannot be read, is not a regular file (or a link to one), or is
too long for an environment variable (128 KiB with VAR= and a NUL, Linux's
limit) stops the server with one line on stderr naming the variable and the
file (never the content) and exit status 1; Claude then shows the server as
failed ('claude mcp list').

Example:
  claude-account mcp-env GITHUB_TOKEN=/run/secrets/github -- github-mcp-server stdio`
}

// Run is reached only through kong (mcp-env --help is answered before it).
func (c *MCPEnvCmd) Run(d *Deps) error { return mcpEnv(d, c.Args) }

// mcpEnv reads the secrets and execs the server; it returns only an error.
func mcpEnv(d *Deps, args []string) error {
	refs, command, err := mcpenv.Parse(args)
	if err != nil {
		return UsageError{err}
	}
	environ, err := mcpenv.Environ(os.Environ(), refs, mcpenv.Read)
	if err != nil {
		return err
	}
	return mcpenv.Exec(command, environ, refs)
}
