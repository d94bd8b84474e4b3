//go:build unix

package gitctx

import (
	"io/fs"
	"syscall"

	"github.com/claude-account/claude-account/internal/fsx"
)

// The reads below go straight to the kernel: os.Open registers every file
// with the runtime poller, which costs four fcntl calls and more than
// doubles the syscalls of a launch's few tiny reads. O_NONBLOCK keeps a
// FIFO planted where a git file belongs from hanging the launch.

// readHead reads up to len(buf) bytes of a HEAD file without following a
// symlink; link reports that it is one.
func readHead(path string, buf []byte) (n int, link bool, err error) {
	fd, err := open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK)
	if err != nil {
		// O_NOFOLLOW fails on a symlink with ELOOP, EMLINK or EFTYPE
		// depending on the system; ask lstat rather than guess.
		if err != syscall.ENOENT && err != syscall.ENOTDIR {
			var st syscall.Stat_t
			if syscall.Lstat(path, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFLNK {
				return 0, true, nil
			}
		}
		return 0, false, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	// One read: HEAD is a few dozen bytes, and a regular file only
	// reads short at its end.
	n, err = read(fd, buf)
	if err != nil {
		return 0, false, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return n, false, nil
}

// readFile reads a whole file, or limit+1 bytes of a longer one so the
// caller can tell it is too long (limit < 0: no limit).
func readFile(path string, limit int) ([]byte, error) { return fsx.ReadFileLimit(path, limit) }

func open(path string, mode int) (int, error) {
	for {
		fd, err := syscall.Open(path, mode, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

func read(fd int, buf []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, buf)
		if err != syscall.EINTR {
			if n < 0 {
				n = 0
			}
			return n, err
		}
	}
}
