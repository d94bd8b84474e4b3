package adopt

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/fsx"
)

// Source is a config dir to take in.
type Source struct {
	Dir        string // as named, absolute and clean
	Root       string // Dir with symlinks resolved: nothing outside it is read, except ClaudeJSON
	ClaudeJSON string // the .claude.json Claude uses with Dir; "" when there is none
	Plain      bool   // Dir is $HOME/.claude and ClaudeJSON is $HOME/.claude.json (Claude without CLAUDE_CONFIG_DIR)
	Notes      []string
}

// Find locates the source dir and the .claude.json Claude reads with it, as
// Claude chooses it: a legacy .config.json inside the dir first; for
// $HOME/.claude, $HOME/.claude.json (where Claude keeps it when
// CLAUDE_CONFIG_DIR is unset); else .claude.json inside the dir.
func Find(dir string, e env.Env) (*Source, error) {
	dir = filepath.Clean(dir)
	fi, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s does not exist; name Claude's config dir, such as ~/.claude", dir)
		}
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory; name Claude's config dir, such as ~/.claude (its .claude.json is found beside it or inside it)", dir)
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	s := &Source{Dir: dir, Root: root}
	inside := filepath.Join(root, ".claude.json")
	if legacy := filepath.Join(root, ".config.json"); regularNonEmpty(legacy) {
		s.ClaudeJSON = legacy
		return s, nil
	}
	home := e.Home()
	if home != "" && fsx.SamePath(root, filepath.Join(home, ".claude")) {
		beside := filepath.Join(home, ".claude.json")
		if _, err := os.Lstat(beside); err == nil {
			s.ClaudeJSON, s.Plain = beside, true
			if _, err := os.Lstat(inside); err == nil {
				s.Notes = append(s.Notes, fmt.Sprintf("read %s, which Claude uses without CLAUDE_CONFIG_DIR; %s was not read", beside, inside))
			}
			return s, nil
		}
	}
	if _, err := os.Lstat(inside); err == nil {
		s.ClaudeJSON = inside
		return s, nil
	}
	s.Notes = append(s.Notes, fmt.Sprintf("%s has no .claude.json (nor %s beside it): no MCP servers, onboarding or preferences to take in", dir, filepath.Join(filepath.Dir(dir), ".claude.json")))
	return s, nil
}

func regularNonEmpty(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Size() > 0
}

// readRegular reads path only if it is a regular file: a link is not
// followed (O_NOFOLLOW) and a FIFO does not block (O_NONBLOCK).
func readRegular(path string) ([]byte, fs.FileMode, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	for errors.Is(err, syscall.EINTR) {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	}
	if errors.Is(err, syscall.ELOOP) {
		return nil, 0, fmt.Errorf("%s is a symbolic link; init --from reads only regular files and follows no link, so copy its target there or name the dir it points into", path)
	}
	if err != nil {
		return nil, 0, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s is not a regular file (%s); move it away or name another dir", path, fsx.Kind(fi.Mode()))
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, 0, err
	}
	return data, fi.Mode().Perm(), nil
}
