package gitctx

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
)

const sep = string(filepath.Separator)

func join(dir, name string) string {
	if dir == sep {
		return sep + name
	}
	return dir + sep + name
}

func canonical(p string) (string, error) {
	if !filepath.IsAbs(p) {
		var err error
		if p, err = filepath.Abs(p); err != nil {
			return "", err
		}
	}
	return filepath.EvalSymlinks(p)
}

// resolve canonicalises p, taken relative to base (a canonical dir) when
// not absolute. It does not clean lexically first, so "link/.." means
// what the kernel says, as in git's real_path; a plain "../.." is the
// exception, being an ancestor of an already canonical dir.
func resolve(base, p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.EvalSymlinks(p)
	}
	if onlyDotDot(p) {
		return filepath.Join(base, p), nil
	}
	return filepath.EvalSymlinks(join(base, p))
}

func onlyDotDot(p string) bool {
	for _, c := range strings.Split(p, sep) {
		if c != ".." && c != "." && c != "" {
			return false
		}
	}
	return true
}

// missing reports an error meaning the path is not there.
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// unwrapPath drops the op and path of a *fs.PathError when the message
// already names the path.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
