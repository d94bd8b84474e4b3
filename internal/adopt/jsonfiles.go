package adopt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/claude-account/claude-account/internal/claudekeys"
	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/mcp"
)

// settings plans settings.json: copied whole into a new account; with Into,
// only the top-level keys the account's lacks are added (what the account,
// or Nix, sets wins).
func (w *walker) settings() error {
	const rel = "settings.json"
	path := filepath.Join(w.src.Root, rel)
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	part := &Part{Name: "settings", From: filepath.Join(w.src.Dir, rel)}
	defer w.add(part)
	if !fi.Mode().IsRegular() {
		return w.walk(part, rel) // a link: taken in as a link, or reported
	}
	data, mode, err := readRegular(path)
	if err != nil {
		return err
	}
	if err := coalesce.Validate(data); err != nil {
		return jsonError(path, err, "fix the JSON by hand")
	}
	w.copied[rel] = true
	switch w.destState(rel) {
	case "":
		w.settingsData = data
		w.settingsDone = func() error {
			out, err := w.rebase(data, rel, "")
			if err != nil {
				return jsonError(path, err, "fix the JSON by hand")
			}
			w.entry(Entry{Op: Write, Rel: rel, Data: out, Mode: mode})
			return nil
		}
		part.Files++
		return nil
	case "file":
	default:
		part.Kept++
		w.skip(rel, fmt.Sprintf("not taken in: the account's %s is not a plain file (a link Nix made), kept", filepath.Join(w.p.Dest, rel)))
		return nil
	}
	destPath := filepath.Join(w.p.Dest, rel)
	have, destMode, err := readRegular(destPath)
	if err != nil {
		return err
	}
	keys, err := missingKeys(data, have, destPath, func(string) bool { return true })
	if err != nil {
		return err
	}
	if len(keys) == 0 {
		part.Kept++
		return nil
	}
	for _, k := range keys {
		w.settingsData = append(w.settingsData, k.Raw...) // scanned value by value
		w.settingsData = append(w.settingsData, '\n')
	}
	w.settingsDone = func() error {
		if err := w.rebaseKeys(keys, rel); err != nil {
			return jsonError(path, err, "fix the JSON by hand")
		}
		out, _, err := coalesce.Splice(have, keys)
		if err != nil {
			return jsonError(destPath, err, "fix the JSON by hand")
		}
		w.entry(Entry{Op: Write, Rel: rel, Data: out, Mode: destMode, Replace: true})
		return nil
	}
	part.Files++
	part.Names = keyNames(keys)
	return nil
}

// missingKeys lists the top-level keys of src (in its order) that want
// accepts and have lacks, with src's values.
func missingKeys(src, have []byte, havePath string, want func(string) bool) ([]coalesce.Key, error) {
	names, err := coalesce.TopLevelKeys(src)
	if err != nil {
		return nil, err
	}
	if err := coalesce.Validate(have); err != nil {
		return nil, jsonError(havePath, err, "fix the JSON by hand")
	}
	var keys []coalesce.Key
	for _, name := range names {
		if !want(name) {
			continue
		}
		if _, ok, _ := coalesce.Lookup(have, name); ok {
			continue
		}
		raw, ok, err := coalesce.Lookup(src, name)
		if err != nil {
			return nil, err
		}
		if ok {
			keys = append(keys, coalesce.Key{Name: name, Raw: raw})
		}
	}
	return keys, nil
}

func keyNames(keys []coalesce.Key) []string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Name
	}
	return names
}

// claudeJSON plans the account's .claude.json: the account's keys and the
// user-scope MCP servers of the source's; with Into, only keys and servers
// the account's lacks (a server it declares wins by name).
func (w *walker) claudeJSON(declared mcp.Servers) error {
	const rel = ".claude.json"
	path := w.src.ClaudeJSON
	if path == "" {
		return nil
	}
	fix := "fix the JSON by hand or restore it from " + filepath.Join(w.src.Dir, "backups")
	data, _, err := readRegular(path)
	if err != nil {
		return err
	}
	if err := coalesce.Validate(data); err != nil {
		return jsonError(path, err, fix)
	}
	raw, _, err := coalesce.Lookup(data, "mcpServers")
	if err != nil {
		return jsonError(path, err, fix)
	}
	if raw != nil {
		if raw, err = w.rebase(raw, rel, "mcpServers"); err != nil {
			return jsonError(path, err, fix)
		}
	}
	servers, err := mcp.ParseClaudes(raw, path)
	if err != nil {
		return fmt.Errorf("%w; %s (nothing was written)", err, fix)
	}
	var have []byte
	destPath := filepath.Join(w.p.Dest, rel)
	switch w.destState(rel) {
	case "":
	case "file":
		if have, _, err = readRegular(destPath); err != nil {
			return err
		}
	default:
		w.skip(rel, fmt.Sprintf("not taken in: the account's %s is not a plain file, so no MCP servers or keys are", destPath))
		return nil
	}
	keys, err := missingKeys(data, have, destPath, claudekeys.IsAccount)
	if err != nil {
		return err
	}
	if len(keys) > 0 {
		w.add(&Part{Name: "keys", From: path, Names: keyNames(keys)})
		if err := w.rebaseKeys(keys, rel); err != nil {
			return jsonError(path, err, fix)
		}
	}
	haveRaw, _, err := coalesce.Lookup(have, "mcpServers")
	if err != nil {
		return jsonError(destPath, err, "fix the JSON by hand")
	}
	merged, err := mcp.ParseClaudes(haveRaw, destPath)
	if err != nil {
		return fmt.Errorf("%w; fix the JSON by hand (nothing was written)", err)
	}
	taken := &Part{Name: "mcpServers", From: path}
	w.add(taken)
	for _, s := range servers {
		switch {
		case slices.Contains(declared.Names(), s.Name):
			taken.Kept++
			w.p.Skipped = append(w.p.Skipped, Skip{Path: path, Why: fmt.Sprintf("MCP server %q not taken in: the account declares its own", s.Name)})
		case slices.Contains(merged.Names(), s.Name):
			taken.Kept++
		default:
			merged = append(merged, s)
			taken.Names = append(taken.Names, s.Name)
		}
	}
	if len(taken.Names) > 0 {
		keys = append(keys, coalesce.Key{Name: "mcpServers", Raw: merged.JSON()})
	}
	if len(keys) == 0 {
		return nil
	}
	out, _, err := coalesce.Splice(have, keys)
	if err != nil {
		return jsonError(destPath, err, "fix the JSON by hand")
	}
	w.entry(Entry{Op: Write, Rel: rel, Data: out, Secret: true, Mode: 0o600, Replace: have != nil})
	return nil
}

// jsonError names the file, line and column of invalid JSON, and the fix.
func jsonError(path string, err error, fix string) error {
	var se *coalesce.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s:%d:%d: %s; %s (nothing was written)", path, se.Line, se.Column, se.Msg, fix)
	}
	return fmt.Errorf("%s: %v; %s (nothing was written)", path, err, fix)
}
