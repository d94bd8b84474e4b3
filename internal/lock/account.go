package lock

import (
	"errors"
	"fmt"
	"path/filepath"
	"syscall"
)

// Account serializes the launches of one account while they read and write
// what its config dirs share (the account's settings.json and its ledger of
// servers and trust): two launches in two worktrees must not lose each
// other's writes. It waits for the holder, which only ever holds it for the
// milliseconds of a plan and its writes. Its file does not end in ".lock",
// so status and close never take it for a running instance.
func Account(dir, account string) (release func(), err error) {
	return Wait(dir, account+".shared-state")
}

// Wait takes the exclusive lock named name in dir, waiting for its holder:
// for short read-modify-write sections shared by concurrent launches. name
// must not end in ".lock", which names instance locks.
func Wait(dir, name string) (release func(), err error) {
	if err := EnsureDir(dir); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, name)
	f, err := openLock(path, syscall.O_RDWR|syscall.O_CREAT)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}
