package configdir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// LinkState is what status and doctor show for one entry of a config dir.
type LinkState struct {
	Name     string   `json:"name"`
	Path     string   `json:"path"`
	Kind     string   `json:"kind"`            // link, file, directory, missing
	Chain    []string `json:"chain,omitempty"` // every hop of a link, in order: runtime → account → store
	Resolves bool     `json:"resolves"`
	Broken   string   `json:"broken,omitempty"` // the first hop that does not exist
}

// Inspect reports the entries of a config dir that link to the account.
func Inspect(configDir string, names []string) []LinkState {
	out := make([]LinkState, 0, len(names))
	for _, n := range names {
		out = append(out, inspect(n, filepath.Join(configDir, n)))
	}
	return out
}

func inspect(name, path string) LinkState {
	st := LinkState{Name: name, Path: path}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		st.Kind = "missing"
		return st
	case err != nil:
		st.Kind = "error: " + err.Error()
		return st
	case fi.Mode()&fs.ModeSymlink == 0:
		st.Kind = "file" // status --json's words: link, file, directory, missing
		if fi.IsDir() {
			st.Kind = "directory"
		}
		st.Resolves = true
		return st
	}
	st.Kind = "link"
	// Follow hop by hop (not EvalSymlinks) to name the exact hop that broke.
	cur := path
	for i := 0; i < 40; i++ {
		target, err := os.Readlink(cur)
		if err != nil {
			break
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(cur), target)
		}
		st.Chain = append(st.Chain, target)
		fi, err := os.Lstat(target)
		if err != nil {
			st.Broken = target
			return st
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			st.Resolves = true
			return st
		}
		cur = target
	}
	_, err = os.Stat(path)
	st.Resolves = err == nil
	return st
}
