// Package generate builds layer 1 of an account, the read-only directory that
// Nix keeps in the store, from one account's declaration.
//
// The declaration is a JSON object, written by nix/lib (mkSpec) with
// builtins.toJSON from the options programs.claude-code.accounts.<name>.
// Field names are the option names, camelCase. Every field but name may be
// missing or null, which means its default:
//
//	name            string, required; [a-z0-9][a-z0-9_-]*
//	claude          string: absolute path of the Claude binary; null: `claude` on PATH
//	settings        object: the declared settings.json; {} or null: no file
//	settingsMode    "coalesce" (default) or "link"
//	mcpServers      object of objects: the declared servers, written as
//	                .mcp.json {"mcpServers": {…}}; {} or null: no file
//	commands        object: name → content; commands/<name>.md. A name may hold
//	                '/' (subdirectories) but no empty, "." or ".." segment
//	agents          object: name → content; agents/<name>.md, names as commands
//	skills          object: name → content; one path segment each.
//	                {"text": …} and a file source become skills/<name>/SKILL.md,
//	                a directory source is copied to skills/<name>/
//	memory          content or null: CLAUDE.md
//	coalesceKeys    array of strings: the .claude.json keys the account owns
//	                (default ["mcpServers"])
//	singleInstance  bool (default true)
//	notify          bool (default false): a desktop notification when a
//	                session starts to wait (nix/lib leaves it out when false)
//	usage           bool or null (default null: account.toml without the
//	                key, which records): false stops recording the account's
//	                rate limits and the status line that records them
//	projectMcp      "trusted" (default) or "never"
//	identity        object or null: who the account's login must be,
//	                {"email": …, "organization": …}, each a string or null,
//	                at least one set (account.toml's [identity]; nix/lib
//	                leaves it out when null)
//	worktree        object (each field optional):
//	                  dir                 string, relative (default ".claude/worktrees")
//	                  symlinkDirectories  array of relative paths (default [])
//	                  sparsePaths         array of strings (default [])
//	                  useHooks            bool (default false)
//
// A content is an object with exactly one of
//
//	{"text": "…"}      the file's content
//	{"source": "/…"}   a file (or, for skills, a directory) to copy; absolute,
//	                   or relative to the directory of the spec file
//
// Unknown fields are an error, like unknown keys in account.toml: a typo in a
// declaration must not be dropped silently.
package generate

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/claude-account/claude-account/internal/account"
)

// Settings modes and project MCP policies, as account.toml spells them.
const (
	SettingsCoalesce  = "coalesce"
	SettingsLink      = "link"
	ProjectMCPTrusted = "trusted"
	ProjectMCPNever   = "never"
)

// Content is a file's body, given inline or by a path to copy.
type Content struct {
	Text   *string `json:"text,omitempty"`
	Source string  `json:"source,omitempty"`
}

// Worktree holds the settings of `claude-account worktree`.
type Worktree struct {
	Dir                string   `json:"dir"`
	SymlinkDirectories []string `json:"symlinkDirectories"`
	SparsePaths        []string `json:"sparsePaths"`
	UseHooks           bool     `json:"useHooks"`
}

// Spec is one account's declaration with every default filled in.
type Spec struct {
	Name         string
	Claude       string // "" when null: claude on PATH
	Settings     map[string]any
	SettingsMode string
	MCPServers   map[string]any
	Commands     map[string]Content
	Agents       map[string]Content
	Skills       map[string]Content
	Memory       *Content
	// What home-manager's own programs.claude-code declares too, with the
	// same meaning: rules/<name>.md, output-styles/<name>.md, hooks/<name>
	// (executable), plugins (personal plugins, skills/<name>/), LSP servers
	// (one generated plugin), marketplaces (extraKnownMarketplaces), and
	// whole directories copied into agents/, commands/, hooks/, rules/ and
	// skills/.
	Rules          map[string]Content
	OutputStyles   map[string]Content
	Hooks          map[string]Content
	Plugins        map[string]Content
	LSPServers     map[string]any
	Marketplaces   map[string]Content
	Dirs           map[string]Content // agentsDir, commandsDir, hooksDir, rulesDir, skillsDir
	CoalesceKeys   []string
	SingleInstance bool
	Notify         bool
	Usage          *bool             // nil: the key left out (the launcher records)
	Identity       *account.Identity // nil: anyone
	ProjectMCP     string
	Worktree       Worktree
}

// SpecError is a bad declaration: one line naming the spec file, the account
// and the field (as the option path below the account, e.g. commands."a/b").
type SpecError struct {
	File    string
	Account string // "" when the name itself is missing or unreadable
	Field   string
	Problem string
}

func (e *SpecError) Error() string {
	var b strings.Builder
	b.WriteString("spec ")
	b.WriteString(e.File)
	if e.Account != "" {
		b.WriteString(": account ")
		b.WriteString(strconv.Quote(e.Account))
	}
	if e.Field != "" {
		b.WriteString(": ")
		b.WriteString(e.Field)
	}
	b.WriteString(": ")
	b.WriteString(e.Problem)
	return b.String()
}

// knownFields are the spec's top-level fields, in the order of the doc above.
var knownFields = []string{
	"name", "claude", "settings", "settingsMode", "mcpServers", "commands",
	"agents", "skills", "memory", "coalesceKeys", "singleInstance", "notify",
	"usage", "projectMcp", "worktree", "identity", "rules", "outputStyles", "hooks", "plugins",
	"lspServers", "marketplaces", "agentsDir", "commandsDir", "hooksDir",
	"rulesDir", "skillsDir",
}

// DirFields are the spec's whole-directory fields and the layer-1 directory
// each is copied into.
var DirFields = map[string]string{"agentsDir": "agents", "commandsDir": "commands", "hooksDir": "hooks",
	"rulesDir": "rules", "skillsDir": "skills"}

// ReadSpec reads and checks a spec file.
func ReadSpec(file string) (*Spec, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	return ParseSpec(data, file)
}

// ParseSpec decodes and checks a spec; file names the spec in errors and
// anchors relative sources.
func ParseSpec(data []byte, file string) (*Spec, error) {
	p := &parser{file: file}
	var top map[string]json.RawMessage
	if err := strictDecode(data, &top); err != nil {
		return nil, p.fail("", jsonProblem(data, err, "a JSON object"))
	}
	if top == nil {
		return nil, p.fail("", "must be a JSON object, not null")
	}

	// The name first, so every later error can name the account.
	raw, ok := top["name"]
	if !ok || isNull(raw) {
		return nil, p.fail("name", "missing; every spec names its account")
	}
	var name string
	if err := strictDecode(raw, &name); err != nil {
		return nil, p.fail("name", jsonProblem(raw, err, "a string"))
	}
	if account.ValidateName(name) != nil {
		p.account = name
		if len(name) > account.MaxNameLen && account.ValidateName(name[:account.MaxNameLen]) == nil {
			return nil, p.fail("name", fmt.Sprintf("is %d characters long; the limit is %d", len(name), account.MaxNameLen))
		}
		return nil, p.fail("name", "must match [a-z0-9][a-z0-9_-]* (lower-case letters, digits, '-' and '_')")
	}
	p.account = name

	unknown := []string{}
	for k := range top {
		if !contains(knownFields, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, p.fail(attrName(unknown[0]), "unknown field; known fields are "+strings.Join(knownFields, ", "))
	}

	s := &Spec{
		Name:           name,
		SettingsMode:   SettingsCoalesce,
		CoalesceKeys:   []string{"mcpServers"},
		SingleInstance: true,
		ProjectMCP:     ProjectMCPTrusted,
		Worktree:       Worktree{Dir: ".claude/worktrees", SymlinkDirectories: []string{}, SparsePaths: []string{}},
	}
	steps := []func(map[string]json.RawMessage, *Spec) error{
		p.claude, p.settings, p.enums, p.mcpServers, p.contents, p.memory,
		p.coalesceKeys, p.flags, p.worktree, p.identity, p.parity,
	}
	for _, step := range steps {
		if err := step(top, s); err != nil {
			return nil, err
		}
	}
	return s, nil
}
