package claudeproc

import (
	"errors"
	"fmt"
	"os"
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
			UID: int(k.Eproc.Ucred.Uid), Comm: unix.ByteSliceToString(k.Proc.P_comm[:]),
			Zombie: k.Proc.P_stat == szomb})
	}
	cwds := func(pids []int) (map[int]string, error) { return lsofCwds(lsofPath, pids) }
	return fromTable(table, os.Getpid(), os.Getuid(), darwinSources{procargs: procArgs, pause: time.Sleep, cwds: cwds, alive: alive})
}

// szomb is p_stat of a process that has exited and not been waited for
// (SZOMB in XNU's bsd/sys/proc.h; x/sys/unix does not name it).
const szomb = 5

func procArgs(pid int) ([]byte, error) {
	return unix.SysctlRaw("kern.procargs2", pid)
}

func alive(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
