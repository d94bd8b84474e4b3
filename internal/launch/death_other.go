//go:build !linux

package launch

import "syscall"

// deathSignal: only Linux can tie Claude's life to the launcher's.
func deathSignal() *syscall.SysProcAttr { return nil }
