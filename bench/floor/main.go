// Command floor is what the benchmark measures claude-account against: the
// least a launcher, or a copy of Claude's state, can cost.
//
//	floor exec PROGRAM ARGS…     fork PROGRAM, wait, exit with its status (a
//	                             launcher that does nothing else)
//	floor hello                  print a line (the least any command costs)
//	floor copy SRC DST           copy a file
//	floor durable-copy SRC DST   copy a file to a temporary name beside DST,
//	                             fsync it, rename it over DST, fsync the dir
//	                             (what an atomic write that survives a crash
//	                             costs at least)
//
// Built static (CGO_ENABLED=0), as the launcher is.
package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

func main() {
	if len(os.Args) < 2 {
		fail(fmt.Errorf("usage: floor exec|hello|copy|durable-copy …"))
	}
	switch args := os.Args[2:]; os.Args[1] {
	case "exec":
		// syscall.ForkExec, as the launcher does: os/exec would first fork
		// a throwaway child to probe for pidfd support.
		path, err := exec.LookPath(args[0])
		fail(err)
		pid, err := syscall.ForkExec(path, args, &syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{0, 1, 2}})
		fail(err)
		var ws syscall.WaitStatus
		for {
			if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
				fail(err)
				break
			}
		}
		os.Exit(ws.ExitStatus())
	case "hello":
		fmt.Println("hello")
	case "copy":
		fail(copyFile(args[0], args[1], false))
	case "durable-copy":
		fail(copyFile(args[0], args[1], true))
	default:
		fail(fmt.Errorf("floor: unknown mode %q", os.Args[1]))
	}
}

func copyFile(src, dst string, durable bool) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := dst
	if durable {
		tmp = filepath.Join(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp")
	}
	out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if durable {
		if err := out.Sync(); err != nil {
			out.Close()
			return err
		}
	}
	if err := out.Close(); err != nil {
		return err
	}
	if !durable {
		return nil
	}
	if err := os.Rename(tmp, dst); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(dst))
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && err != syscall.EINVAL {
		return err
	}
	return nil
}

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}
