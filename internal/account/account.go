// Package account finds and loads an account: its directory (layer 2), the
// launcher settings in account.toml, and where its declared files are.
package account

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/shell"
)

// FileName is the launcher's settings file inside an account dir.
const FileName = "account.toml"

// Content is what an account dir holds for Claude to read and every runtime
// links to whole (per-file links inside commands/ have gone undiscovered by
// Claude before; directories work), and what init --from takes in whole.
var Content = []string{"commands", "agents", "skills", "rules", "output-styles", "hooks", "CLAUDE.md"}

// Settings modes: coalesce keeps a writable settings.json in each config dir
// and enforces the declared keys at every launch; link keeps the seed's
// read-only 2-hop link (Claude's own writes to settings.json then fail).
const (
	SettingsCoalesce = "coalesce"
	SettingsLink     = "link"
)

// Project overlay policies.
const (
	ProjectMCPTrusted = "trusted"
	ProjectMCPNever   = "never"
)

// Config is account.toml. Unknown keys are an error: a typo must not be
// silently ignored in a file that decides which servers run.
type Config struct {
	Name           string   `toml:"name"`
	Claude         string   `toml:"claude,omitempty"`
	Declared       string   `toml:"declared"`
	SettingsMode   string   `toml:"settings_mode"`
	CoalesceKeys   []string `toml:"coalesce_keys"`
	SingleInstance *bool    `toml:"single_instance"`
	ProjectMCP     string   `toml:"project_mcp"`
	// StatusLine makes `claude-account statusline` the account's statusLine,
	// unless its settings have one.
	StatusLine bool `toml:"statusline,omitempty"`
	// Usage = false stops recording the account's rate limits (the status
	// line that records them takes a row of Claude's screen).
	Usage *bool `toml:"usage,omitempty"`
	// Notify shows a desktop notification when a session of the account
	// starts to wait for its user (notify-send, or osascript on macOS).
	Notify   bool     `toml:"notify,omitempty"`
	Worktree Worktree `toml:"worktree"`
	// Identity is who the account's login must be; nil: anyone (a launch
	// checks nothing).
	Identity *Identity `toml:"identity,omitempty"`
}

// Worktree holds the settings of `claude-account worktree`.
type Worktree struct {
	Dir         string   `toml:"dir"`
	SymlinkDirs []string `toml:"symlink_dirs"`
	SparsePaths []string `toml:"sparse_paths"`
	UseHooks    bool     `toml:"use_hooks"`
}

// Account is a loaded account.
type Account struct {
	Name   string
	Dir    string // layer 2, absolute, as the user names it (not symlink-resolved: runtime links point here)
	Config Config
}

// DeclaredDir is where the declared settings.json and .mcp.json live: the
// account dir itself, or (under Nix) a link to the store such as declared/.
func (a *Account) DeclaredDir() string {
	if a.Config.Declared == "" {
		return a.Dir
	}
	if filepath.IsAbs(a.Config.Declared) {
		return a.Config.Declared
	}
	return filepath.Join(a.Dir, a.Config.Declared)
}

// WorktreeDir is [worktree] dir with "~/" read as the home directory; ""
// means the default, and a relative dir is relative to the repository root.
func (a *Account) WorktreeDir(e env.Env) string { return e.ExpandHome(a.Config.Worktree.Dir) }

// RecordsUsage reports whether sessions record the account's rate limits.
func (a *Account) RecordsUsage() bool { return a.Config.Usage == nil || *a.Config.Usage }

// SingleInstance reports whether only one Claude may run per workspace.
func (a *Account) SingleInstance() bool {
	return a.Config.SingleInstance == nil || *a.Config.SingleInstance
}

// ManagedKeys are the .claude.json keys the account owns; mcpServers always.
func (a *Account) ManagedKeys() []string {
	keys := []string{"mcpServers"}
	for _, k := range a.Config.CoalesceKeys {
		if k != "mcpServers" {
			keys = append(keys, k)
		}
	}
	return keys
}

// MaxNameLen is the longest account name. Each session's id is its
// instance lock's name, <name>-<16 hex digits of the fingerprint>.<slot>
// (slots up to 63), and the state hook takes ids of up to 200 characters
// (session.ValidID): 200 - len("-0123456789abcdef.63") = 180. A longer name
// was accepted, and 'ps' then showed its sessions as starting forever.
const MaxNameLen = 180

// ValidateName checks an account name: [a-z0-9][a-z0-9_-]*, at most
// MaxNameLen characters. Names become directory and program names, so
// nothing that could climb out of HOME passes.
func ValidateName(name string) error {
	if name == "" {
		return errors.New("account name is empty")
	}
	for i, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || i > 0 && (r == '-' || r == '_')
		if !ok {
			return fmt.Errorf("account name %q is not valid: use lower-case letters, digits, '-' and '_', starting with a letter or digit", name)
		}
	}
	if name == "auto" {
		return errors.New(`"auto" cannot name an account: --account auto picks the account with the most headroom; choose another name`)
	}
	if len(name) > MaxNameLen {
		return fmt.Errorf("account name %q is %d characters long; the limit is %d (the name is part of each session's id, which Claude's state hook takes up to 200 characters)", name, len(name), MaxNameLen)
	}
	return nil
}

// DefaultDir is where an account lives unless CLAUDE_ACCOUNT_DIR says otherwise.
func DefaultDir(e env.Env, name string) string {
	return filepath.Join(e.Home(), ".claude-"+name)
}

// NotFoundError says an account dir does not exist, and how to make one.
type NotFoundError struct {
	Name, Dir string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("account %q not found: %s does not exist; run 'claude-account init %s' or declare it in home-manager", e.Name, e.Dir, e.Name)
}

// Load reads the account name from dir (default ~/.claude-<name>). A missing
// account.toml means all defaults: a hand-made account dir still works.
func Load(name, dir string) (*Account, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &NotFoundError{Name: name, Dir: dir}
	}
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a directory; an account is a directory (run 'claude-account init %s' after moving the file away)", dir, name)
	}
	a := &Account{Name: name, Dir: dir}
	path := filepath.Join(dir, FileName)
	data, err := fsx.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		a.Config.Name = name
	case err != nil:
		return nil, err
	default:
		if a.Config, err = Parse(data, path); err != nil {
			return nil, err
		}
		if a.Config.Name != "" && a.Config.Name != name {
			return nil, fmt.Errorf("%s: name is %q but the account is %q; fix the name, or use --account %s --account-dir %s", path, a.Config.Name, name, a.Config.Name, shell.Quote(dir))
		}
		a.Config.Name = name
	}
	return a, nil
}

// Parse decodes and checks account.toml; path is only used in errors.
func Parse(data []byte, path string) (Config, error) {
	var c Config
	md, err := toml.Decode(string(data), &c)
	if err != nil {
		return c, tomlError(path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return c, fmt.Errorf("%s: unknown key %s; known keys are name, claude, declared, settings_mode, coalesce_keys, single_instance, project_mcp, statusline, usage, notify, [worktree] dir, symlink_dirs, sparse_paths, use_hooks and [identity] email, organization", path, strings.Join(keys, ", "))
	}
	if c.Name != "" {
		if err := ValidateName(c.Name); err != nil {
			return c, fmt.Errorf("%s: %v", path, err)
		}
	}
	// A relative path would be found from wherever Claude is started: in a
	// repository, a file of the repository's. Only ~/ is expanded (the
	// launcher's own home, never another user's).
	if cl := c.Claude; strings.Contains(cl, "/") && !filepath.IsAbs(cl) && !strings.HasPrefix(cl, "~/") ||
		strings.HasPrefix(cl, "~") && !strings.HasPrefix(cl, "~/") {
		return c, fmt.Errorf("%s: claude = %q is not an absolute path; write the full path (only ~/ is expanded), or a bare name to find on PATH", path, cl)
	}
	switch c.SettingsMode {
	case "":
		c.SettingsMode = SettingsCoalesce
	case SettingsCoalesce, SettingsLink:
	default:
		return c, fmt.Errorf("%s: settings_mode = %q; use %q or %q", path, c.SettingsMode, SettingsCoalesce, SettingsLink)
	}
	switch c.ProjectMCP {
	case "":
		c.ProjectMCP = ProjectMCPTrusted
	case ProjectMCPTrusted, ProjectMCPNever:
	default:
		return c, fmt.Errorf("%s: project_mcp = %q; use %q or %q", path, c.ProjectMCP, ProjectMCPTrusted, ProjectMCPNever)
	}
	for _, k := range c.CoalesceKeys {
		if k == "" {
			return c, fmt.Errorf("%s: coalesce_keys has an empty key; remove it", path)
		}
	}
	for _, key := range []string{"email", "organization"} {
		if md.IsDefined("identity", key) && c.Identity.field(key) == "" {
			return c, fmt.Errorf("%s: [identity] %s = \"\" %s", path, key, EmptyProblem(key))
		}
	}
	if err := c.Identity.check(path); err != nil {
		return c, err
	}
	return c, nil
}

// tomlError turns a decode error into "file:line:col: what; fix". Syntax
// errors are toml.ParseError; type mismatches are plain errors that read
// "toml: line 1 (last key "x"): …".
func tomlError(path string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		msg := pe.Message
		if pe.LastKey != "" {
			msg = "key " + pe.LastKey + ": " + msg
		}
		return fmt.Errorf("%s:%d:%d: %s; fix that line", path, pe.Position.Line, pe.Position.Col, msg)
	}
	msg := strings.TrimPrefix(err.Error(), "toml: ")
	if m := typeMismatch().FindStringSubmatch(msg); m != nil {
		line, key := m[1], m[2]
		want, ok := keyTypes[key]
		if !ok {
			want = "another type"
		}
		got := "a value of another type"
		if m[3] == "" {
			m[3] = m[4]
		}
		for pattern, name := range tomlTypes {
			if strings.HasPrefix(m[3], pattern) {
				got = name
			}
		}
		return fmt.Errorf("%s:%s: %s must be %s, not %s; fix that value", path, line, key, want, got)
	}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, tail, ok := strings.Cut(rest, " "); ok {
			return fmt.Errorf("%s:%s: %s; fix that value", path, n, tail)
		}
	}
	return fmt.Errorf("%s: %s", path, msg)
}

// typeMismatch matches the decoder's type errors, which name Go types:
// "line 1 (last key "x"): incompatible types: TOML value has type string; …"
// and "… type mismatch for account.Worktree: expected table but found int64".
// It is compiled only on this error path, never at start-up.
var typeMismatch = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^line (\d+) \(last key "([^"]+)"\): (?:incompatible types: TOML value has type (\S+);|type mismatch for \S+: expected \S+ but found (\S+))`)
})

// keyTypes says, for each key of account.toml, what its value must be.
var keyTypes = map[string]string{
	"name": "a string", "claude": "a string", "declared": "a string", "settings_mode": "a string",
	"project_mcp": "a string", "coalesce_keys": "a list of strings", "single_instance": "true or false",
	"statusline": "true or false", "usage": "true or false", "notify": "true or false",
	"identity": "a table ([identity])", "identity.email": "a string", "identity.organization": "a string",
	"worktree": "a table ([worktree])", "worktree.dir": "a string", "worktree.symlink_dirs": "a list of strings",
	"worktree.sparse_paths": "a list of strings", "worktree.use_hooks": "true or false",
}

// tomlTypes names, for people, the Go types the decoder reports.
var tomlTypes = map[string]string{"string": "a string", "int64": "a number", "float64": "a number",
	"bool": "true or false", "[]": "a list", "map[": "a table", "time.": "a date"}

// Init makes a writable account dir for use without Nix. It refuses to touch
// anything that exists: an account dir holds a login.
func Init(name, dir string) error {
	if err := ValidateName(name); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s already exists; init never touches an existing account (use it as it is, or move it away first)", dir)
		}
		return err
	}
	files := []struct {
		name string
		data string
		mode fs.FileMode
	}{
		// statusline: on for an account init makes, in the one place a user
		// sees and edits; absent, it is off (accounts made before, and
		// home-manager's, whose option says so).
		{FileName, fmt.Sprintf("# Launcher settings for the %q account; see README-CLAUDE-CODE.md.\nname = %q\n"+
			"# claude-account statusline as each session's status line, unless settings.json has one of its own.\nstatusline = true\n"+
			"# A desktop notification when a session starts to wait for you (notify-send; osascript on macOS).\n# notify = true\n"+
			"# Who the account's login must be (email, and/or organization: its name or uuid); a session\n"+
			"# logged in as anyone else is refused. Keep this table last.\n# [identity]\n# email = \"you@example.com\"\n", name, name), 0o644},
		{"settings.json", "{}\n", 0o600},
		{".mcp.json", "{\n  \"mcpServers\": {}\n}\n", 0o600},
	}
	for _, f := range files {
		if err := fsx.WriteFile(filepath.Join(dir, f.name), []byte(f.data), f.mode); err != nil {
			return err
		}
	}
	return os.Mkdir(filepath.Join(dir, "commands"), 0o755)
}
