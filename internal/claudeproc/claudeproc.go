// Package claudeproc finds the Claude Code processes that work in a
// directory, however they were started (by the launcher, by hand with
// claude -w, or as an agent with an isolated worktree), from what the kernel
// says of each process: its working directory, its parent and its name.
// It reads /proc and starts no process (no git, no ps), so it costs a few
// milliseconds; where there is no /proc it finds nothing.
package claudeproc

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Proc is one process as /proc describes it.
type Proc struct {
	PID  int
	PPID int
	Comm string // the kernel's name for it (at most 15 bytes)
	Cwd  string // "" when it cannot be read (another user's process)
	Node bool   // a node process running Claude Code's cli.js under its own name
}

// Claude reports whether p is Claude Code. Claude names itself "claude":
// the native binary is started as claude (or claude.exe), and the node
// releases set their process title to claude (measured on 2.0.77, 2.1.90,
// 2.1.197 and 2.1.330). A node process that did not rename itself is
// Claude when it runs the package's cli.js.
func (p Proc) Claude() bool {
	return p.Comm == "claude" || p.Comm == "claude.exe" || p.Node
}

// Snapshot is every process readable at one moment.
type Snapshot struct {
	procs map[int]Proc
	self  map[int]bool // this process and its ancestors
}

// Scan reads procDir (normally /proc). A process that ends while it is
// read is left out.
func Scan(procDir string) (*Snapshot, error) {
	des, err := os.ReadDir(procDir)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{procs: map[int]Proc{}, self: map[int]bool{}}
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
		if p.Comm == "node" || p.Comm == "nodejs" {
			if cmd, err := os.ReadFile(filepath.Join(dir, "cmdline")); err == nil {
				p.Node = runsCLI(cmd)
			}
		}
		s.procs[pid] = p
	}
	for pid, n := os.Getpid(), 0; pid > 1 && n < 256; n++ {
		s.self[pid] = true
		p, ok := s.procs[pid]
		if !ok {
			break
		}
		pid = p.PPID
	}
	return s, nil
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

// runsCLI reports whether a node command line runs Claude Code: its script
// is the package's cli.js, or the claude link npm installs for it (argv
// names the link the shell found, until Claude sets its title).
func runsCLI(cmdline []byte) bool {
	args := bytes.Split(cmdline, []byte{0})
	if len(args) < 2 {
		return false
	}
	script := filepath.ToSlash(string(args[1]))
	return path.Base(script) == "claude" || strings.HasSuffix(script, "/@anthropic-ai/claude-code/cli.js") ||
		strings.HasSuffix(script, "/@anthropic-ai/claude-code/cli.mjs")
}

// In gives the PIDs of the Claudes that work in dir: a Claude whose working
// directory is dir or below it, and a Claude one of whose descendants works
// there (an agent's tool in its isolated worktree, while Claude itself
// stays in the main one). The process that asks and its ancestors are left
// out: the Claude that runs this command (its WorktreeRemove hook, say) is
// not in its own way.
func (s *Snapshot) In(dir string) []int {
	if s == nil {
		return nil
	}
	roots := []string{filepath.Clean(dir)}
	if c, err := filepath.EvalSymlinks(dir); err == nil && c != roots[0] {
		roots = append(roots, c)
	}
	found := map[int]bool{}
	for _, p := range s.procs {
		if p.Cwd == "" || s.self[p.PID] || !within(p.Cwd, roots) {
			continue
		}
		if c := s.claudeOf(p); c != 0 {
			found[c] = true
		}
	}
	out := make([]int, 0, len(found))
	for pid := range found {
		out = append(out, pid)
	}
	sort.Ints(out)
	return out
}

// claudeOf is p when it is a Claude, else its nearest Claude ancestor; 0
// when it has none, or when that Claude is the asking process's own.
func (s *Snapshot) claudeOf(p Proc) int {
	for n := 0; n < 256; n++ {
		if p.Claude() {
			if s.self[p.PID] {
				return 0
			}
			return p.PID
		}
		next, ok := s.procs[p.PPID]
		if !ok || p.PPID <= 1 {
			return 0
		}
		p = next
	}
	return 0
}

func within(p string, roots []string) bool {
	for _, r := range roots {
		if p == r || strings.HasPrefix(p, r+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
