package session

import "github.com/claude-account/claude-account/internal/claudever"

// fleetCommands are Claude's commands that act on its fleet — the config
// dir's supervisor and the background sessions it hosts (DESIGN.md fact 20)
// — each with the first release where it does. Before that release the word
// is what Commands says: agents manages subagents until 2.1.145, daemon is a
// prompt until 2.1.143.
var fleetCommands = map[string]claudever.Version{
	"agents": claudever.AgentView, "daemon": claudever.DaemonCommand,
	"attach": claudever.Background, "logs": claudever.Background, "stop": claudever.Background,
	"kill": claudever.Background, "rm": claudever.Background, "respawn": claudever.Background,
}

// fleetInvocation marks an invocation of Claude's fleet (Invocation.Fleet): one of
// fleetCommands on a release that has it, or a session sent to the
// background (--bg or --background anywhere before "--", which Claude's
// parser reads after the prompt too: claude "task" --bg) on 2.1.141 or
// later. Only a release the launcher could read counts (claudever.Has): on
// any other, nothing changes. --help and --version stay commands.
func fleetInvocation(inv Invocation, args []string, claude claudever.Binary) Invocation {
	if !claude.Has(claudever.Background) {
		return inv
	}
	if since, ok := fleetCommands[inv.Command]; ok {
		if claude.Has(since) {
			inv.Fleet, inv.Starts = true, inv.Command == "respawn"
		}
		return inv
	}
	if !inv.Session {
		return inv // another command: mcp, --version …
	}
	if background(args) {
		return Invocation{Command: "--bg", Fleet: true, Starts: true}
	}
	return inv
}

// background reports whether args send the session to the background: --bg
// or --background before "--", not as the value of an option that takes one
// (--append-system-prompt --bg is a prompt text).
func background(args []string) bool {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		switch arg {
		case "--":
			return false
		case "--bg", "--background":
			return true
		}
		if a, ok := options[arg]; ok && a == required {
			i++
		}
	}
	return false
}
