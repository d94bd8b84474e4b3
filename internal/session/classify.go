// Package session is what makes one start of Claude a session of the
// launcher's: whether an argument list is a session at all (Classify), what
// the launcher adds to a session for itself and for nothing else (flag
// settings: Spec), and the state Claude's own hooks report while it runs
// (Record, List), which 'claude-account ps' shows.
package session

import (
	"strings"

	"github.com/claude-account/claude-account/internal/claudever"
)

// Invocation is what Claude's argument list asks Claude to do.
type Invocation struct {
	// Session is true when Claude talks to the model: interactive, or -p,
	// which writes transcripts and .claude.json just the same. Only a session
	// takes the instance lock and gets the launcher's hooks.
	Session bool
	// Print is -p/--print: a session that ends by itself.
	Print bool
	// Command names what runs instead of a session ("mcp", "--version"),
	// when Session is false; "--bg" for a session sent to the background.
	Command string
	// Fleet: the invocation is one of Claude's fleet (Fleet): it runs with
	// the account dir as its config dir, wherever it is started.
	Fleet bool
	// Starts: a fleet invocation that starts a background session (--bg,
	// --background, respawn), which the supervisor hosts with its own
	// environment.
	Starts bool
}

// Commands are Claude Code's subcommands that are not sessions, each with
// the first release that has it. Before that release Claude reads the word
// as the prompt of a session: on 2.0.77, 'claude auth status' asks the model
// "auth status" (measured: with no login it prints "Invalid API key · Please
// run /login", an answer to a prompt, where 2.1.41 prints the login state as
// JSON), so there it takes the instance lock and gets the launcher's hooks
// like any prompt.
//
// Measured on 2026-11-23 on every release installed (2.0.77 2.1.15 2.1.16
// 2.1.37 2.1.38 2.1.41 2.1.42 2.1.62 2.1.63 2.1.90 2.1.143 2.1.144 2.1.197
// 2.1.330): `claude --help` lists the commands, and `claude WORD --help`
// (scratch HOME and CLAUDE_CONFIG_DIR) tells a hidden one, which prints its
// own usage, from a word that is none, which prints the general help. A
// release here is the first of those at which the word was a command; the
// comment gives the interval it arrived in where the releases in between
// were not measured. No word stopped being a command in any later release
// measured.
//
// Left out: remote-control (rc, from 2.1.62), which starts an interactive
// session; and the hidden commands other programs call (2.1.330: edit-hook,
// edit-*-settings, edit-permission-rules, edit-skill-overrides,
// workspace-trust, worktree-hook, design-login, "used by the VS Code
// extension" or Claude Desktop), which therefore count as sessions here.
// daemon (from 2.1.143, the supervisor of background sessions) is hidden
// too, but users type it ('claude daemon stop'): it is a command of the
// fleet (Fleet).
var Commands = map[string]claudever.Version{
	// In every release measured: the oldest supported has them.
	"mcp": claudever.Oldest, "plugin": claudever.Oldest, "setup-token": claudever.Oldest,
	"doctor": claudever.Oldest, "update": claudever.Oldest, "install": claudever.Oldest,
	"upgrade": claudever.V(2, 1, 37), // after 2.1.16
	"auth":    claudever.V(2, 1, 41), // after 2.1.38
	"agents":  claudever.V(2, 1, 62), // after 2.1.42
	// after 2.1.63
	"plugins": claudever.V(2, 1, 90), "auto-mode": claudever.V(2, 1, 90),
	// after 2.1.90; attach, logs, rm, stop, kill and respawn hidden until 2.1.330
	"project": claudever.V(2, 1, 143), "ultrareview": claudever.V(2, 1, 143),
	"attach": claudever.V(2, 1, 143), "logs": claudever.V(2, 1, 143), "rm": claudever.V(2, 1, 143),
	"stop": claudever.V(2, 1, 143), "kill": claudever.V(2, 1, 143), "respawn": claudever.V(2, 1, 143),
	"daemon": claudever.DaemonCommand,
	// after 2.1.144; import-conversations is hidden
	"gateway": claudever.V(2, 1, 197), "import-conversations": claudever.V(2, 1, 197),
	// after 2.1.197; sandbox is hidden
	"import": claudever.V(2, 1, 330), "sandbox": claudever.V(2, 1, 330), "purge": claudever.V(2, 1, 330),
}

// IsCommand reports whether word is a command of claude's release (Commands).
// A release the launcher could not read counts every word of Commands as the
// command, as Classify did before it told releases apart: an unknown release
// may have every command (claudever.Binary.MayHave), and on every release
// from the newest measured on each of these words is a command (none was
// dropped). The cost is the old risk where it applies: on an old release
// the launcher cannot read, 'auth status' is a prompt that then runs without
// the lock and hooks.
func IsCommand(word string, claude claudever.Binary) bool {
	since, ok := Commands[word]
	return ok && claude.MayHave(since)
}

// arity is how many values an option of Claude's takes.
type arity uint8

const (
	flag     arity = iota // --verbose
	required              // --model X
	optional              // --resume [X]: the next word, unless it looks like an option
	variadic              // --add-dir A B …: every next word until one looks like an option
)

// options are Claude's top-level options, from the same --help texts, with
// the hidden ones that take a value. An option not listed here makes the
// argument list a session: Claude's parser would stop reading options
// there, and a session (lock, hooks) is the safe guess.
var options = map[string]arity{
	"--add-dir": variadic, "--agent": required, "--agents": required,
	"--allow-dangerously-skip-permissions": flag, "--allowedTools": variadic, "--allowed-tools": variadic,
	"--append-system-prompt": required, "--append-system-prompt-file": required, "--autocompact": required,
	"--ax-screen-reader": flag, "--bare": flag, "--betas": variadic, "--bg": flag, "--background": flag,
	"--brief": flag, "--chrome": flag, "--cloud": optional, "-c": flag, "--continue": flag,
	"--dangerously-skip-permissions": flag, "-d": optional, "--debug": optional, "--debug-file": required,
	"--desktop": flag, "--disable-slash-commands": flag, "--disallowedTools": variadic, "--disallowed-tools": variadic,
	"--effort": required, "--environment": required, "--exclude-dynamic-system-prompt-sections": flag,
	"--fallback-model": required, "--file": variadic, "--fork-session": flag, "--forward-subagent-text": flag,
	"--from-pr": optional, "-h": flag, "--help": flag, "--ide": flag, "--include-hook-events": flag,
	"--include-partial-messages": flag, "--input-format": required, "--json-schema": required,
	"--max-budget-usd": required, "--max-thinking-tokens": required, "--max-turns": required,
	"--mcp-config": variadic, "--mcp-debug": flag, "--model": required, "-n": required, "--name": required,
	"--no-chrome": flag, "--no-session-persistence": flag, "--output-format": required,
	"--permission-mode": required, "--permission-prompt-tool": required, "--permission-prompts": required,
	"--plugin-dir": variadic, "--plugin-url": required, "-p": flag, "--print": flag,
	"--prompt-suggestions": optional, "--remote-control": optional, "--remote-control-session-name-prefix": required,
	"--replay-user-messages": flag, "--restricted": flag, "-r": optional, "--resume": optional,
	"--resume-session-at": required, "--safe-mode": flag, "--session-id": required, "--setting-sources": required,
	"--settings": required, "--strict-mcp-config": flag, "--system-prompt": required, "--system-prompt-file": required,
	"--system-prompt-snapshot": required, "--teleport": optional, "--tmux": flag, "--tools": variadic,
	"--verbose": flag, "-v": flag, "--version": flag, "-w": optional, "--worktree": optional,
}

// IsOption reports whether name ("--model", "-p") is one of Claude's
// top-level options as listed here.
func IsOption(name string) bool {
	_, ok := options[name]
	return ok
}

// looksLikeOption is Claude's parser's test (commander's maybeOption): a
// word that ends a variadic option's values and is never an optional value.
func looksLikeOption(arg string) bool { return len(arg) > 1 && arg[0] == '-' }

// Classify reads args as claude's parser (commander) does: options and their
// values first, then the first operand, which is a subcommand when that
// release has one of that name (IsCommand) and otherwise the prompt.
// --version and --help anywhere among the options are commands too.
func Classify(args []string, claude claudever.Binary) Invocation {
	inv := classify(args, claude)
	return fleetInvocation(inv, args, claude)
}

func classify(args []string, claude claudever.Binary) Invocation {
	inv := Invocation{Session: true}
	operand := ""
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			if i+1 < len(args) {
				operand = args[i+1]
			}
			break
		}
		if !looksLikeOption(arg) {
			operand = arg
			break
		}
		name, _, inline := strings.Cut(arg, "=")
		if !strings.HasPrefix(arg, "--") && len(arg) > 2 {
			// -pc is -p -c; -dapi is -d api.
			cmd, print, ok := shortCluster(arg[1:])
			switch {
			case !ok:
				return inv
			case cmd != "":
				return Invocation{Command: cmd}
			}
			inv.Print = inv.Print || print
			continue
		}
		a, known := options[name]
		if !known {
			return inv // Claude stops reading options at one it does not know
		}
		switch name {
		case "-v", "--version", "-h", "--help":
			return Invocation{Command: name}
		case "-p", "--print":
			inv.Print = true
		}
		if inline {
			continue
		}
		switch a {
		case required:
			i++
		case optional:
			if i+1 < len(args) && !looksLikeOption(args[i+1]) {
				i++
			}
		case variadic:
			for i+1 < len(args) && !looksLikeOption(args[i+1]) {
				i++
			}
		}
	}
	if IsCommand(operand, claude) {
		return Invocation{Command: operand}
	}
	return inv
}

// shortCluster reads the letters of a cluster of short options (-pc, -dapi):
// cmd is "-v" or "-h" when one of them asks for the version or help, print
// is true when one is -p; ok is false when a letter is not one of Claude's.
func shortCluster(letters string) (cmd string, print, ok bool) {
	for j := 0; j < len(letters); j++ {
		a, known := options["-"+letters[j:j+1]]
		if !known {
			return "", print, false
		}
		switch letters[j] {
		case 'v', 'h':
			return "-" + letters[j:j+1], print, true
		case 'p':
			print = true
		}
		if a != flag {
			return "", print, true // the rest of the cluster is this option's value
		}
	}
	return "", print, true
}
