package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// proc is one process of a fleet, as /proc shows it.
type proc struct {
	pid, ppid int
	configDir string // its CLAUDE_CONFIG_DIR
	rss, pss  int64  // KiB, from smaps_rollup
}

// fleetProcs finds every process of the run marked mark: those whose
// environment carries it (the supervisor starts its sessions with its own
// environment), with every process they started, however deep. The launcher
// and the --bg commands have exited by then: what is left is the fleet.
func fleetProcs(mark string) []proc {
	all := map[int]proc{}
	children := map[int][]int{}
	var marked []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		p, env, ok := readProc(pid)
		if !ok {
			continue
		}
		all[pid] = p
		children[p.ppid] = append(children[p.ppid], pid)
		if bytes.Contains(env, []byte("\x00"+mark+"\x00")) || bytes.HasPrefix(env, []byte(mark+"\x00")) {
			marked = append(marked, pid)
		}
	}
	in := map[int]bool{}
	var walk func(int)
	walk = func(pid int) {
		if in[pid] {
			return
		}
		in[pid] = true
		for _, c := range children[pid] {
			walk(c)
		}
	}
	for _, pid := range marked {
		walk(pid)
	}
	var out []proc
	for pid := range in {
		out = append(out, all[pid])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pid < out[j].pid })
	return out
}

// readProc reads a process's parent, environment and memory; ok false when
// it is gone or not ours to read.
func readProc(pid int) (p proc, env []byte, ok bool) {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	stat, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return p, nil, false
	}
	// pid (comm) state ppid …: comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(stat, ')')
	f := strings.Fields(string(stat[i+1:]))
	if i < 0 || len(f) < 2 {
		return p, nil, false
	}
	p.pid = pid
	p.ppid, _ = strconv.Atoi(f[1])
	env, err = os.ReadFile(filepath.Join(dir, "environ"))
	if err != nil {
		return p, nil, false
	}
	for _, kv := range bytes.Split(env, []byte{0}) {
		if v, found := bytes.CutPrefix(kv, []byte("CLAUDE_CONFIG_DIR=")); found {
			p.configDir = string(v)
		}
	}
	rollup, err := os.ReadFile(filepath.Join(dir, "smaps_rollup"))
	if err != nil {
		return p, nil, false
	}
	for _, line := range strings.Split(string(rollup), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		n, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "Rss:":
			p.rss = n
		case "Pss:":
			p.pss = n
		}
	}
	return p, env, true
}
