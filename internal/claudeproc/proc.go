package claudeproc

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Scan reads a Linux /proc (procDir; Current passes /proc, tests a
// recorded one). A process that ends while it is read is left out; one
// whose working directory cannot be read (another user's) has none.
func Scan(procDir string) (*Snapshot, error) {
	des, err := os.ReadDir(procDir)
	if err != nil {
		return nil, err
	}
	var procs []Proc
	for _, de := range des {
		pid, err := strconv.Atoi(de.Name())
		if err != nil || pid <= 0 {
			continue
		}
		dir := filepath.Join(procDir, de.Name())
		stat, err := os.ReadFile(filepath.Join(dir, "stat"))
		if err != nil {
			continue
		}
		p, ok := parseStat(stat)
		if !ok || p.PID != pid {
			continue
		}
		if cwd, err := os.Readlink(filepath.Join(dir, "cwd")); err == nil && !strings.HasSuffix(cwd, " (deleted)") {
			p.Cwd = cwd
		}
		// The command line of a process of ours (one whose working
		// directory could be read) that the kernel does not name claude.
		if !p.namedClaude() && p.Cwd != "" {
			if cmd, err := os.ReadFile(filepath.Join(dir, "cmdline")); err == nil {
				args := strings.Split(string(cmd), "\x00")
				if p.Comm == "node" || p.Comm == "nodejs" {
					p.Node = runsCLI(args)
				} else {
					exe, _ := os.Readlink(filepath.Join(dir, "exe"))
					p.Native = nativeClaude(strings.TrimSuffix(exe, " (deleted)"), args)
				}
			}
		}
		procs = append(procs, p)
	}
	return newSnapshot(procs, os.Getpid()), nil
}

// parseStat reads pid, comm and ppid from /proc/<pid>/stat:
// "pid (comm) state ppid …", where comm may itself hold spaces and ')'.
func parseStat(b []byte) (Proc, bool) {
	lp, rp := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if lp < 1 || rp < lp {
		return Proc{}, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:lp])))
	if err != nil {
		return Proc{}, false
	}
	f := strings.Fields(string(b[rp+1:]))
	if len(f) < 2 {
		return Proc{}, false
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return Proc{}, false
	}
	return Proc{PID: pid, PPID: ppid, Comm: string(b[lp+1 : rp])}, true
}
