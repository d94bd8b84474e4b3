// Command stub stands in for Claude Code in the benchmark: it prints the
// config dir it was given, as the launcher's tests' stub does, and, when
// BENCH_TIMES names a file, appends one line to it: the wall clock (Unix
// nanoseconds) at which it started running its main and at which it is about
// to exit. The harness subtracts its own clock readings around the launcher
// from these, so the stub's own start-up cost, the same for every launcher
// it is started by, drops out of the comparison.
package main

import (
	"os"
	"strconv"
	"time"
)

func main() {
	start := time.Now().UnixNano()
	os.Stdout.WriteString("CLAUDE_CONFIG_DIR=" + os.Getenv("CLAUDE_CONFIG_DIR") + "\n")
	if path := os.Getenv("BENCH_TIMES"); path != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err == nil {
			f.WriteString(strconv.FormatInt(start, 10) + " " + strconv.FormatInt(time.Now().UnixNano(), 10) + "\n")
			f.Close()
		}
	}
}
