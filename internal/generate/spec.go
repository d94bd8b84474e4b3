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
//	projectMcp      "trusted" (default) or "never"
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
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

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
	"projectMcp", "worktree", "rules", "outputStyles", "hooks", "plugins",
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
		p.coalesceKeys, p.flags, p.worktree, p.parity,
	}
	for _, step := range steps {
		if err := step(top, s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

type parser struct {
	file    string
	account string
}

func (p *parser) fail(field, problem string) error {
	return &SpecError{File: p.file, Account: p.account, Field: field, Problem: problem}
}

func (p *parser) claude(top map[string]json.RawMessage, s *Spec) error {
	raw, ok := top["claude"]
	if !ok || isNull(raw) {
		return nil
	}
	if err := strictDecode(raw, &s.Claude); err != nil {
		return p.fail("claude", jsonProblem(raw, err, "a string or null"))
	}
	if !filepath.IsAbs(s.Claude) {
		return p.fail("claude", fmt.Sprintf("%q is not an absolute path; give the Claude binary's full path, or null for claude on PATH", s.Claude))
	}
	if strings.ContainsAny(s.Claude, "\n\x00") {
		return p.fail("claude", "holds a newline or NUL byte")
	}
	return nil
}

func (p *parser) settings(top map[string]json.RawMessage, s *Spec) error {
	obj, err := p.object(top, "settings")
	s.Settings = obj
	return err
}

// object decodes an optional JSON object, keeping numbers exactly as written.
func (p *parser) object(top map[string]json.RawMessage, field string) (map[string]any, error) {
	raw, ok := top[field]
	if !ok || isNull(raw) {
		return nil, nil
	}
	var obj map[string]any
	if err := strictDecode(raw, &obj); err != nil {
		return nil, p.fail(field, jsonProblem(raw, err, "a JSON object"))
	}
	return obj, nil
}

func (p *parser) enums(top map[string]json.RawMessage, s *Spec) error {
	for _, e := range []struct {
		field  string
		dst    *string
		values []string
	}{
		{"settingsMode", &s.SettingsMode, []string{SettingsCoalesce, SettingsLink}},
		{"projectMcp", &s.ProjectMCP, []string{ProjectMCPTrusted, ProjectMCPNever}},
	} {
		raw, ok := top[e.field]
		if !ok || isNull(raw) {
			continue
		}
		var v string
		if err := strictDecode(raw, &v); err != nil {
			return p.fail(e.field, jsonProblem(raw, err, "a string"))
		}
		if !contains(e.values, v) {
			return p.fail(e.field, fmt.Sprintf("must be %q or %q, not %q", e.values[0], e.values[1], v))
		}
		*e.dst = v
	}
	return nil
}

func (p *parser) mcpServers(top map[string]json.RawMessage, s *Spec) error {
	obj, err := p.object(top, "mcpServers")
	if err != nil {
		return err
	}
	for _, name := range sortedKeys(obj) {
		field := "mcpServers." + attrName(name)
		if name == "" {
			return p.fail(field, "a server needs a name")
		}
		if _, ok := obj[name].(map[string]any); !ok {
			return p.fail(field, fmt.Sprintf("must be a JSON object (the server's command, args, env or url), not %s", jsonKind(obj[name])))
		}
	}
	s.MCPServers = obj
	return nil
}

func (p *parser) contents(top map[string]json.RawMessage, s *Spec) error {
	for _, c := range []struct {
		field string
		dst   *map[string]Content
	}{
		{"commands", &s.Commands},
		{"agents", &s.Agents},
		{"skills", &s.Skills},
		{"rules", &s.Rules},
		{"outputStyles", &s.OutputStyles},
		{"hooks", &s.Hooks},
		{"plugins", &s.Plugins},
		{"marketplaces", &s.Marketplaces},
	} {
		raw, ok := top[c.field]
		if !ok || isNull(raw) {
			continue
		}
		var entries map[string]json.RawMessage
		if err := strictDecode(raw, &entries); err != nil {
			return p.fail(c.field, jsonProblem(raw, err, "a JSON object of name → {\"text\": …} or {\"source\": …}"))
		}
		out := make(map[string]Content, len(entries))
		for _, name := range sortedKeys(entries) {
			field := c.field + "." + attrName(name)
			oneSegment := c.field == "skills" || c.field == "plugins" || c.field == "marketplaces" || c.field == "hooks"
			if err := checkEntryName(name, c.field, oneSegment); err != nil {
				return p.fail(field, err.Error())
			}
			content, err := p.content(entries[name], field)
			if err != nil {
				return err
			}
			out[name] = content
		}
		*c.dst = out
	}
	return nil
}

// parity reads lspServers and the whole-directory fields; plugins and
// marketplaces (read as contents) must name directories.
func (p *parser) parity(top map[string]json.RawMessage, s *Spec) error {
	if raw, ok := top["lspServers"]; ok && !isNull(raw) {
		obj, err := p.object(top, "lspServers")
		if err != nil {
			return err
		}
		s.LSPServers = obj
	}
	for _, field := range sortedKeys(DirFields) {
		raw, ok := top[field]
		if !ok || isNull(raw) {
			continue
		}
		c, err := p.content(raw, field)
		if err != nil {
			return err
		}
		if c.Source == "" {
			return p.fail(field, `needs {"source": "/path/to/dir"}: a directory, not text`)
		}
		if s.Dirs == nil {
			s.Dirs = map[string]Content{}
		}
		s.Dirs[field] = c
	}
	for field, entries := range map[string]map[string]Content{"plugins": s.Plugins, "marketplaces": s.Marketplaces} {
		for _, name := range sortedKeys(entries) {
			if entries[name].Source == "" {
				return p.fail(field+"."+attrName(name), `needs {"source": "/path/to/dir"}: a directory, not text`)
			}
		}
	}
	return nil
}

func (p *parser) memory(top map[string]json.RawMessage, s *Spec) error {
	raw, ok := top["memory"]
	if !ok || isNull(raw) {
		return nil
	}
	c, err := p.content(raw, "memory")
	if err != nil {
		return err
	}
	s.Memory = &c
	return nil
}

// content decodes {"text": …} or {"source": …}; relative sources are made
// absolute against the spec's directory.
func (p *parser) content(raw json.RawMessage, field string) (Content, error) {
	var c Content
	if err := strictDecode(raw, &c); err != nil {
		return c, p.fail(field, jsonProblem(raw, err, `{"text": "…"} or {"source": "/path"}`))
	}
	switch {
	case c.Text != nil && c.Source != "":
		return c, p.fail(field, `has both "text" and "source"; give one`)
	case c.Text == nil && c.Source == "":
		return c, p.fail(field, `needs "text" or "source"`)
	case c.Source != "" && !filepath.IsAbs(c.Source):
		c.Source = filepath.Join(filepath.Dir(p.file), c.Source)
		if !filepath.IsAbs(c.Source) {
			abs, err := filepath.Abs(c.Source)
			if err != nil {
				return c, p.fail(field, err.Error())
			}
			c.Source = abs
		}
	}
	return c, nil
}

func (p *parser) coalesceKeys(top map[string]json.RawMessage, s *Spec) error {
	raw, ok := top["coalesceKeys"]
	if !ok || isNull(raw) {
		return nil
	}
	keys, err := p.strings(raw, "coalesceKeys")
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, k := range keys {
		if k == "" {
			return p.fail(fmt.Sprintf("coalesceKeys[%d]", i), "is empty; name a top-level key of .claude.json")
		}
		if seen[k] {
			return p.fail(fmt.Sprintf("coalesceKeys[%d]", i), fmt.Sprintf("%q is listed twice", k))
		}
		seen[k] = true
	}
	s.CoalesceKeys = keys
	return nil
}

// flags reads the spec's true-or-false fields.
func (p *parser) flags(top map[string]json.RawMessage, s *Spec) error {
	for _, f := range []struct {
		name string
		dst  *bool
	}{{"singleInstance", &s.SingleInstance}, {"notify", &s.Notify}} {
		raw, ok := top[f.name]
		if !ok || isNull(raw) {
			continue
		}
		if err := strictDecode(raw, f.dst); err != nil {
			return p.fail(f.name, jsonProblem(raw, err, "true or false"))
		}
	}
	return nil
}

func (p *parser) worktree(top map[string]json.RawMessage, s *Spec) error {
	raw, ok := top["worktree"]
	if !ok || isNull(raw) {
		return nil
	}
	var w struct {
		Dir                *string         `json:"dir"`
		SymlinkDirectories json.RawMessage `json:"symlinkDirectories"`
		SparsePaths        json.RawMessage `json:"sparsePaths"`
		UseHooks           *bool           `json:"useHooks"`
	}
	if err := strictDecode(raw, &w); err != nil {
		var ue *unknownFieldError
		if errors.As(err, &ue) {
			return p.fail("worktree."+attrName(ue.field), "unknown field; known fields are dir, symlinkDirectories, sparsePaths, useHooks")
		}
		return p.fail("worktree", jsonProblem(raw, err, "a JSON object"))
	}
	if w.Dir != nil {
		if err := checkRelative(*w.Dir); err != nil {
			return p.fail("worktree.dir", err.Error())
		}
		s.Worktree.Dir = *w.Dir
	}
	if w.UseHooks != nil {
		s.Worktree.UseHooks = *w.UseHooks
	}
	if len(w.SymlinkDirectories) > 0 && !isNull(w.SymlinkDirectories) {
		dirs, err := p.strings(w.SymlinkDirectories, "worktree.symlinkDirectories")
		if err != nil {
			return err
		}
		for i, d := range dirs {
			if err := checkRelative(d); err != nil {
				return p.fail(fmt.Sprintf("worktree.symlinkDirectories[%d]", i), err.Error())
			}
		}
		s.Worktree.SymlinkDirectories = dirs
	}
	if len(w.SparsePaths) > 0 && !isNull(w.SparsePaths) {
		paths, err := p.strings(w.SparsePaths, "worktree.sparsePaths")
		if err != nil {
			return err
		}
		for i, sp := range paths {
			if strings.TrimSpace(sp) == "" || strings.ContainsAny(sp, "\n\x00") {
				return p.fail(fmt.Sprintf("worktree.sparsePaths[%d]", i), "must be a non-empty single-line path")
			}
		}
		s.Worktree.SparsePaths = paths
	}
	return nil
}

func (p *parser) strings(raw json.RawMessage, field string) ([]string, error) {
	var list []string
	if err := strictDecode(raw, &list); err != nil {
		return nil, p.fail(field, jsonProblem(raw, err, "an array of strings"))
	}
	if list == nil {
		list = []string{}
	}
	return list, nil
}

// checkEntryName checks a commands/agents/skills/… attribute name: it becomes
// a relative path below layer 1 and must stay there. kind is the option
// ("hooks"), for the message.
func checkEntryName(name, kind string, oneSegment bool) error {
	switch {
	case name == "":
		return errors.New("the name is empty")
	case strings.HasPrefix(name, "/"):
		return errors.New("the name is an absolute path; use a relative name")
	case strings.ContainsAny(name, "\\\x00\n"):
		return errors.New("the name holds a backslash, NUL or newline")
	case oneSegment && strings.Contains(name, "/"):
		return fmt.Errorf("a name in %s is one path segment, without '/'", kind)
	}
	for _, seg := range strings.Split(name, "/") {
		switch seg {
		case "":
			return errors.New("the name has an empty path segment ('//' or a trailing '/')")
		case ".", "..":
			return fmt.Errorf("the name has a %q segment; names stay inside their directory", seg)
		}
	}
	return nil
}

// checkRelative checks a path relative to a worktree's top level.
func checkRelative(p string) error {
	switch {
	case p == "":
		return errors.New("is empty")
	case strings.HasPrefix(p, "/"):
		return fmt.Errorf("%q is absolute; give a path relative to the repository's top level", p)
	case strings.ContainsAny(p, "\x00\n"):
		return errors.New("holds a NUL or newline")
	}
	for _, seg := range strings.Split(path.Clean(p), "/") {
		if seg == ".." {
			return fmt.Errorf("%q climbs out of the repository with '..'", p)
		}
	}
	if path.Clean(p) == "." {
		return fmt.Errorf("%q is the repository's top level itself", p)
	}
	return nil
}

// unknownFieldError carries the field json.Decoder rejected.
type unknownFieldError struct{ field string }

func (e *unknownFieldError) Error() string { return "unknown field " + strconv.Quote(e.field) }

// strictDecode decodes exactly one JSON value: numbers stay json.Number,
// unknown struct fields and trailing data are errors.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			if uq, err2 := strconv.Unquote(f); err2 == nil {
				return &unknownFieldError{field: uq}
			}
		}
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// jsonProblem turns a decode error into "must be X, not Y" or a located
// syntax error.
func jsonProblem(data []byte, err error, want string) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var ue *unknownFieldError
	switch {
	case errors.As(err, &se):
		line, col := lineCol(data, se.Offset)
		return fmt.Sprintf("invalid JSON at line %d, column %d: %v", line, col, se)
	case errors.As(err, &ue):
		return fmt.Sprintf("unknown field %q; must be %s", ue.field, want)
	case errors.As(err, &te):
		got := te.Value
		if te.Field != "" {
			return fmt.Sprintf("field %q must not be %s; must be %s", te.Field, got, want)
		}
		return fmt.Sprintf("must be %s, not %s", want, got)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return "invalid JSON: unexpected end of input"
	default:
		return fmt.Sprintf("must be %s: %v", want, err)
	}
}

// lineCol gives the 1-based line and column of the byte that ended a
// syntax error: Offset counts the bytes read, that byte included.
func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off > 0 {
		off--
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

func isNull(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	default:
		return "an object"
	}
}

// simpleAttr is a lazily compiled pattern: it is only needed to word an
// error, and compiling it at init would cost every launch of the program.
var simpleAttr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_'-]*$`) })

// attrName spells an attribute name as Nix does in an option path.
func attrName(name string) string {
	if simpleAttr().MatchString(name) {
		return name
	}
	return strconv.Quote(name)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
