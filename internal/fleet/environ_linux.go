package fleet

import (
	"fmt"
	"os"
)

// Environ is the environment the process pid started with, from
// /proc/PID/environ (readable for the user's own processes).
func Environ(pid int) (map[string]string, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		return nil, err
	}
	return ParseEnviron(data), nil
}
