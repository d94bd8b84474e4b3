package trust

import "syscall"

const (
	oNofollow = syscall.O_NOFOLLOW
	oNonblock = syscall.O_NONBLOCK
)
