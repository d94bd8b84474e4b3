//go:build !linux

package launch

import (
	"os"
	"syscall"
	"time"
)

// dieBy sends sig to this process and waits for it to arrive.
func dieBy(sig syscall.Signal) {
	_ = syscall.Kill(os.Getpid(), sig)
	time.Sleep(100 * time.Millisecond)
}
