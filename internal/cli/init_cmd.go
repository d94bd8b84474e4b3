package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/adopt"
	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/mcp"
)

// InitCmd is `claude-account init NAME [--from DIR]`.
type InitCmd struct {
	Name         string `arg:"" help:"Account name: lower-case letters, digits, '-' and '_', at most 180 characters."`
	Dir          string `placeholder:"DIR" help:"Where to make it. Default: $$CLAUDE_ACCOUNT_DIR, else ~/.claude-NAME (with --from, the dir home-manager declared for the account comes first)."`
	From         string `placeholder:"DIR" help:"Take in an existing Claude Code config dir: ~/.claude (with ~/.claude.json beside it) or a dir used as CLAUDE_CONFIG_DIR. It is only read."`
	IntoExisting bool   `help:"With --from: the account exists (home-manager declares it, or an earlier init made it); add only what it lacks and change nothing it has."`
	DryRun       bool   `help:"With --from: say what would be taken in, and write nothing."`
	JSON         bool   `name:"json" help:"With --from: print the result as JSON."`
}

// Help is shown under the command's usage.
func (c *InitCmd) Help() string {
	return `Makes ~/.claude-NAME with account.toml, settings.json, .mcp.json and commands/, all
plain writable files: edit them by hand. account.toml turns on the launcher's status line
(statusline = true; a statusLine in settings.json wins, and false turns it off). With Nix, declare the account in home-manager instead.
Where a Claude setup exists already (~/.claude, or $CLAUDE_CONFIG_DIR), init without --from
says how to take it into the new account.

With --from DIR it also takes in a Claude Code setup you already have, so that nothing of it
is lost: plain Claude's ~/.claude (Claude keeps its .claude.json beside it, as ~/.claude.json)
or a dir you ran Claude with as CLAUDE_CONFIG_DIR (.claude.json inside). It copies the login
(.credentials.json, mode 0600), settings.json, CLAUDE.md, commands/, agents/, skills/, rules/,
output-styles/, hooks/ and plugins/ (Claude's plugin records are pointed at the new place),
every repository's auto-memory (projects/*/memory/), the user-scope MCP servers, and the
account's own keys of .claude.json: onboarding, preferences, notices already seen, API-key
answers; and every past conversation (projects/*/<id>.jsonl), each into the runtime of the
worktree it ran in, so that --resume and --continue there find it (outside git, into the
account dir). Prompt history and caches stay behind. Files keep their modes, less group and
other write (a hook script writable by others would run as you).

No setting taken in points back into DIR: every string of settings.json and of the MCP
servers that names a path inside it (as /home/you/.claude/…, ~/.claude/…, $HOME/.claude/… or
${HOME}/.claude/…), such as a hook's or the status line's command, is changed to name the
same path in the account, and a file it names that nothing else brings (a status-line
script) comes along. --dry-run and --json list each change; a path that cannot come along (a
directory) is named, with the command to copy it.

The source is only read. A link in it is copied as a link when it points inside it at
something taken in too; any other link is left out, named, and never followed. A
.claude.json, settings.json or plugin record that does not parse stops init with its file,
line and column before anything is written.

An existing account is never overwritten. To take a setup into an account that exists, such
as one home-manager declares, add --into-existing: only what the account lacks is added (a
file, a settings key, a .claude.json key, an MCP server); what it has, and everything Nix
declares, is kept. No Claude of the account may run meanwhile.

Examples:
  claude-account init max && claude-account run --account max
  claude-account init max --from ~/.claude
  claude-account init work --from ~/claude-work --dry-run
  claude-account init max --from ~/.claude --into-existing`
}

// Run makes the account dir, taking in --from when given.
func (c *InitCmd) Run(d *Deps) error {
	if err := account.ValidateName(c.Name); err != nil {
		if lower := strings.ToLower(c.Name); lower != c.Name && account.ValidateName(lower) == nil {
			return UsageError{fmt.Errorf("%w; account names are lower case: claude-account init %s", err, lower)}
		}
		return UsageError{err}
	}
	if c.From == "" && (c.IntoExisting || c.DryRun || c.JSON) {
		return UsageError{errors.New("--into-existing, --dry-run and --json go with --from DIR")}
	}
	dir := c.Dir
	if dir == "" {
		dir = d.Env.Get("CLAUDE_ACCOUNT_DIR")
	}
	if dir == "" && c.From != "" {
		// An account home-manager keeps elsewhere (configDir).
		var err error
		if dir, err = binding.DeclaredAccountDir(d.Env, c.Name); err != nil {
			return err
		}
	}
	if dir == "" {
		dir = account.DefaultDir(d.Env, c.Name)
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(d.Dir, dir)
	}
	// An account no launch could use on this system is not made.
	if err := configdir.KeychainDefaultDir(dir, d.Env.Home(), claudever.Binary{OS: claudever.Host}); err != nil {
		return err
	}
	if !c.DryRun && (c.From != "" || len(adopt.Leftovers(dir)) > 0) {
		// One init --from of an account at a time: what an earlier, killed
		// one left is then no other's work in progress.
		release, err := lock.Account(lock.Dir(d.Env), c.Name)
		if err != nil {
			return err
		}
		defer release()
		sweepInits(d, dir)
	}
	if c.From == "" {
		if err := account.Init(c.Name, dir); err != nil {
			return err
		}
		d.stdout().Linef("made account %s in %s; start Claude with: claude-account run --account %s", c.Name, d.Env.TildePath(dir), c.Name)
		if src := existingSetup(d); src != "" {
			// Without it, the first launch shows Claude's onboarding again
			// and none of the user's setup is there.
			d.notef("note: %s exists: to bring its login, settings, hooks, plugins, MCP servers, onboarding and past conversations into %s, run 'claude-account init %s --from %s --into-existing'",
				d.Env.TildePath(src), c.Name, c.Name, d.Env.ShellPath(src))
		}
		return nil
	}
	return c.adopt(d, dir)
}

// adopt is init --from: find the source, plan, then write.
func (c *InitCmd) adopt(d *Deps, dir string) error {
	from := d.Env.ExpandHome(c.From)
	if !filepath.IsAbs(from) {
		from = filepath.Join(d.Dir, from)
	}
	src, err := adopt.Find(from, d.Env)
	if err != nil {
		return err
	}
	opts := adopt.Options{Dest: dir, Into: c.IntoExisting, Home: d.Env.Home()}
	if c.IntoExisting {
		a, err := account.Load(c.Name, dir)
		var nf *account.NotFoundError
		if errors.As(err, &nf) {
			return fmt.Errorf("%s does not exist; drop --into-existing to make the account from %s", dir, c.From)
		}
		if err != nil {
			return err
		}
		if err := refuseRunning(d, c.Name); err != nil {
			return err
		}
		if opts.Declared, err = declaredServers(a); err != nil {
			return err
		}
	} else if _, err := os.Lstat(dir); err == nil {
		return fmt.Errorf("%s already exists; init never touches an existing account (add --into-existing to take in only what it lacks, or move it away first)", dir)
	}
	plan, err := adopt.Make(src, opts)
	if err != nil {
		return err
	}
	convs, left := planConversations(d, c.Name, dir, src.Dir)
	plan.Skipped = append(plan.Skipped, left...)
	if !c.DryRun {
		if c.IntoExisting {
			err = adopt.Add(plan)
		} else {
			err = adopt.Create(c.Name, plan)
		}
		if err != nil {
			return err
		}
		for _, n := range importConversations(d, dir, convs) {
			d.notef("%s", n)
		}
	}
	if c.JSON {
		return c.printJSON(d, plan, convs)
	}
	c.print(d, plan, convs)
	return nil
}

// existingSetup is the Claude config dir the user already has, for init to
// suggest taking in: $CLAUDE_CONFIG_DIR unless a launch of ours set it
// (CLAUDE_ACCOUNT says so), else ~/.claude; "" when it is not a directory.
func existingSetup(d *Deps) string {
	dir := d.Env.Get("CLAUDE_CONFIG_DIR")
	if dir == "" || d.Env.Get("CLAUDE_ACCOUNT") != "" {
		if d.Env.Home() == "" {
			return ""
		}
		dir = filepath.Join(d.Env.Home(), ".claude")
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() || !filepath.IsAbs(dir) {
		return ""
	}
	return dir
}

// sweepInits removes the staging dirs that inits of this account killed
// midway left beside dir (adopt.SweepLeftovers): each may hold a copy of a
// login. What it cannot remove it says, and doctor reports (init-leftover).
func sweepInits(d *Deps, dir string) {
	removed, err := adopt.SweepLeftovers(dir)
	for _, p := range removed {
		d.notef("removed %s, which an interrupted init left (it may have held a copy of a login)", d.Env.TildePath(p))
	}
	if err != nil {
		d.notef("warning: %v", err)
	}
}

// refuseRunning stops --into-existing while a Claude of the account runs:
// Claude rewrites the .claude.json it read at start and would drop what was added.
func refuseRunning(d *Deps, name string) error {
	held, err := lock.List(lock.Dir(d.Env), lock.AccountKeys(name))
	if err != nil {
		return err
	}
	for _, h := range held {
		if h.Account == name || h.Account == "" {
			return fmt.Errorf("claude (%s) runs as PID %d; quit it (or run 'claude-account close --all --account %s') before init --into-existing", name, h.PID, name)
		}
	}
	return nil
}

// declaredServers are the servers the account declares: they win by name.
func declaredServers(a *account.Account) (mcp.Servers, error) {
	path := filepath.Join(a.DeclaredDir(), ".mcp.json")
	data, err := fsx.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return mcp.Parse(data, path)
}

func (c *InitCmd) print(d *Deps, p *adopt.Plan, convs []ImportedConversation) {
	t := d.Env.TildePath
	verb := "took in"
	switch {
	case c.DryRun && p.Into:
		verb = "would add what it lacks from"
	case c.DryRun:
		verb = "would take in"
	case p.Into:
		verb = "added what it lacked from"
	}
	d.stdout().Linef("%s %s to account %s in %s:", verb, t(p.Source.Dir), c.Name, t(p.Dest))
	if len(p.Parts) == 0 {
		d.stdout().Line("  nothing")
	}
	for _, part := range p.Parts {
		var what []string
		switch {
		case len(part.Names) > 0 && part.Name != "mcpServers":
			what = append(what, fmt.Sprintf("%s (%s)", plural(len(part.Names), "key"), strings.Join(part.Names, ", ")))
		case len(part.Names) > 0:
			what = append(what, strings.Join(part.Names, ", "))
		case part.Files > 0:
			what = append(what, plural(part.Files, "file"))
		}
		if part.Kept > 0 {
			what = append(what, fmt.Sprintf("%d kept as the account has them", part.Kept))
		}
		d.stdout().Linef("  %-12s %s: %s", part.Name, t(part.From), strings.Join(what, "; "))
	}
	if len(convs) > 0 {
		inRuntimes := 0
		for _, ic := range convs {
			if ic.To != p.Dest {
				inRuntimes++
			}
		}
		d.stdout().Linef("  %-12s %s: %s, %d into the runtimes of the worktrees they ran in, %d into the account dir", "conversations",
			t(filepath.Join(p.Source.Dir, "projects")), plural(len(convs), "conversation"), inRuntimes, len(convs)-inRuntimes)
		if c.DryRun {
			for _, ic := range convs {
				where := "its worktree's runtime"
				if ic.To == p.Dest {
					where = "the account dir"
					if ic.Why != "" {
						where += " (" + ic.Why + ")"
					}
				}
				d.stdout().Linef("    %s %s (%s) → %s", ic.ID, ic.Title, t(ic.Cwd), where)
			}
		}
	}
	printRewrites(d, p, c.DryRun)
	all := func(s string) string { // every path under HOME in a sentence, as ~/…
		if h := d.Env.Home(); h != "" && h != "/" {
			s = strings.ReplaceAll(s, h+"/", "~/")
		}
		return s
	}
	for _, n := range p.Source.Notes {
		d.stderr().Linef("claude-account: note: %s", all(n))
	}
	for _, s := range p.Skipped {
		d.stderr().Linef("claude-account: %s: %s", t(s.Path), s.Why) // absolute paths: the hints in it are commands to paste
	}
	if !c.DryRun {
		d.stdout().Linef("%s was not changed; start Claude with: claude-account run --account %s", t(p.Source.Dir), c.Name)
	}
}

// printRewrites lists, file by file, each setting that named the source
// and names the account now.
func printRewrites(d *Deps, p *adopt.Plan, dryRun bool) {
	t := d.Env.TildePath
	verb := "now"
	if dryRun {
		verb = "would name"
	}
	for i := 0; i < len(p.Rewrites); {
		file := p.Rewrites[i].File
		j := i
		for j < len(p.Rewrites) && p.Rewrites[j].File == file {
			j++
		}
		d.stdout().Linef("  %s: %s named %s, %s %s:", file, plural(j-i, "setting"), t(p.Source.Dir), verb, t(p.Dest))
		for _, r := range p.Rewrites[i:j] {
			d.stdout().Linef("    %s: %s → %s", r.Key, r.From, r.To)
		}
		i = j
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func (c *InitCmd) printJSON(d *Deps, p *adopt.Plan, convs []ImportedConversation) error {
	if convs == nil {
		convs = []ImportedConversation{}
	}
	out := struct {
		Account       string                 `json:"account"`
		Dir           string                 `json:"dir"`
		From          string                 `json:"from"`
		ClaudeJSON    string                 `json:"claudeJson"`
		Into          bool                   `json:"intoExisting"`
		DryRun        bool                   `json:"dryRun"`
		Parts         []adopt.Part           `json:"parts"`
		Conversations []ImportedConversation `json:"conversations"`
		Rewritten     []adopt.Rewrite        `json:"rewritten"`
		Skipped       []adopt.Skip           `json:"skipped"`
		Notes         []string               `json:"notes"`
	}{c.Name, p.Dest, p.Source.Dir, p.Source.ClaudeJSON, p.Into, c.DryRun, p.Parts, convs, p.Rewrites, p.Skipped, p.Source.Notes}
	if out.Rewritten == nil {
		out.Rewritten = []adopt.Rewrite{}
	}
	if out.Parts == nil {
		out.Parts = []adopt.Part{}
	}
	if out.Skipped == nil {
		out.Skipped = []adopt.Skip{}
	}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	return d.stdout().JSON(out)
}
