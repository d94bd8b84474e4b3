//go:build darwin || freebsd || netbsd

package runtimes

import "syscall"

// ctime is the inode change time in Unix nanoseconds; macOS and the BSDs
// name the field Ctimespec (Linux: Ctim). The kernel keeps it on APFS as on
// Linux file systems: utimes sets a file's other times, never this one.
func ctime(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
