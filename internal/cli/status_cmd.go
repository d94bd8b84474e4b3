package cli

import (
	"fmt"
	"strings"

	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/lock"
)

// StatusCmd is `claude-account status`: read-only, it changes nothing.
type StatusCmd struct {
	AccountFlags
	JSON bool `help:"Print JSON (schema in README-CLAUDE-CODE.md) for scripts."`
}

// Help is shown under the command's usage.
func (c *StatusCmd) Help() string {
	return `Examples:
  claude-account status --account max
  claude-account status --account max --json | jq -r .configDir`
}

// Status is the --json body; its field names are a stable interface.
type Status struct {
	Account     string                `json:"account"`
	AccountDir  string                `json:"accountDir"`
	Context     string                `json:"context"`
	Dir         string                `json:"dir"`
	Toplevel    string                `json:"toplevel"`
	GitDir      string                `json:"gitDir"`
	CommonDir   string                `json:"commonDir"`
	Fingerprint string                `json:"fingerprint"`
	ConfigDir   string                `json:"configDir"`
	Runtime     bool                  `json:"runtime"`
	ReadOnly    string                `json:"readOnlyGitDir,omitempty"`
	Recorded    string                `json:"recordedCheckout,omitempty"` // another checkout owns the git dir: this one's runtime is in the state dir
	Claude      claudever.Binary      `json:"claude"`
	Links       []configdir.LinkState `json:"links"`
	Shared      []configdir.Shared    `json:"shared"`
	Running     []lock.Held           `json:"running"`
	Notes       []string              `json:"notes"`
}

// Run prints the status.
func (c *StatusCmd) Run(d *Deps) error {
	ws, err := c.load(d)
	if err != nil {
		return err
	}
	bin, err := ws.FindClaude()
	if err != nil {
		bin = claudever.Missing(err.Error())
	}
	names := configdir.Linked
	if ws.Layout.IsRuntime {
		names = append(names[:len(names):len(names)], "settings.json")
	}
	names = append(names[:len(names):len(names)], configdir.IDE)
	st := Status{
		Account: ws.Account.Name, AccountDir: ws.Account.Dir, Context: string(ws.Context.Kind),
		Dir: ws.Context.Dir, Toplevel: ws.Context.Toplevel, GitDir: ws.Context.GitDir, CommonDir: ws.Context.CommonDir,
		Fingerprint: ws.Context.Fingerprint, ConfigDir: ws.Layout.ConfigDir, Runtime: ws.Layout.IsRuntime,
		ReadOnly: ws.Layout.ReadOnly, Recorded: ws.Layout.Stranger, Links: configdir.Inspect(ws.Layout.ConfigDir, names), Notes: ws.Context.Notes,
		Shared: configdir.SharedState(ws.Account, ws.Layout, d.Env, bin), Claude: bin,
	}
	held, err := lock.List(lock.Dir(d.Env), func(k string) bool { return k == ws.LockKey() })
	if err != nil {
		return err
	}
	st.Running = append([]lock.Held{}, held...)
	if st.Notes == nil {
		st.Notes = []string{}
	}
	if c.JSON {
		return d.stdout().JSON(st)
	}
	tb := d.stdout().Table()
	row := func(k, v string) {
		if v != "" {
			tb.Row(k, d.Env.TildePath(v))
		}
	}
	row("account", st.Account)
	row("account dir", st.AccountDir)
	row("context", st.Context)
	row("toplevel", st.Toplevel)
	row("git dir", st.GitDir)
	row("fingerprint", st.Fingerprint)
	row("config dir", st.ConfigDir)
	if bin.Path != "" {
		row("claude", claudeWhere(d, bin)+", Claude Code "+bin.Describe())
	} else {
		row("claude", bin.Problem)
	}
	row("read-only git dir", st.ReadOnly)
	row("git dir's checkout", st.Recorded)
	for _, l := range st.Links {
		if l.Kind == "missing" {
			continue
		}
		state := "ok"
		switch {
		case l.Broken != "":
			state = "BROKEN at " + d.Env.TildePath(l.Broken)
		case !l.Resolves:
			state = "BROKEN"
		}
		target := l.Kind
		if len(l.Chain) > 0 {
			target = d.Env.TildePath(l.Chain[0])
		}
		tb.Row("link "+l.Name, target+" ("+state+")")
	}
	for _, s := range st.Shared {
		tb.Row("shared "+s.Name, sharedWhere(d, s))
	}
	for _, h := range st.Running {
		tb.Row("running", fmt.Sprintf("PID %d (claude PID %d) since %s", h.PID, h.ClaudePID, h.Started.Local().Format("2006-01-02 15:04:05")))
	}
	for _, n := range st.Notes {
		tb.Row("note", n)
	}
	return tb.Flush()
}

// sharedWhere is where a shared thing resolves and how: "~/.claude-max
// ($CLAUDE_CODE_REMOTE_MEMORY_DIR)".
func sharedWhere(d *Deps, s configdir.Shared) string {
	if s.Via == "none" {
		return fmt.Sprintf("not shared on this version: needs Claude Code ≥ %s (%s)", s.Needs, s.Note)
	}
	via := s.Via
	if s.Variable != "" {
		via = "$" + s.Variable
	}
	if s.FromUser {
		via += ", set by you"
	}
	where := fmt.Sprintf("%s (%s)", d.Env.TildePath(s.Path), via)
	switch {
	case s.Needs != "":
		where += fmt.Sprintf("; %s needs Claude Code ≥ %s", s.Note, s.Needs)
	case s.Note != "":
		where += "; " + s.Note
	}
	if strings.HasPrefix(s.Mechanism, "keychain") {
		// On Linux the path is the login; a keychain item has none to show.
		where += "; " + s.Mechanism
	}
	return where
}

// claudeWhere names the Claude binary, and the file behind its wrapper where
// its release was read.
func claudeWhere(d *Deps, b claudever.Binary) string {
	if b.Target == "" {
		return d.Env.TildePath(b.Path)
	}
	return d.Env.TildePath(b.Path) + " (a wrapper of " + d.Env.TildePath(b.Target) + ")"
}
