package adopt

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/account"
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
