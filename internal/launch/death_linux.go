package launch

import "syscall"

// deathSignal makes the kernel send Claude SIGTERM if the launcher dies
// (kill -9 included): the instance lock dies with the launcher, so Claude
// must not run on unlocked, where a second launch could share its state.
func deathSignal() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
