// Package mcp reads the MCP servers an account declares and a project's
// overlay, both in Claude Code's .mcp.json shape ({"mcpServers": {…}}), and
// merges them into the value coalesced into .claude.json's "mcpServers" key.
//
// Files are read as JSON.parse reads them: a name given twice takes its last
// value, at the position of its first.
package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/tidwall/gjson"
)

// Server is one MCP server entry: its name and raw JSON object, as written in
// the source file.
type Server struct {
	Name string
	Raw  json.RawMessage
}

// Servers is a set of servers in the order of their source file.
type Servers []Server

// Parse reads a file of the form {"mcpServers": {...}}; file is only used in
// errors. A blank file, or one without "mcpServers", declares no servers.
//
// Each entry must be an object; its "type" is "stdio" (the default when
// absent), "http", "sse" or "ws" (every Claude Code from 2.0.77 takes
// these four); a stdio server needs a non-empty string "command"
// and, when present, "args" must be an array of strings and "env" an object of
// strings; http, sse and ws servers need a non-empty string "url". Other members
// are Claude's to check. Errors name the file and the server:
//
//	.mcp.json: server "x": stdio server needs a "command" string
//
// Invalid JSON is reported with its line and column (a *coalesce.SyntaxError).
func Parse(data []byte, file string) (Servers, error) {
	if err := coalesce.Validate(data); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	raw, ok := coalesce.Get(data, "mcpServers")
	if !ok {
		return nil, nil
	}
	object := gjson.ParseBytes(raw)
	if !object.IsObject() {
		return nil, fmt.Errorf(`%s: "mcpServers" is %s, want an object`, file, coalesce.TypeName(raw))
	}
	var (
		servers Servers
		values  []gjson.Result
		index   = map[string]int{}
	)
	object.ForEach(func(k, v gjson.Result) bool {
		name := keyName(k)
		if i, dup := index[name]; dup {
			values[i] = v // the last one wins; the first is not checked
			return true
		}
		index[name] = len(servers)
		servers = append(servers, Server{Name: name})
		values = append(values, v)
		return true
	})
	for i, v := range values {
		name := servers[i].Name
		if !v.IsObject() {
			return nil, fmt.Errorf("%s: server %q is %s, want an object", file, name, typeOf(v))
		}
		if err := check(v); err != nil {
			return nil, fmt.Errorf("%s: server %q: %w", file, name, err)
		}
		servers[i].Raw = json.RawMessage(v.Raw)
	}
	return servers, nil
}

// keyName returns an object key as JSON.parse reads it. gjson unescapes keys
// itself, but keeps invalid UTF-8 and lone surrogates; encoding/json replaces
// them with U+FFFD, as the coalesce package does.
func keyName(k gjson.Result) string {
	if !strings.Contains(k.Raw, `\`) && utf8.ValidString(k.Str) {
		return k.Str
	}
	var name string
	if err := json.Unmarshal([]byte(k.Raw), &name); err != nil {
		return k.Str
	}
	return name
}

func typeOf(v gjson.Result) string { return coalesce.TypeName([]byte(v.Raw)) }

// check validates one server entry, an object.
func check(v gjson.Result) error {
	fields := map[string]gjson.Result{}
	v.ForEach(func(k, v gjson.Result) bool {
		fields[keyName(k)] = v // the last one wins
		return true
	})
	kind := "stdio"
	if t, ok := fields["type"]; ok {
		if t.Type != gjson.String {
			return fmt.Errorf(`"type" is %s, want a string`, typeOf(t))
		}
		kind = t.Str
	}
	switch kind {
	case "stdio":
		if err := needString(fields, "stdio", "command"); err != nil {
			return err
		}
		if args, ok := fields["args"]; ok {
			if !args.IsArray() {
				return fmt.Errorf(`"args" is %s, want an array of strings`, typeOf(args))
			}
			var err error
			i := 0
			args.ForEach(func(_, a gjson.Result) bool {
				if a.Type != gjson.String {
					err = fmt.Errorf(`"args"[%d] is %s, want a string`, i, typeOf(a))
				}
				i++
				return err == nil
			})
			if err != nil {
				return err
			}
		}
		if env, ok := fields["env"]; ok {
			if !env.IsObject() {
				return fmt.Errorf(`"env" is %s, want an object of strings`, typeOf(env))
			}
			var err error
			env.ForEach(func(k, e gjson.Result) bool {
				if e.Type != gjson.String {
					err = fmt.Errorf(`"env" value %q is %s, want a string`, keyName(k), typeOf(e))
				}
				return err == nil
			})
			if err != nil {
				return err
			}
		}
	case "http", "sse", "ws":
		if err := needString(fields, kind, "url"); err != nil {
			return err
		}
	default:
		return fmt.Errorf(`unknown type %q, want "stdio", "http", "sse" or "ws"`, kind)
	}
	return nil
}

func needString(fields map[string]gjson.Result, kind, name string) error {
	f, ok := fields[name]
	switch {
	case !ok:
		return fmt.Errorf(`%s server needs a %q string`, kind, name)
	case f.Type != gjson.String:
		return fmt.Errorf(`%q is %s, want a string`, name, typeOf(f))
	case f.Str == "":
		return fmt.Errorf(`%q is empty`, name)
	}
	return nil
}

// Merge returns the account's servers with the overlay's applied: a server of
// the same name is replaced whole by the overlay's, at the account's position
// (never deep-merged: that would leave the account's args and env behind);
// new names are appended in overlay order. The inputs are not modified.
func Merge(account, overlay Servers) Servers {
	out := make(Servers, len(account), len(account)+len(overlay))
	copy(out, account)
	index := make(map[string]int, len(out))
	for i, s := range out {
		if _, dup := index[s.Name]; !dup {
			index[s.Name] = i
		}
	}
	for _, s := range overlay {
		if i, ok := index[s.Name]; ok {
			out[i] = s
			continue
		}
		index[s.Name] = len(out)
		out = append(out, s)
	}
	return out
}

// JSON renders the servers as one compact JSON object {"name": {...}, ...} in
// order: the value coalesced into .claude.json's "mcpServers" key. Each Raw
// must be valid JSON, as Parse returns it.
func (s Servers) JSON() []byte {
	var buf bytes.Buffer
	size := 2
	for _, srv := range s {
		size += len(srv.Name) + len(srv.Raw) + 4
	}
	buf.Grow(size)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	buf.WriteByte('{')
	for i, srv := range s {
		if i > 0 {
			buf.WriteByte(',')
		}
		_ = enc.Encode(srv.Name)    // a string always encodes
		buf.Truncate(buf.Len() - 1) // Encode's newline
		buf.WriteByte(':')
		if err := json.Compact(&buf, srv.Raw); err != nil {
			buf.Write(srv.Raw)
		}
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

// Names returns the servers' names in order.
func (s Servers) Names() []string {
	names := make([]string, len(s))
	for i, srv := range s {
		names[i] = srv.Name
	}
	return names
}

// ParseServers reads the value of an "mcpServers" key by itself (as found in
// a .claude.json); empty raw means no servers. file is only used in errors.
func ParseServers(raw []byte, file string) (Servers, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	doc := make([]byte, 0, len(raw)+16)
	doc = append(append(append(doc, `{"mcpServers":`...), raw...), '}')
	return Parse(doc, file)
}

// ParseClaudes reads the "mcpServers" value of a .claude.json, which Claude
// writes: each entry must be an object, and nothing else is checked, since
// Claude knows server types this launcher does not. Empty raw means none.
func ParseClaudes(raw []byte, file string) (Servers, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	if err := coalesce.Validate(raw); err != nil {
		return nil, fmt.Errorf(`%s: "mcpServers": %w`, file, err)
	}
	object := gjson.ParseBytes(raw)
	var (
		servers Servers
		index   = map[string]int{}
		err     error
	)
	object.ForEach(func(k, v gjson.Result) bool {
		name := keyName(k)
		if !v.IsObject() {
			err = fmt.Errorf("%s: server %q is %s, want an object", file, name, typeOf(v))
			return false
		}
		if i, dup := index[name]; dup {
			servers[i].Raw = json.RawMessage(v.Raw) // the last one wins
			return true
		}
		index[name] = len(servers)
		servers = append(servers, Server{Name: name, Raw: json.RawMessage(v.Raw)})
		return true
	})
	return servers, err
}
