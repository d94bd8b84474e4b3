package fsx

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ReadFile reads a whole file with plain system calls. os.ReadFile registers
// every file with the runtime poller first, which costs four extra fcntl and
// epoll calls per file: on the launch path, that doubles the cost of the
// handful of small reads. O_NONBLOCK keeps a FIFO planted where a file belongs
// from hanging the launch. Errors are *fs.PathError, so errors.Is(err,
// fs.ErrNotExist) works as with os.ReadFile.
func ReadFile(path string) ([]byte, error) {
	fd, err := retry(func() (int, error) {
		return syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil {
		st = syscall.Stat_t{}
	}
	return readFd(fd, path, &st)
}

// ReadFileNoFollow is ReadFile for a file that must not be a link (a
// repository's, which could point anywhere): the last element is opened
// with O_NOFOLLOW, so a link is an error (ELOOP), never followed. At most
// limit+1 bytes are read, so that the caller can tell a file over its limit
// without reading all of it.
func ReadFileNoFollow(path string, limit int) ([]byte, error) {
	return readLimited(path, syscall.O_NOFOLLOW, limit)
}

// ReadFileLimit is ReadFile for a file that may be long: at most limit+1
// bytes are read (limit < 0: no limit), so that the caller can tell a file
// over its limit without reading all of it.
func ReadFileLimit(path string, limit int) ([]byte, error) { return readLimited(path, 0, limit) }

// readLimited reads path, opened with flags besides ReadFile's, up to
// limit+1 bytes (limit < 0: no limit). No fstat: these files are small, and
// the buffer grows as append grows it.
func readLimited(path string, flags, limit int) ([]byte, error) {
	fd, err := retry(func() (int, error) {
		return syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|flags, 0)
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	buf := make([]byte, 0, 512)
	for limit < 0 || len(buf) <= limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		end := cap(buf)
		if limit >= 0 {
			end = min(end, limit+1)
		}
		n, err := retry(func() (int, error) { return syscall.Read(fd, buf[len(buf):end]) })
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			break
		}
		buf = buf[:len(buf)+n]
	}
	return buf, nil
}

// readFd reads the rest of the open file fd (path, for errors), whose fstat
// is st: sized from it, in one read when the file does not grow meanwhile.
func readFd(fd int, path string, st *syscall.Stat_t) ([]byte, error) {
	size := 512
	if st.Mode&syscall.S_IFMT == syscall.S_IFREG && st.Size > 0 {
		size = int(st.Size) + 1 // one more, to see the end without a second allocation
	}
	buf := make([]byte, 0, size)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := retry(func() (int, error) { return syscall.Read(fd, buf[len(buf):cap(buf)]) })
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// retry repeats a system call interrupted by a signal: the Go runtime sends
// itself SIGURG to preempt goroutines.
func retry(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// SameFile reports whether a and b both exist and are one file (a hard
// link, or a link to it: both are followed).
func SameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// SamePath reports whether a and b name the same file or directory, however
// they are spelled (symlinks, "..", a bind mount). Two that exist are
// compared by device and inode; otherwise, the same name in the same existing
// directory counts, so a file about to be created can be compared too.
func SamePath(a, b string) bool {
	if a == b {
		return true
	}
	if sa, err := os.Stat(a); err == nil {
		sb, err := os.Stat(b)
		return err == nil && os.SameFile(sa, sb)
	}
	if filepath.Base(a) != filepath.Base(b) {
		return false
	}
	da, err1 := os.Stat(filepath.Dir(a))
	db, err2 := os.Stat(filepath.Dir(b))
	return err1 == nil && err2 == nil && os.SameFile(da, db)
}
