//go:build !(darwin || freebsd || netbsd)

package runtimes

import "syscall"

// ctime is the inode change time in Unix nanoseconds (Linux's Ctim).
func ctime(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }
