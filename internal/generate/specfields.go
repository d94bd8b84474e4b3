package generate

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/claude-account/claude-account/internal/account"
)

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
			if c.field == "plugins" {
				if err := checkPluginName(name); err != nil {
					return p.fail(field, err.Error())
				}
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
	// usage keeps null apart from false: null leaves the key out of
	// account.toml, so the launcher's own default holds.
	if raw, ok := top["usage"]; ok && !isNull(raw) {
		var v bool
		if err := strictDecode(raw, &v); err != nil {
			return p.fail("usage", jsonProblem(raw, err, "true or false (or null)"))
		}
		s.Usage = &v
	}
	return nil
}

// identity reads who the account's login must be, checked by the rules of
// account.toml's [identity].
func (p *parser) identity(top map[string]json.RawMessage, s *Spec) error {
	raw, ok := top["identity"]
	if !ok || isNull(raw) {
		return nil
	}
	var id struct {
		Email        *string `json:"email"`
		Organization *string `json:"organization"`
	}
	if err := strictDecode(raw, &id); err != nil {
		var ue *unknownFieldError
		if errors.As(err, &ue) {
			return p.fail("identity."+attrName(ue.field), "unknown field; known fields are email, organization")
		}
		return p.fail("identity", jsonProblem(raw, err, "a JSON object"))
	}
	for _, f := range []struct {
		key string
		v   *string
	}{{"email", id.Email}, {"organization", id.Organization}} {
		if f.v != nil && *f.v == "" {
			return p.fail("identity."+f.key, account.EmptyProblem(f.key))
		}
	}
	decl := &account.Identity{}
	if id.Email != nil {
		decl.Email = *id.Email
	}
	if id.Organization != nil {
		decl.Organization = *id.Organization
	}
	if key, problem := decl.Problem(); problem != "" {
		field := "identity"
		if key != "" {
			field += "." + key
		}
		return p.fail(field, problem)
	}
	s.Identity = decl
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

// checkPluginName refuses what Claude Code refuses in the name of a
// plugin's manifest, which a plugin without one gets from its attribute
// name: a space (2.0.77 to 2.1.332), a control or bidirectional-formatting
// character (2.1.332). Claude would not load it at all. As nix/lib/names.nix
// pluginNameProblem, for a spec not made by the module.
func checkPluginName(name string) error {
	if strings.Contains(name, " ") {
		return fmt.Errorf("Claude Code refuses a plugin name with a space and would not load the plugin; use kebab-case, e.g. %s", strconv.Quote(strings.ReplaceAll(name, " ", "-")))
	}
	if strings.IndexFunc(name, refusedInPluginName) >= 0 {
		return errors.New("Claude Code refuses a plugin name with a control or bidirectional-formatting character and would not load the plugin; remove it")
	}
	return nil
}

// refusedInPluginName: Claude Code 2.1.332's pattern
// /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/u.
func refusedInPluginName(r rune) bool {
	return unicode.Is(unicode.Cc, r) || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
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
