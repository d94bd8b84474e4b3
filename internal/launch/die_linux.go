package launch

import (
	"runtime"
	"syscall"
	"unsafe"
)

// sigaction is the kernel's struct for rt_sigaction on Linux.
type sigaction struct {
	handler  uintptr // SIG_DFL is 0
	flags    uint64
	restorer uintptr
	mask     uint64
}

// dieBy delivers sig to this thread with its default action: for every
// signal that ends a process, the process ends here, with no Go output.
func dieBy(sig syscall.Signal) {
	runtime.LockOSThread()
	// No core file of our own: the launcher's would land in the working
	// directory, where Claude's own core (the one worth reading) may be.
	_ = syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{})
	var dfl sigaction
	syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&dfl)), 0, unsafe.Sizeof(dfl.mask), 0, 0)
	set := uint64(1) << (uint(sig) - 1)
	const sigUnblock = 1
	syscall.RawSyscall6(syscall.SYS_RT_SIGPROCMASK, sigUnblock, uintptr(unsafe.Pointer(&set)), 0, unsafe.Sizeof(set), 0, 0)
	syscall.RawSyscall(syscall.SYS_TGKILL, uintptr(syscall.Getpid()), uintptr(syscall.Gettid()), uintptr(sig))
}
