package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/shell"
)

// WrapCmd is `claude-account wrap CLAUDE ARGS…`, and `claude-account
// /abs/path/to/claude ARGS…` (no command is an absolute path): the form a
// tool that starts Claude by path runs, such as the VS Code extension with
// claudeCode.claudeProcessWrapper set to the launcher itself.
type WrapCmd struct {
	AccountFlags
	Claude string   `arg:"" name:"claude" help:"The Claude Code binary the tool would run (the extension's bundled one)."`
	Args   []string `arg:"" optional:"" passthrough:"" name:"claude-args" help:"Claude's arguments, passed verbatim."`
}

// Help is shown under the command's usage.
func (c *WrapCmd) Help() string {
	return `Runs the Claude binary given first, as 'run' runs a Claude: on the account of
the workspace, in the worktree's runtime, with the launcher's hooks (ps shows it).
Set once in VS Code, every workspace's panel runs on its own account:
  "claudeCode.claudeProcessWrapper": "/path/to/claude-account"
The extension then runs claude-account /path/to/its/claude --output-format stream-json …,
which is this command: a first argument that is an absolute path needs no 'wrap'.

The account, first found wins:
  1. --account (and --account-dir), given to wrap itself;
  2. the binding of the workspace ('claude-account bind ACCOUNT DIR'), over the
     editor's environment, which is the same for every workspace;
  3. CLAUDE_ACCOUNT (and CLAUDE_ACCOUNT_DIR) in the environment;
  4. CLAUDE_CONFIG_DIR, when it is an account's dir (it holds account.toml);
  5. the one account there is, when there is exactly one.
Else it refuses, naming 'claude-account bind ACCOUNT DIR'.

It writes nothing of its own to stdout, where the tool reads Claude's stream-json;
its notices and refusals go to stderr, which the Agent SDK puts in the error it
throws ("Claude Code process exited with code 1. stderr: claude-account: …").
A tool's sessions in one workspace (the panel's tabs) run side by side, and beside
a terminal session there: only two terminal sessions refuse each other.

Examples:
  claude-account wrap ~/.vscode/extensions/anthropic.claude-code-2.1.332/resources/native-binary/claude -p hi
  claude-account wrap --account max claude --output-format stream-json --input-format stream-json --verbose`
}

// Run resolves the account, checks the Claude binary, and runs the session.
func (c *WrapCmd) Run(d *Deps) error {
	args := c.Args
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if err := notSelf(c.Claude); err != nil {
		return err
	}
	if err := c.pickAccount(d); err != nil {
		return err
	}
	ws, err := c.load(d)
	if err != nil {
		return err
	}
	ws.Wrapped, ws.Panel = c.Claude, true
	bin, err := ws.FindClaude()
	if err != nil {
		return fmt.Errorf("%w (the wrapper's first argument is the Claude binary the tool would run: check the path the tool passed, or reinstall the extension)", err)
	}
	if err := checkWrapped(bin.Path, bin.Known, bin.Problem); err != nil {
		return err
	}
	ws.Signals = launch.CatchSignals()
	io := launchIO(d)
	io.Attended = false // a tool's session: no person at a terminal to notify
	inv := session.Classify(args, bin)
	switch {
	case inv.Fleet:
		st, err := ws.Fleet(args, inv.Starts, io)
		return exitStatus(st, err)
	case !inv.Session:
		return exitStatus(ws.Command(args, io))
	}
	st, err := ws.Session(args, io)
	return exitStatus(st, withStop(d, ws, err))
}

// pickAccount sets c.Account (and AccountDir) in the wrapper's order (Help):
// the flag, the workspace's binding, CLAUDE_ACCOUNT, a CLAUDE_CONFIG_DIR that
// is an account dir, the only account; else the refusal that says how to
// bind one.
func (c *WrapCmd) pickAccount(d *Deps) error {
	if c.Account != "" {
		return nil
	}
	b, ok, err := lookupBinding(d.Env, d.Dir)
	if err != nil {
		return err
	}
	if ok {
		c.Account = b.Account
		// The binding names the account wherever the editor's environment
		// says another one lives.
		if c.AccountDir == "" {
			c.AccountDir, err = binding.AccountDir(d.Env, b.Account)
		}
		return err
	}
	if name := d.Env.Get("CLAUDE_ACCOUNT"); name != "" {
		c.Account = name
		return nil
	}
	if dir := d.Env.Get("CLAUDE_CONFIG_DIR"); dir != "" {
		if name, ok := accountOfDir(d, dir); ok {
			c.Account, c.AccountDir = name, dir
			return nil
		}
	}
	known := binding.KnownAccounts(d.Env)
	if len(known) == 1 {
		c.Account = known[0]
		return nil
	}
	which := "ACCOUNT"
	if len(known) > 0 {
		which = known[0]
	}
	return fmt.Errorf("no account for %s: nothing binds it and the environment names none; run 'claude-account bind %s %s' (%s), then start the session again",
		d.Env.TildePath(d.Dir), which, shell.Quote(d.Env.TildePath(d.Dir)), accountsHint)
}

// accountOfDir names the account whose dir is dir (an editor's
// CLAUDE_CONFIG_DIR=~/.claude-max): one that holds account.toml, named by the
// accounts the launcher knows, else by its own name (.claude-NAME).
func accountOfDir(d *Deps, dir string) (string, bool) {
	dir = d.Env.ExpandHome(dir)
	if !filepath.IsAbs(dir) {
		return "", false
	}
	if fi, err := os.Stat(filepath.Join(dir, account.FileName)); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	canon := binding.Canonical(dir)
	for _, name := range binding.KnownAccounts(d.Env) {
		if ad, err := binding.AccountDir(d.Env, name); err == nil && binding.Canonical(ad) == canon {
			return name, true
		}
	}
	name, ok := strings.CutPrefix(filepath.Base(dir), ".claude-")
	return name, ok && account.ValidateName(name) == nil
}

// notSelf refuses the launcher as the Claude to wrap (the setting given as
// the Claude too), by its name or the name of what it links to, before
// anything runs it.
func notSelf(path string) error {
	names := []string{filepath.Base(path)}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		names = append(names, filepath.Base(real))
	}
	for _, base := range names {
		if base == "claude-account" || strings.HasPrefix(base, "claude-account.") {
			return errors.New(path + " is claude-account itself, not Claude; the wrapper's first argument is the Claude binary the tool would run (claudeCode.claudeProcessWrapper names claude-account, and the extension adds its Claude)")
		}
	}
	return nil
}

// checkWrapped refuses a binary that is not Claude Code: a program no source
// says is a Claude release.
func checkWrapped(path string, known bool, problem string) error {
	if !known {
		return fmt.Errorf("%s is not Claude Code as far as the launcher can tell (%s); the wrapper's first argument must be the Claude binary, as the extension passes it", path, problem)
	}
	return nil
}
