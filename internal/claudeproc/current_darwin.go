package claudeproc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Current reads the process table as it is now: sysctl kern.proc.all, then
// lsof for the working directories of the Claudes of ours (darwin.go).
func Current() *Snapshot {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return Unreadable(fmt.Errorf("sysctl kern.proc.all: %w", err))
	}
	table := make([]kinfo, 0, len(kps))
	for _, k := range kps {
		table = append(table, kinfo{PID: int(k.Proc.P_pid), PPID: int(k.Eproc.Ppid),
			UID: int(k.Eproc.Ucred.Uid), Comm: unix.ByteSliceToString(k.Proc.P_comm[:])})
	}
	return fromTable(table, os.Getpid(), os.Getuid(), darwinSources{argv: procArgs, cwds: lsofCwds, alive: alive})
}

func procArgs(pid int) []string {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return nil
	}
	return parseProcArgs(b)
}

// lsofPath is Apple's lsof, which every macOS ships; one on PATH else.
const lsofPath = "/usr/sbin/lsof"

// lsofCwds asks lsof where pids work. It exits 1 when a pid has gone;
// what it printed still holds.
func lsofCwds(pids []int) (map[int]string, error) {
	bin := lsofPath
	if _, err := os.Stat(bin); err != nil {
		if bin, err = exec.LookPath("lsof"); err != nil {
			return nil, errors.New("lsof is not in /usr/sbin nor on PATH")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, lsofArgs(pids)...)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	out, err := cmd.Output()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("%s did not answer within 20 s", bin)
	case err != nil && !errors.As(err, &ee):
		return nil, fmt.Errorf("%s: %v", bin, err)
	}
	return parseLsof(out), nil
}

func alive(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
