//go:build !linux

package fleet

import "errors"

// Environ would be the environment the process pid started with. Only
// Linux shows another process's environment (/proc/PID/environ); macOS
// keeps it behind sysctl(KERN_PROCARGS2), which needs the process's task
// port for anything but the arguments. The caller leaves the supervisor
// alone then.
func Environ(pid int) (map[string]string, error) {
	return nil, errors.New("another process's environment cannot be read on this system")
}
