// Package cli is claude-account's command line: one file per command, each a
// struct with a Run method; everything a command needs comes in through Deps.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/out"
)

// Deps is what commands read instead of globals, so tests and the launcher
// name can steer them.
type Deps struct {
	Env    env.Env
	Dir    string // the working directory
	Prog   string // the program name: claudemax selects the account "max"
	Stdin  *os.File
	Stdout io.Writer
	Stderr io.Writer
	Now    func() time.Time
	// command is the subcommand the command line named ("worktree new"),
	// for the --help a usage error points at; "" before it is known.
	command string
}

// CLI is the command tree.
type CLI struct {
	Run        RunCmd        `cmd:"" help:"Start Claude Code for an account in this directory's workspace."`
	Status     StatusCmd     `cmd:"" help:"Show the account, the git context, the config dir and its links."`
	Doctor     DoctorCmd     `cmd:"" help:"Find and fix what would stop Claude from working here."`
	Close      CloseCmd      `cmd:"" help:"Stop the account's running Claude (this workspace, or --all)."`
	Ps         PsCmd         `cmd:"" help:"List the running Claude sessions of every account: where, and whether they work or wait for you."`
	Jump       JumpCmd       `cmd:"" help:"Switch this tmux client to a session's pane: the one named, or the one waiting longest."`
	Sessions   SessionsCmd   `cmd:"" help:"List the conversations of this repository (or --all), wherever they are kept."`
	Resume     ResumeCmd     `cmd:"" help:"Continue a conversation wherever it is kept, in its worktree (made again if removed), on its account or another."`
	Purge      PurgeCmd      `cmd:"" help:"Remove the account's copies of conversations past Claude's retention (or --older-than)."`
	ConfigDirs ConfigDirsCmd `cmd:"" name:"config-dirs" help:"Print every dir holding the account's conversations, comma-separated, for CLAUDE_CONFIG_DIR of usage tools (ccusage)."`
	Worktree   WorktreeCmd   `cmd:"" help:"Make, list, remove and sweep worktrees for parallel sessions."`
	Trust      TrustCmd      `cmd:"" help:"Approve a project's .claude/.mcp.json so its servers load."`
	Untrust    UntrustCmd    `cmd:"" help:"Revoke the approval of a project's .claude/.mcp.json."`
	Init       InitCmd       `cmd:"" help:"Make a writable account dir for use without Nix."`
	Accounts   AccountsCmd   `cmd:"" help:"List the accounts: name, dir, whether logged in, and the Claude Code each runs."`
	Clone      CloneCmd      `cmd:"" help:"Clone a repository (bare, kept fetched) and make or reuse a worktree for a branch."`
	ByDir      byDirCmds     `embed:""`
	Wrap       WrapCmd       `cmd:"" help:"Run the Claude binary a tool names (the VS Code panel's claudeProcessWrapper) on the workspace's account and runtime."`
	Hook       HookCmd       `cmd:"" help:"Claude Code's hooks: worktrees and session state (run by Claude, not by hand)."`
	MCPEnv     MCPEnvCmd     `cmd:"" name:"mcp-env" help:"Start an MCP server with secrets read from files (run by Claude: the Nix module's env.VAR.file)."`
	Generate   GenerateCmd   `cmd:"" help:"Build an account's store layer from a spec (used by the Nix module)." hidden:""`
	Version    VersionCmd    `cmd:"" help:"Print the version."`
	Help       HelpCmd       `cmd:"" help:"Show the help of claude-account, or of a command: help worktree new."`
}

// AccountFlags select an account; commands that act on one embed them.
type AccountFlags struct {
	Account    string `short:"a" placeholder:"NAME" help:"Account to use. Default: $$CLAUDE_ACCOUNT, else the program name (claudemax → max), else the directory's binding (see bind)."`
	AccountDir string `placeholder:"DIR" help:"The account's directory. Default: $$CLAUDE_ACCOUNT_DIR, else ~/.claude-NAME."`
}

// ExitCodeError carries a status up to Main untouched: Claude's own exit code.
type ExitCodeError int

func (e ExitCodeError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// SignalError says Claude was killed by a signal; Main dies of the same one.
type SignalError struct{ launch.Status }

func (e SignalError) Error() string { return "claude was killed by " + e.Signal.String() }

// UsageError is a mistake in the command line: exit status 2.
type UsageError struct{ error }

const description = `Run Claude Code with one account's configuration and one writable runtime per git worktree.

Installed as claude<name> (a link to claude-account), every argument goes to Claude:
  claudemax -p "hello"      is   claude-account run --account max -- -p "hello"

'claude-account accounts' lists the accounts; 'claude-account help COMMAND' explains one.`

// Main runs the command line argv (argv[0] included) and returns the exit status.
func Main(argv []string) int {
	wd, err := os.Getwd()
	if err != nil {
		out.To(os.Stderr).Linef("claude-account: the current directory is gone: %v; cd somewhere that exists", err)
		return 1
	}
	d := &Deps{
		Env: env.FromOS(), Dir: wd, Prog: filepath.Base(argv[0]),
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Now: time.Now,
	}
	return run(d, argv[1:])
}

func run(d *Deps, args []string) int {
	err := dispatch(d, args)
	var ec ExitCodeError
	var se SignalError
	var ue UsageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &se):
		launch.Reraise(se.Signal)
		return 128 + int(se.Signal)
	case errors.As(err, &ec):
		return int(ec)
	case errors.As(err, &ue):
		help := "claude-account --help"
		if d.command != "" {
			help = "claude-account " + d.command + " --help"
		}
		d.stderr().Line("claude-account: " + ue.Error() + "; see '" + help + "'")
		return 2
	}
	d.stderr().Line("claude-account: " + strings.TrimPrefix(err.Error(), "claude-account: "))
	// Only our own "already running" has an exit status of its own: a git
	// failure deep inside must not leak git's 128 as ours.
	var running *lock.AlreadyRunningError
	if errors.As(err, &running) {
		return running.ExitCode()
	}
	return 1
}

// HelpCmd is `claude-account help [COMMAND…]`; dispatch turns it into
// COMMAND… --help, so kong prints the very same text.
type HelpCmd struct {
	Command []string `arg:"" optional:"" help:"The command, such as worktree new."`
}

// Help is shown under the command's usage.
func (HelpCmd) Help() string {
	return `Prints the same as --help: claude-account help is claude-account --help, and
claude-account help worktree new is claude-account worktree new --help.

Examples:
  claude-account help
  claude-account help run`
}

// Run is reached only as help --help's neighbour (help -x): print the top-level help.
func (HelpCmd) Run(d *Deps) error { return dispatch(d, []string{"--help"}) }

// exitCode lets kong's --help and parse errors end dispatch without os.Exit.
type exitCode int

func dispatch(d *Deps, args []string) (err error) {
	if (len(args) == 6 || len(args) == 7 && args[6] == "--notify") && args[0] == "hook" && args[1] == "state" && args[2] == "--id" && args[4] == "--token" {
		// Every hook event of every session: no kong. First, so that a
		// launcher installed as a hard link named claude<name> still
		// answers its hooks; no prompt has this shape.
		return hookState(d, args[2:])
	}
	if name, ok := launcherAccount(d.Prog); ok {
		// claude<name>: every argument belongs to Claude, but for a leading
		// --worktree NAME (and --ephemeral) that picks where it runs.
		run := &RunCmd{AccountFlags: AccountFlags{Account: name}}
		for len(args) > 0 {
			if v, ok := strings.CutPrefix(args[0], "--worktree="); ok {
				run.Worktree, args = v, args[1:]
			} else if args[0] == "--worktree" && len(args) > 1 {
				run.Worktree, args = args[1], args[2:]
			} else if args[0] == "--ephemeral" {
				run.Ephemeral, args = true, args[1:]
			} else {
				break
			}
		}
		run.Args = args
		return run.Run(d)
	}
	if len(args) > 0 && args[0] == "mcp-env" && (len(args) != 2 || args[1] != "--help" && args[1] != "-h") {
		// Every start of an MCP server with a secret in a file: the words
		// after -- are the server's, never ours to parse. Only as
		// claude-account (the Nix module runs it so): to claude<name>,
		// "mcp-env" is a prompt like any other word.
		d.command = "mcp-env"
		return mcpEnv(d, args[1:])
	}
	if len(args) > 0 && filepath.IsAbs(args[0]) {
		// claude-account /path/to/claude ARGS…: a tool that runs its Claude
		// through a wrapper (claudeCode.claudeProcessWrapper). No command
		// is an absolute path, and every later word is Claude's: no kong.
		return (&WrapCmd{Claude: args[0], Args: args[1:]}).Run(d)
	}
	if len(args) == 0 {
		// No command (as 'nix run' of the flake starts it): teach, don't scold.
		args = []string{"--help"}
	}
	if args[0] == "help" && (len(args) == 1 || !strings.HasPrefix(args[1], "-")) {
		// help worktree new is worktree new --help, as git and go answer it.
		args = append(append([]string(nil), args[1:]...), "--help")
	}
	if args[0] == "--version" {
		// What every other program answers; claude<name> --version, above,
		// is Claude's own.
		args = append([]string{"version"}, args[1:]...)
	}
	if len(args) == 1 && args[0] == "version" {
		// What scripts and package checks run most: no parser needed.
		return VersionCmd{}.Run(d)
	}
	parser, err := kong.New(commandTree(args),
		kong.Name("claude-account"),
		kong.Description(description),
		kong.Writers(d.Stdout, d.Stderr),
		kong.Exit(func(code int) { panic(exitCode(code)) }),
		kong.Bind(d),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
	)
	if err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			c, ok := r.(exitCode)
			if !ok {
				panic(r)
			}
			if c != 0 {
				err = ExitCodeError(c)
			} else {
				err = nil
			}
		}
	}()
	ctx, err := parser.Parse(args)
	var pe *kong.ParseError
	switch {
	case errors.As(err, &pe) && pe.Context != nil:
		d.command = commandPath(pe.Context)
	case err == nil:
		d.command = commandPath(ctx)
	}
	if err != nil {
		return UsageError{err}
	}
	return ctx.Run(d)
}

// commandTree is what kong parses args with: the tree of the one command
// args name, or the whole CLI for the top-level help and for a first word
// that names no command (kong's error then lists them). kong builds its
// model of a tree by reflection, and a model of every command costs most of
// a command's start-up (BenchmarkStartup: 14 times the allocations of one
// command's); the one command's help, flags and errors are the same either
// way.
func commandTree(args []string) any {
	var full CLI
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return &full
	}
	field, ok := commandField(reflect.TypeOf(full), args[0])
	if !ok {
		return &full
	}
	return reflect.New(reflect.StructOf([]reflect.StructField{field})).Interface()
}

// commandField finds the field of the command tree t that kong names name:
// its name tag, else its Go name in lower case, looking into embedded trees.
func commandField(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if _, ok := f.Tag.Lookup("embed"); ok && f.Type.Kind() == reflect.Struct {
			if g, ok := commandField(f.Type, name); ok {
				return g, true
			}
			continue
		}
		if _, ok := f.Tag.Lookup("cmd"); !ok {
			continue
		}
		n := f.Tag.Get("name")
		if n == "" {
			n = strings.ToLower(f.Name)
		}
		if n == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// commandPath is the subcommand a parse reached, without its arguments:
// "worktree new" for "worktree new <name>".
func commandPath(ctx *kong.Context) string {
	var words []string
	for _, w := range strings.Fields(ctx.Command()) {
		if !strings.HasPrefix(w, "<") {
			words = append(words, w)
		}
	}
	return strings.Join(words, " ")
}

// launcherAccount reads the account from a program name like claudemax or
// claude-max: a dash after "claude" only separates, as account names never
// start with one. claude-account (and claude-account.*) is the launcher
// itself, not the account "account".
func launcherAccount(prog string) (string, bool) {
	name, ok := strings.CutPrefix(prog, "claude")
	if !ok || name == "-account" || strings.HasPrefix(name, "-account.") {
		return "", false
	}
	name = strings.TrimPrefix(name, "-")
	return name, name != ""
}

// notef prints one notice line on stderr, prefixed and kept on one line.
func (d *Deps) notef(format string, args ...any) {
	d.stderr().Line("claude-account: " + fmt.Sprintf(format, args...))
}

// stdout and stderr are where commands print, always through package out:
// what a repository names reaches no terminal as a control sequence.
func (d *Deps) stdout() out.Printer { return out.To(d.Stdout) }
func (d *Deps) stderr() out.Printer { return out.To(d.Stderr) }
