// Package fsx is the one place that writes users' files. Every write goes
// through renameio: a temporary file in the same directory, fsync, rename, so
// a crash leaves either the old or the new content, never a torn file. The
// one exception, WriteUnsynced, is for a file a crash may lose: it renames
// too, under the same temporary names, and syncs nothing.
package fsx

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/google/renameio/v2"
)

// WriteFile atomically replaces path with data. An existing regular file keeps
// its mode; a new one gets mode (umask applied). The temporary file is made
// in path's own directory, never in $TMPDIR: a crash must not leave a copy of
// a user's file (or a login) anywhere else, and renameio's probe of $TMPDIR
// would cost extra files and renames on every write.
func WriteFile(path string, data []byte, mode fs.FileMode) error {
	if err := renameio.WriteFile(path, data, mode, renameio.WithTempDir(filepath.Dir(path))); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// WriteUnsynced atomically replaces path with data, as WriteFile does (a
// reader sees the old content or the new, never part of it, and the temporary
// file is one IsTemp knows), but syncs neither the file nor its directory: a
// crash may lose the write, or leave the file empty. It is only for a file
// whose loss in a crash costs nothing, written where the syncs would cost
// every time: a session's state (package session), on a tmpfs, rewritten by
// a hook at every prompt and stop while Claude waits for the hook. The new
// file gets perm (umask applied), whatever mode the one it replaces had. An
// error is the file system's: fs.ErrNotExist when path's directory is
// missing.
func WriteUnsynced(path string, data []byte, perm fs.FileMode) error {
	for attempt := 0; ; attempt++ {
		tmp := tempName(path)
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) && attempt < 100 {
			continue // a name another writer took: draw again
		}
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp, path)
		}
		if err != nil {
			_ = os.Remove(tmp)
		}
		return err
	}
}

// tempName is a name for a temporary file of path, in its directory, that
// IsTemp knows: "." + base + digits, as renameio draws them.
func tempName(path string) string {
	dir, base := filepath.Split(path)
	return dir + "." + base + strconv.FormatUint(rand.Uint64()>>1, 10)
}

// SyncDir makes a rename in dir durable: renameio syncs the file, not the
// directory entry that now names it, so a crash right after could bring the
// old version back. A file system that cannot sync a directory (EINVAL) is
// not an error.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

// WriteSecret atomically replaces path with data at mode 0600 exactly, from the
// moment the temporary file exists: there is no window with a wider mode, even
// when the file it replaces had one.
func WriteSecret(path string, data []byte) error {
	return WriteSecretPieces(path, [][]byte{data})
}

// WriteSecretPieces is WriteSecret for content given as pieces, written one
// after the other: a large file spliced from its old content is never
// assembled in memory a second time.
func WriteSecretPieces(path string, pieces [][]byte) error {
	st, err := StageSecret(path, pieces)
	if err != nil {
		return err
	}
	return st.Commit()
}

// Staged is a secret file written to its temporary file, not yet in place:
// Commit syncs and renames it over the target, Discard removes it.
type Staged struct{ f *renameio.PendingFile }

// StageSecret writes pieces to a 0600 temporary file next to path and syncs it.
func StageSecret(path string, pieces [][]byte) (*Staged, error) {
	f, err := renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)),
		renameio.WithPermissions(0o600), renameio.WithStaticPermissions(0o600))
	if err != nil {
		return nil, err
	}
	for _, p := range pieces {
		if _, err := f.Write(p); err != nil {
			f.Cleanup()
			return nil, err
		}
	}
	// Sync now, not at Commit: a caller validating the input meanwhile
	// overlaps the two slowest parts of a large write.
	if err := f.Sync(); err != nil {
		f.Cleanup()
		return nil, err
	}
	return &Staged{f: f}, nil
}

// Commit puts the staged file in place (fsync, rename).
func (s *Staged) Commit() error {
	err := s.f.CloseAtomicallyReplace()
	if cerr := s.f.Cleanup(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return SyncDir(filepath.Dir(s.f.Name()))
}

// Discard removes the staged file; the target is untouched.
func (s *Staged) Discard() { _ = s.f.Cleanup() }

// IsTemp reports whether name is one of the temporary files WriteFile,
// WriteSecret and WriteUnsynced make for target: "." + target + digits. A
// kill -9 between creating and renaming one leaves it behind; the next writer
// may remove it.
func IsTemp(name, target string) bool {
	rest, ok := strings.CutPrefix(name, "."+target)
	if !ok || rest == "" {
		return false
	}
	for _, r := range rest {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
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

// ReplaceWithSymlink atomically puts a symlink to target at path, whatever
// file is there now (a runtime's own settings.json becoming the link to the
// account's): there is no moment without either.
func ReplaceWithSymlink(target, path string) error {
	if err := renameio.Symlink(target, path); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// CopyFile copies the regular file src (never through a link) to dst,
// atomically and durably, keeping its mode and its modification time (which
// Claude's pickers sort conversations by). The copy is streamed, not read
// whole: a transcript grows to megabytes.
func CopyFile(src, dst string) error {
	in, err := os.OpenFile(src, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return &fs.PathError{Op: "copy", Path: src, Err: errors.New("not a regular file")}
	}
	t, err := renameio.NewPendingFile(dst, renameio.WithTempDir(filepath.Dir(dst)), renameio.WithPermissions(fi.Mode().Perm()))
	if err != nil {
		return err
	}
	defer t.Cleanup()
	if _, err := io.Copy(t, in); err != nil {
		return err
	}
	if err := t.CloseAtomicallyReplace(); err != nil {
		return err
	}
	if err := os.Chtimes(dst, fi.ModTime(), fi.ModTime()); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(dst))
}
