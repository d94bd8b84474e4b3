package generate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/BurntSushi/toml"
	"github.com/claude-account/claude-account/internal/account"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Layer 1 modes: everything lands in the store, read-only; executables in a
// copied skill keep one execute bit set for all.
const (
	fileMode = 0o444
	execMode = 0o555
	dirMode  = 0o555
)

// epoch is the time every generated file and directory carries, as in the
// Nix store, so that two runs are identical down to their metadata.
var epoch = time.Unix(1, 0)

// Declared is the account.toml value of declared: the layer-2 link, relative
// to the account dir, through which the launcher reads settings.json and
// .mcp.json from layer 1.
const Declared = "declared"

// Run builds layer 1 for the account declared in specFile into outDir, which
// must not exist yet or be an empty directory.
func Run(specFile, outDir string) error {
	spec, err := ReadSpec(specFile)
	if err != nil {
		return err
	}
	return Write(spec, outDir)
}

// Write builds layer 1 for spec into outDir (absent or empty). Only declared
// files are written, plus account.toml. On error nothing is left behind:
// outDir is removed again, or emptied when it existed before.
func Write(spec *Spec, outDir string) (err error) {
	created, err := makeOutDir(outDir)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, undo(outDir, created))
		}
	}()
	w := &writer{root: outDir, account: spec.Name}
	w.json("settings.json", "settings", withMarketplaces(spec.Settings, spec.Marketplaces))
	if len(spec.MCPServers) > 0 {
		w.json(".mcp.json", "mcpServers", map[string]any{"mcpServers": spec.MCPServers})
	}
	w.markdown("commands", spec.Commands)
	w.markdown("agents", spec.Agents)
	w.skills(spec.Skills)
	w.markdown("rules", spec.Rules)
	w.markdown("output-styles", spec.OutputStyles)
	for _, name := range sortedKeys(spec.Hooks) {
		w.contentMode("hooks/"+name, "hooks."+attrName(name), spec.Hooks[name], execMode)
	}
	// Personal plugins: a plugin directory in skills/ is loaded with its
	// skills, agents, commands, hooks and MCP servers (Claude Code ≥ 2.1.157;
	// before, the launcher passes it with --plugin-dir), as home-manager's
	// own module does.
	for _, name := range sortedKeys(spec.Plugins) {
		w.plugin(name, spec.Plugins[name].Source)
	}
	if len(spec.LSPServers) > 0 {
		// Claude Code reads LSP servers from plugins: one generated plugin
		// carries them.
		w.json("skills/"+LSPPlugin+"/.claude-plugin/plugin.json", "lspServers", map[string]any{"name": LSPPlugin})
		w.json("skills/"+LSPPlugin+"/.lsp.json", "lspServers", spec.LSPServers)
	}
	// Whole directories last: an entry declared by name above and again in
	// the directory is declared twice, an error.
	for _, field := range sortedKeys(spec.Dirs) {
		if field == "skillsDir" {
			w.skillsDirClash(spec, spec.Dirs[field].Source)
		}
		w.exec = field == "hooksDir" // hook scripts run, whatever mode their source had
		w.tree(DirFields[field], field, spec.Dirs[field].Source)
		w.exec = false
	}
	if spec.Memory != nil {
		w.content("CLAUDE.md", "memory", *spec.Memory)
	}
	w.file("account.toml", "account.toml", AccountTOML(spec), fileMode)
	if w.err != nil {
		return w.err
	}
	return seal(outDir)
}

// makeOutDir creates dir, or accepts it when it is an empty directory;
// created tells which.
func makeOutDir(dir string) (created bool, err error) {
	err = os.Mkdir(dir, 0o755)
	if err == nil {
		return true, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return false, fmt.Errorf("out %s: %w", dir, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, fmt.Errorf("out %s: %w", dir, err)
	}
	if len(entries) > 0 {
		return false, fmt.Errorf("out %s: already exists and is not empty; give a new directory", dir)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return false, fmt.Errorf("out %s: %w", dir, err)
	}
	return false, nil
}

// undo removes what a failed Write made below dir, and dir itself when
// Write created it.
func undo(dir string, created bool) error {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	if created {
		return os.RemoveAll(dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// writer writes below root and keeps the first error, naming the field.
type writer struct {
	root    string
	account string
	err     error
	exec    bool // copies are made executable (hooks)
}

func (w *writer) fail(field string, err error) {
	if w.err == nil {
		w.err = fmt.Errorf("account %q: %s: %w", w.account, field, err)
	}
}

func (w *writer) json(rel, field string, v map[string]any) {
	if w.err != nil || len(v) == 0 {
		return
	}
	data, err := MarshalJSON(v)
	if err != nil {
		w.fail(field, err)
		return
	}
	w.file(rel, field, data, fileMode)
}

func (w *writer) markdown(dir string, entries map[string]Content) {
	for _, name := range sortedKeys(entries) {
		w.content(dir+"/"+name+".md", dir+"."+attrName(name), entries[name])
	}
}

func (w *writer) skills(entries map[string]Content) {
	for _, name := range sortedKeys(entries) {
		field := "skills." + attrName(name)
		c := entries[name]
		if c.Text != nil {
			w.file("skills/"+name+"/SKILL.md", field, []byte(*c.Text), fileMode)
			continue
		}
		fi, err := os.Stat(c.Source)
		if err != nil {
			w.fail(field, err)
			continue
		}
		if fi.IsDir() {
			w.tree("skills/"+name, field, c.Source)
		} else {
			w.content("skills/"+name+"/SKILL.md", field, c)
		}
	}
}

// plugin copies a plugin directory to skills/<name>/. Claude Code loads no
// plugin without .claude-plugin/plugin.json, which a plain directory of
// commands/ or skills/ lacks: as home-manager's own module does, one that
// names the plugin is written beside the other files of .claude-plugin/. A
// manifest of the plugin's own is copied as it is.
func (w *writer) plugin(name, src string) {
	field := "plugins." + attrName(name)
	w.tree("skills/"+name, field, src)
	if w.err != nil {
		return
	}
	// Copied through links: what Lstat sees is what the source holds.
	for _, rel := range []string{".claude-plugin", ".claude-plugin/plugin.json"} {
		fi, err := os.Lstat(filepath.Join(w.root, "skills", name, filepath.FromSlash(rel)))
		if errors.Is(err, fs.ErrNotExist) {
			break // written below
		}
		if err != nil {
			w.fail(field, err)
			return
		}
		if want := rel == ".claude-plugin"; fi.IsDir() != want {
			w.fail(field, manifestShapeError(src, rel, want))
			return
		}
	}
	manifest := "skills/" + name + "/.claude-plugin/plugin.json"
	if _, err := os.Lstat(filepath.Join(w.root, filepath.FromSlash(manifest))); err == nil {
		return
	}
	w.json(manifest, field, map[string]any{"name": name})
}

// manifestShapeError says that a plugin's rel is a file where Claude Code
// wants a directory (dir) or the other way round, and the fix.
func manifestShapeError(src, rel string, dir bool) error {
	path := filepath.Join(src, filepath.FromSlash(rel))
	if dir {
		return fmt.Errorf("`%s` is a file, but Claude Code reads a plugin's manifest from the directory `.claude-plugin/` (`.claude-plugin/plugin.json`); remove the file, or make it that directory", path)
	}
	return fmt.Errorf("`%s` is a directory, but Claude Code reads a plugin's manifest from that file; make it a JSON file naming the plugin, or remove it and one is written", path)
}

// LSPPlugin is the generated plugin that carries an account's LSP servers.
const LSPPlugin = "claude-account-lsp"

// skillsDirClash fails when the skills directory (the skills option given as
// a whole directory) holds an entry named like a skill, plugin or the LSP
// plugin declared one by one: both would become one skills/<name>/, their
// files merged without a word. Evaluation reads a directory given as a Nix
// path and asserts the same; a build output can be read only here. The
// message names the Nix options, as that assertion does.
func (w *writer) skillsDirClash(spec *Spec, src string) {
	if w.err != nil {
		return
	}
	owners := map[string]string{}
	for name := range spec.Skills {
		owners[name] = "`" + optionPath(spec.Name, "skills", attrName(name)) + "`"
	}
	for name := range spec.Plugins {
		owners[name] = "`" + optionPath(spec.Name, "plugins", attrName(name)) + "`"
	}
	if len(spec.LSPServers) > 0 {
		owners[LSPPlugin] = "`" + optionPath(spec.Name, "lspServers") + "` (its plugin)"
	}
	resolved, err := filepath.EvalSymlinks(src)
	if err != nil {
		return // tree reports it
	}
	entries, err := os.ReadDir(resolved)
	if err != nil {
		return
	}
	for _, e := range entries { // sorted by name
		owner, ok := owners[e.Name()]
		if !ok {
			continue
		}
		both := []string{owner, "`" + optionPath(spec.Name, "skills") + "` (`" + filepath.Join(src, e.Name()) + "`)"}
		sort.Strings(both)
		w.err = fmt.Errorf("account %q: %s and %s both become `skills/%s/` in the account dir; give each its own name",
			spec.Name, both[0], both[1], e.Name())
		return
	}
}

// optionPath is the home-manager option of account name below path, as
// the module's assertions spell it.
func optionPath(name string, path ...string) string {
	return "programs.claude-code.accounts." + strings.Join(append([]string{attrName(name)}, path...), ".")
}

// withMarketplaces adds the declared marketplaces to settings'
// extraKnownMarketplaces, where Claude Code reads them (a marketplace the
// settings name themselves wins).
func withMarketplaces(settings map[string]any, markets map[string]Content) map[string]any {
	if len(markets) == 0 {
		return settings
	}
	out := make(map[string]any, len(settings)+1)
	for k, v := range settings {
		out[k] = v
	}
	known := map[string]any{}
	if m, ok := out["extraKnownMarketplaces"].(map[string]any); ok {
		for k, v := range m {
			known[k] = v
		}
	}
	for _, name := range sortedKeys(markets) {
		if _, ok := known[name]; !ok {
			known[name] = map[string]any{"source": map[string]any{"source": "directory", "path": markets[name].Source}}
		}
	}
	out["extraKnownMarketplaces"] = known
	return out
}

// content writes a text or copies a source file.
func (w *writer) content(rel, field string, c Content) {
	w.contentMode(rel, field, c, fileMode)
}

// contentMode is content with the file's mode.
func (w *writer) contentMode(rel, field string, c Content, mode os.FileMode) {
	if w.err != nil {
		return
	}
	if c.Text != nil {
		w.file(rel, field, []byte(*c.Text), mode)
		return
	}
	fi, err := os.Stat(c.Source)
	if err != nil {
		w.fail(field, err)
		return
	}
	if !fi.Mode().IsRegular() {
		w.fail(field, fmt.Errorf("source %s is not a regular file", c.Source))
		return
	}
	data, err := os.ReadFile(c.Source)
	if err != nil {
		w.fail(field, err)
		return
	}
	w.file(rel, field, data, mode)
}

// tree copies a directory, following symbolic links (like cp -rL) so that
// layer 1 never holds a link that could dangle; a link cycle is an error.
func (w *writer) tree(rel, field, src string) {
	resolved, err := filepath.EvalSymlinks(src)
	if err != nil {
		w.fail(field, err)
		return
	}
	w.copyDir(rel, field, resolved, map[string]bool{})
}

func (w *writer) copyDir(rel, field, src string, active map[string]bool) {
	if w.err != nil {
		return
	}
	if active[src] {
		w.fail(field, fmt.Errorf("source %s: symbolic link cycle", src))
		return
	}
	active[src] = true
	defer delete(active, src)
	if err := os.MkdirAll(filepath.Join(w.root, filepath.FromSlash(rel)), 0o755); err != nil {
		w.fail(field, err)
		return
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		w.fail(field, err)
		return
	}
	for _, e := range entries { // sorted by name
		p := filepath.Join(src, e.Name())
		resolved, err := filepath.EvalSymlinks(p)
		if err != nil {
			w.fail(field, fmt.Errorf("source %s: %w", p, err))
			return
		}
		fi, err := os.Stat(resolved)
		if err != nil {
			w.fail(field, err)
			return
		}
		switch {
		case fi.IsDir():
			w.copyDir(rel+"/"+e.Name(), field, resolved, active)
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(resolved)
			if err != nil {
				w.fail(field, err)
				return
			}
			mode := os.FileMode(fileMode)
			if fi.Mode()&0o111 != 0 || w.exec {
				mode = execMode
			}
			w.file(rel+"/"+e.Name(), field, data, mode)
		default:
			w.fail(field, fmt.Errorf("source %s is neither a file nor a directory", p))
		}
		if w.err != nil {
			return
		}
	}
}

// file creates rel (slash-separated, below root) with data; it never
// replaces an existing file, so two declarations of one path are an error.
func (w *writer) file(rel, field string, data []byte, mode os.FileMode) {
	if w.err != nil {
		return
	}
	path := filepath.Join(w.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.fail(field, err)
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			err = fmt.Errorf("%s is declared twice", rel)
		}
		w.fail(field, err)
		return
	}
	_, err = f.Write(data)
	err = errors.Join(err, f.Close())
	if err == nil {
		err = os.Chmod(path, mode)
	}
	if err != nil {
		w.fail(field, err)
	}
}

// seal makes the tree read-only and stamps every entry with epoch, children
// before their directory.
func seal(root string) error {
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		return os.Chtimes(p, epoch, epoch)
	})
	if err != nil {
		return fmt.Errorf("out %s: %w", root, err)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(dirs))) // deepest first
	for _, d := range dirs {
		if err := os.Chmod(d, dirMode); err != nil {
			return fmt.Errorf("out %s: %w", root, err)
		}
		if err := os.Chtimes(d, epoch, epoch); err != nil {
			return fmt.Errorf("out %s: %w", root, err)
		}
	}
	return nil
}

// MarshalJSON writes v as generated files hold JSON: keys sorted, two-space
// indent, no HTML escaping, numbers as declared, a trailing newline.
func MarshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// AccountTOML renders account.toml: the account's own type (account.Config),
// encoded by BurntSushi/toml, so the file and the launcher that reads it can
// never disagree about a key. The claude key is left out when Claude comes
// from PATH.
func AccountTOML(s *Spec) []byte {
	single := s.SingleInstance
	c := account.Config{
		Name: s.Name, Claude: s.Claude, Declared: Declared, SettingsMode: s.SettingsMode,
		CoalesceKeys: s.CoalesceKeys, SingleInstance: &single, ProjectMCP: s.ProjectMCP, Notify: s.Notify, Usage: s.Usage, Identity: s.Identity,
		Worktree: account.Worktree{Dir: s.Worktree.Dir, SymlinkDirs: s.Worktree.SymlinkDirectories,
			SparsePaths: s.Worktree.SparsePaths, UseHooks: s.Worktree.UseHooks},
	}
	if c.CoalesceKeys == nil {
		c.CoalesceKeys = []string{}
	}
	if c.Worktree.SymlinkDirs == nil {
		c.Worktree.SymlinkDirs = []string{}
	}
	if c.Worktree.SparsePaths == nil {
		c.Worktree.SparsePaths = []string{}
	}
	var b bytes.Buffer
	b.WriteString("# Generated by claude-account generate from the Nix declaration of this\n")
	b.WriteString("# account; change the declaration, not this file.\n")
	enc := toml.NewEncoder(&b)
	enc.Indent = ""
	if err := enc.Encode(c); err != nil {
		panic(err) // a struct of strings, lists and booleans always encodes
	}
	return b.Bytes()
}
