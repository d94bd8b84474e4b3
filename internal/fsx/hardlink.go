package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// HardLink makes dst another name of the regular file src (a hard link, so
// it costs no disk and follows whatever is appended to src), replacing
// whatever file dst named, atomically: the link is made under a temporary
// name IsTemp knows and renamed over dst, and the directory synced. want is
// src as the caller checked it (Lstat): the link is kept only when it names
// that very file, so a src swapped for a link or another file meanwhile is
// never taken in (link(2) does not follow a final symlink, it links the
// symlink itself). The error of link(2) is returned unwrapped, so callers
// tell EXDEV (another file system) and EPERM (one that forbids hard links,
// or a file the kernel's protected_hardlinks refuses) apart and copy instead.
func HardLink(src, dst string, want fs.FileInfo) error {
	for attempt := 0; ; attempt++ {
		tmp := tempName(dst)
		err := os.Link(src, tmp)
		if errors.Is(err, fs.ErrExist) && attempt < 100 {
			continue
		}
		if err != nil {
			var le *os.LinkError
			if errors.As(err, &le) {
				return le.Err
			}
			return err
		}
		fi, err := os.Lstat(tmp)
		if err != nil || !fi.Mode().IsRegular() || !os.SameFile(fi, want) {
			_ = os.Remove(tmp)
			return &fs.PathError{Op: "link", Path: src, Err: errors.New("replaced while it was linked")}
		}
		if err := os.Rename(tmp, dst); err != nil {
			_ = os.Remove(tmp)
			return err
		}
		return SyncDir(filepath.Dir(dst))
	}
}

// CannotLink reports whether err from HardLink says the file system will
// not make this hard link at all (another file system, hard links not
// supported or refused, too many links): the caller copies instead.
func CannotLink(err error) bool {
	for _, e := range []error{syscall.EXDEV, syscall.EPERM, syscall.EACCES, syscall.EMLINK, syscall.ENOTSUP, syscall.EOPNOTSUPP, syscall.ENOSYS} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
