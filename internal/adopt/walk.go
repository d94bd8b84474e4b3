package adopt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/fsx"
)

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
