// Package fsx is the one place that writes users' files. Every write goes
// through renameio: a temporary file in the same directory, fsync, rename, so
// a crash leaves either the old or the new content, never a torn file.
package fsx

import (
	"bytes"
	"errors"
	"io/fs"
	"os"

	"github.com/google/renameio/v2"
)

// WriteFile atomically replaces path with data. An existing regular file keeps
// its mode; a new one gets mode (umask applied).
func WriteFile(path string, data []byte, mode fs.FileMode) error {
	return renameio.WriteFile(path, data, mode)
}

// WriteSecret atomically replaces path with data at mode 0600 exactly, from the
// moment the temporary file exists: there is no window with a wider mode.
func WriteSecret(path string, data []byte) error {
	return renameio.WriteFile(path, data, 0o600, renameio.WithStaticPermissions(0o600))
}

// WriteSecretPieces is WriteSecret for content given as pieces, written one
// after the other: a large file spliced from its old content is never
// assembled in memory a second time.
func WriteSecretPieces(path string, pieces [][]byte) (err error) {
	f, err := renameio.NewPendingFile(path, renameio.WithPermissions(0o600), renameio.WithStaticPermissions(0o600))
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Cleanup(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	for _, p := range pieces {
		if _, err := f.Write(p); err != nil {
			return err
		}
	}
	return f.CloseAtomicallyReplace()
}

// WriteIfChanged writes data only when path does not already hold exactly
// data, so an idempotent step leaves mtimes alone. It reports whether it wrote.
func WriteIfChanged(path string, data []byte, mode fs.FileMode) (bool, error) {
	old, err := os.ReadFile(path)
	if err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	return true, WriteFile(path, data, mode)
}

// Symlink makes path a symlink to target, atomically replacing a symlink that
// is there. It does nothing when path already links to target, and refuses to
// replace anything that is not a symlink: that may be a user's file.
func Symlink(target, path string) (bool, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return false, err
	case fi.Mode()&fs.ModeSymlink == 0:
		return false, &fs.PathError{Op: "symlink", Path: path, Err: fs.ErrExist}
	default:
		if cur, err := os.Readlink(path); err == nil && cur == target {
			return false, nil
		}
	}
	return true, renameio.Symlink(target, path)
}

// IsReadOnly reports whether err means the file system refused a write
// because of permissions or a read-only mount.
func IsReadOnly(err error) bool {
	return errors.Is(err, fs.ErrPermission) || isEROFS(err)
}
