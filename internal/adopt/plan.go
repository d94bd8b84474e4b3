package adopt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudekeys"
	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/mcp"
)

// Op is what an entry of a plan does.
type Op int

// The operations, in the order a plan lists them for one path: a directory
// before what it holds.
const (
	MakeDir  Op = iota // Mode
	CopyFile           // From's bytes, with From's mode (0600 when Secret)
	Write              // Data, with Mode (0600 when Secret)
	MakeLink           // a symbolic link to Link
)

// Entry is one path to make inside the account dir.
type Entry struct {
	Op      Op
	Rel     string      // inside the account dir
	From    string      // CopyFile: the source file
	Data    []byte      // Write: a JSON file made from the source's
	Mode    fs.FileMode // MakeDir, CopyFile, Write
	Secret  bool        // written at 0600 from the first byte
	Replace bool        // Write: replaces the account's own file (its keys kept, the missing ones added)
	Link    string      // MakeLink: the target, relative
}

// Skip is something of the source left out, and why; it is told to the user.
type Skip struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// Part is one thing taken in, for the summary.
type Part struct {
	Name  string   `json:"name"`            // login, settings, commands …, memory, mcpServers, keys
	From  string   `json:"from"`            // where in the source
	Files int      `json:"files,omitempty"` // files and links taken in
	Kept  int      `json:"kept,omitempty"`  // with --into-existing: paths the account already had, left as they are
	Names []string `json:"names,omitempty"` // mcpServers: server names; keys: key names
}

// Plan is what taking in a source will write. Nothing is written to make it.
type Plan struct {
	Source   *Source
	Dest     string // the account dir
	Into     bool   // the account exists: only what it lacks is added
	Entries  []Entry
	Parts    []Part
	Skipped  []Skip
	Rewrites []Rewrite // strings of the settings taken in that named the source, now the account
}

// Options say where the source goes.
type Options struct {
	Dest     string      // the account dir, absolute
	Into     bool        // the account exists: add only what it lacks, change nothing it has
	Declared mcp.Servers // with Into: the servers the account declares, which win by name
	Home     string      // the home directory: settings may name the source as ~/…, $HOME/…
}

// Make reads the source and plans the copy. Every JSON file it rewrites is
// parsed here: an error names the file, line and column, and nothing has
// been written.
func Make(src *Source, o Options) (*Plan, error) {
	dest := filepath.Clean(o.Dest)
	for _, s := range []string{src.Dir, src.Root} {
		if within(s, dest) || within(dest, s) || within(resolved(dest), s) {
			return nil, fmt.Errorf("%s and %s overlap; the account dir must be outside the dir taken in, and the other way round", dest, src.Dir)
		}
	}
	w := &walker{p: &Plan{Source: src, Dest: dest, Into: o.Into}, src: src, home: filepath.Clean(o.Home), copied: map[string]bool{}, planned: map[string]bool{}}
	if o.Home == "" {
		w.home = ""
	}
	if err := w.login(); err != nil {
		return nil, err
	}
	if err := w.settings(); err != nil {
		return nil, err
	}
	for _, name := range account.Content {
		part := &Part{Name: name, From: filepath.Join(src.Dir, name)}
		if err := w.walk(part, name); err != nil {
			return nil, err
		}
		w.add(part)
	}
	if err := w.plugins(); err != nil {
		return nil, err
	}
	if err := w.memory(); err != nil {
		return nil, err
	}
	// A file a setting names comes along too, before links are decided (a
	// link may point at it); then every setting names the account's copy.
	w.nameFiles(w.settingsData)
	w.nameFiles(w.claudeServers())
	w.resolveLinks()
	if w.settingsDone != nil {
		if err := w.settingsDone(); err != nil {
			return nil, err
		}
	}
	if err := w.claudeJSON(o.Declared); err != nil {
		return nil, err
	}
	for _, part := range w.parts {
		if part.Files > 0 || part.Kept > 0 || len(part.Names) > 0 {
			w.p.Parts = append(w.p.Parts, *part)
		}
	}
	return w.p, nil
}

// resolved is path with the links of its longest existing prefix resolved:
// where a file made at path would really be.
func resolved(path string) string {
	rest := ""
	for p := path; ; p = filepath.Dir(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		if p == filepath.Dir(p) {
			return path
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
}

// within reports whether path is dir or under it (lexically).
func within(path, dir string) bool {
	r, err := filepath.Rel(dir, path)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}

type walker struct {
	p     *Plan
	src   *Source
	links []pendingLink
	home  string // "" when unknown
	// settingsData is the source's settings.json; settingsDone plans its
	// write once every path taken in is known, its strings rebased.
	settingsData []byte
	settingsDone func() error
	namedPart    *Part
	copied       map[string]bool // source paths (relative) taken in, or already in the account with Into
	planned      map[string]bool // dirs planned or found real in the account
	parts        []*Part         // counted until the end: links are decided last
}

type pendingLink struct {
	part   *Part
	rel    string // the link, relative to the source root
	target string // as read
	to     string // the target, relative to the source root ("" when outside)
	mode   fs.FileMode
}

func (w *walker) add(p *Part) { w.parts = append(w.parts, p) }

func (w *walker) skip(rel, why string) {
	w.p.Skipped = append(w.p.Skipped, Skip{Path: filepath.Join(w.src.Dir, rel), Why: why})
}

// entry adds e to the plan, with group and other write cleared from its
// mode (the rest, executable bits included, kept): a hooks/ dir or a hook
// that anyone may change would let anyone change what the account runs.
func (w *walker) entry(e Entry) {
	e.Mode &^= 0o022
	w.p.Entries = append(w.p.Entries, e)
}

// destState says what the account has at rel: nothing (""), a real dir
// ("dir"), or something else ("file", "link").
func (w *walker) destState(rel string) string {
	if !w.p.Into {
		return ""
	}
	fi, err := os.Lstat(filepath.Join(w.p.Dest, rel))
	switch {
	case err != nil:
		return ""
	case fi.Mode()&fs.ModeSymlink != 0:
		return "link"
	case fi.IsDir():
		return "dir"
	default:
		return "file"
	}
}

// ensureDir plans rel's parents that the account lacks, with the source's
// modes; false when one is something else than a directory in the account
// (a link Nix made): nothing may be written through it.
func (w *walker) ensureDir(rel string) bool {
	parent := filepath.Dir(rel)
	if parent == "." || w.planned[parent] {
		return true
	}
	if !w.ensureDir(parent) {
		return false
	}
	switch w.destState(parent) {
	case "dir":
	case "":
		mode := fs.FileMode(0o755)
		if fi, err := os.Lstat(filepath.Join(w.src.Root, parent)); err == nil {
			mode = fi.Mode().Perm()
		}
		w.entry(Entry{Op: MakeDir, Rel: parent, Mode: mode})
	default:
		return false
	}
	w.planned[parent] = true
	return true
}

// walk plans the copy of the source path rel, whatever it is.
func (w *walker) walk(part *Part, rel string) error {
	fi, err := os.Lstat(filepath.Join(w.src.Root, rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !w.ensureDir(rel) {
		w.skip(rel, fmt.Sprintf("not taken in: %s is not a directory in the account, and nothing is written through it", filepath.Join(w.p.Dest, filepath.Dir(rel))))
		return nil
	}
	have := w.destState(rel)
	switch {
	case fi.IsDir() && have == "dir":
		w.planned[rel] = true
		w.copied[rel] = true
		return w.walkDir(part, rel)
	case have == "link" && fi.IsDir():
		part.Kept++
		w.skip(rel, fmt.Sprintf("not taken in: the account's %s is a link (what Nix declares wins), and nothing is written through it", filepath.Join(w.p.Dest, rel)))
		return nil
	case have != "":
		part.Kept++
		w.copied[rel] = true
		return nil
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return w.link(part, rel, fi.Mode())
	case fi.IsDir():
		w.entry(Entry{Op: MakeDir, Rel: rel, Mode: fi.Mode().Perm()})
		w.planned[rel] = true
		w.copied[rel] = true
		return w.walkDir(part, rel)
	case fi.Mode().IsRegular():
		w.entry(Entry{Op: CopyFile, Rel: rel, From: filepath.Join(w.src.Root, rel), Mode: fi.Mode().Perm()})
		w.copied[rel] = true
		part.Files++
	default:
		w.skip(rel, fsx.Kind(fi.Mode())+"; only files, directories and links are copied")
	}
	return nil
}

func (w *walker) walkDir(part *Part, rel string) error {
	des, err := os.ReadDir(filepath.Join(w.src.Root, rel))
	if err != nil {
		return err
	}
	for _, de := range des { // sorted by name
		if err := w.walk(part, filepath.Join(rel, de.Name())); err != nil {
			return err
		}
	}
	return nil
}

// link records a symbolic link of the source: it is decided once every path
// taken in is known (resolveLinks).
func (w *walker) link(part *Part, rel string, mode fs.FileMode) error {
	target, err := os.Readlink(filepath.Join(w.src.Root, rel))
	if err != nil {
		return err
	}
	w.links = append(w.links, pendingLink{part: part, rel: rel, target: target, to: LinkTarget(w.src.Root, w.src.Dir, rel, target), mode: mode})
	// Reserve its place, so that the entry keeps its order.
	w.entry(Entry{Op: MakeLink, Rel: rel})
	return nil
}

// LinkTarget is where the link at rel (relative to the source root) with the
// given target points, relative to the source root, read lexically (no link
// is followed); "" when it points outside the source or at its root. An
// absolute target may name the source by its resolved root or by dir, the
// name the user gave it.
func LinkTarget(root, dir, rel, target string) string {
	var abs string
	switch {
	case target == "":
		return ""
	case filepath.IsAbs(target):
		abs = filepath.Clean(target)
		if within(abs, dir) && !within(abs, root) {
			r, _ := filepath.Rel(dir, abs)
			abs = filepath.Join(root, r)
		}
	default:
		abs = filepath.Join(root, filepath.Dir(rel), target)
	}
	if !within(abs, root) {
		return ""
	}
	r, err := filepath.Rel(root, abs)
	if err != nil || r == "." {
		return ""
	}
	return r
}

// resolveLinks turns each link into an entry, pointing at the same path in
// the account (always relative, so it never reaches back into the source),
// or leaves it out when it points outside the source or at something not
// taken in.
func (w *walker) resolveLinks() {
	keep := map[string]string{}
	for _, l := range w.links {
		switch {
		case l.to == "":
			w.skip(l.rel, fmt.Sprintf("a link to %s, outside %s; not followed (to keep it: ln -s '%s' '%s')", l.target, w.src.Dir, l.target, filepath.Join(w.p.Dest, l.rel)))
		case !w.takenIn(l.to):
			w.skip(l.rel, fmt.Sprintf("a link to %s, which is not taken in; left out", l.target))
		default:
			t, _ := filepath.Rel(filepath.Dir(l.rel), l.to)
			keep[l.rel] = t
			l.part.Files++
		}
	}
	out := w.p.Entries[:0]
	for _, e := range w.p.Entries {
		if e.Op == MakeLink && e.Link == "" {
			t, ok := keep[e.Rel]
			if !ok {
				continue
			}
			e.Link = t
		}
		out = append(out, e)
	}
	w.p.Entries = out
}

// takenIn reports whether the source path rel is taken in (or the account
// already has it). A link to a link counts: the second one is decided on its
// own.
func (w *walker) takenIn(rel string) bool {
	if w.copied[rel] {
		return true
	}
	for _, l := range w.links {
		if l.rel == rel && l.to != "" {
			return true
		}
	}
	return false
}

// login plans the login file: a regular file only, written 0600; one the
// account has is never replaced.
func (w *walker) login() error {
	const rel = ".credentials.json"
	fi, err := os.Lstat(filepath.Join(w.src.Root, rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	part := &Part{Name: "login", From: filepath.Join(w.src.Dir, rel)}
	switch {
	case !fi.Mode().IsRegular():
		w.skip(rel, fsx.Kind(fi.Mode())+"; a login is taken in only from a regular file (log in again after init)")
	case w.destState(rel) != "":
		part.Kept++
		w.skip(rel, "not taken in: the account has a login of its own, kept")
	default:
		w.entry(Entry{Op: CopyFile, Rel: rel, From: filepath.Join(w.src.Root, rel), Secret: true, Mode: 0o600})
		w.copied[rel] = true
		part.Files++
	}
	w.add(part)
	return nil
}

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

// plugins plans plugins/ like the other content, then rewrites Claude's
// records in it (installed_plugins.json, known_marketplaces.json …), which
// name the plugins dir by its absolute path, to the account's plugins dir.
// With Into, an account that has plugins keeps them and takes none.
func (w *walker) plugins() error {
	const rel = "plugins"
	part := &Part{Name: "plugins", From: filepath.Join(w.src.Dir, rel)}
	defer w.add(part)
	if w.destState(rel) != "" {
		if des, err := os.ReadDir(filepath.Join(w.p.Dest, rel)); err != nil || len(des) > 0 {
			if _, err := os.Lstat(filepath.Join(w.src.Root, rel)); err == nil {
				part.Kept++
				w.skip(rel, "not taken in: the account has plugins of its own, kept (install these there again with claude plugin install)")
			}
			return nil
		}
	}
	first := len(w.p.Entries)
	if err := w.walk(part, rel); err != nil {
		return err
	}
	to := filepath.Join(w.p.Dest, rel)
	var froms []string
	for _, d := range []string{w.src.Dir, w.src.Root} {
		if f := filepath.Join(d, rel); !slices.Contains(froms, f) {
			froms = append(froms, f)
		}
	}
	for i := first; i < len(w.p.Entries); i++ {
		e := &w.p.Entries[i]
		if e.Op != CopyFile || filepath.Dir(e.Rel) != rel || filepath.Ext(e.Rel) != ".json" {
			continue
		}
		data, _, err := readRegular(e.From)
		if err != nil {
			return err
		}
		if err := coalesce.Validate(data); err != nil {
			return jsonError(e.From, err, "fix the JSON by hand, or remove the plugin and install it again")
		}
		out := data
		for _, from := range froms {
			if out, err = configdir.Rebase(out, from, to); err != nil {
				return fmt.Errorf("%s: %v; fix the JSON by hand (nothing was written)", e.From, err)
			}
		}
		if string(out) != string(data) {
			e.Op, e.Data, e.From = Write, out, ""
		}
	}
	return nil
}

// memory plans every repository's auto-memory, projects/<key>/memory/; the
// transcripts beside it belong to the config dir and stay.
func (w *walker) memory() error {
	const rel = "projects"
	fi, err := os.Lstat(filepath.Join(w.src.Root, rel))
	if err != nil || !fi.IsDir() {
		if err == nil {
			w.skip(rel, fsx.Kind(fi.Mode())+"; memory is taken in only from a directory")
		}
		return nil
	}
	des, err := os.ReadDir(filepath.Join(w.src.Root, rel))
	if err != nil {
		return err
	}
	part := &Part{Name: "memory", From: filepath.Join(w.src.Dir, rel, "*", "memory")}
	for _, de := range des {
		if !de.IsDir() {
			continue // transcripts and links: the config dir's
		}
		if err := w.walk(part, filepath.Join(rel, de.Name(), "memory")); err != nil {
			return err
		}
	}
	w.add(part)
	return nil
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
