package adopt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/fsx"
)

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
