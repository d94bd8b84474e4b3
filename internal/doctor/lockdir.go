package doctor

import (
	"io/fs"
	"os"
	"syscall"

	"github.com/claude-account/claude-account/internal/lock"
)

func lockDir(in Input, problem error) Finding {
	f := Finding{ID: "lock-dir", Path: in.LockDir, Message: problem.Error()}
	fi, err := os.Lstat(in.LockDir)
	if err != nil {
		return f
	}
	st, _ := fi.Sys().(*syscall.Stat_t)
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		f.Fixable, f.fix = true, func() (string, error) {
			if err := os.Remove(in.LockDir); err != nil {
				return "", err
			}
			return "removed the link and made a private dir", lock.EnsureDir(in.LockDir)
		}
	case fi.IsDir() && st != nil && int(st.Uid) == os.Getuid():
		f.Fixable, f.fix = true, func() (string, error) {
			return "set mode 0700", os.Chmod(in.LockDir, 0o700)
		}
	}
	return f
}
