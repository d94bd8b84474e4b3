// Package claudeproc finds the Claude Code processes that work in a
// directory, however they were started (by the launcher, by hand with
// claude -w, or as an agent with an isolated worktree), from what the kernel
// says of each process: its working directory, its parent and its name.
//
// Deciding is the same on every system (Snapshot.In); reading the process
// table is each system's own (Current): /proc on Linux (proc.go), sysctl
// kern.proc and lsof on macOS (darwin.go). Where a Claude runs but the
// working directory of it or of a process under it cannot be read, In says
// it cannot tell, rather than guess that the Claude is elsewhere; so it
// does where a process of ours whose command line cannot be read (macOS,
// after a few tries) may be a Claude.
package claudeproc

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/claude-account/claude-account/internal/fsx"
)

// Proc is one process as the kernel describes it.
type Proc struct {
	PID  int
	PPID int
	Comm string // the kernel's name for it (Linux: at most 15 bytes; macOS: 16)
	Cwd  string // "" when it cannot be read (another user's process)
	Node bool   // a node process running Claude Code's cli.js under its own name
	// Native: a native Claude under another name (nativeClaude).
	Native bool
	// Unknown: a process of ours whose working directory could not be read
	// (macOS without lsof): it may work anywhere.
	Unknown bool
	// Maybe: why a process of ours could not be told for Claude or not (its
	// command line could not be read, macOS); "" when it could. It counts
	// as a Claude that may be there: In never lets it pass unseen.
	Maybe string
}

// Claude reports whether p is Claude Code. Claude names itself "claude":
// the native binary is started as claude (or claude.exe), and the node
// releases set their process title to claude (measured on Linux with
// 2.0.77, 2.1.90, 2.1.197 and 2.1.330; macOS keeps node's name in the
// process table and the title in argv). A node process that did not rename
// itself is Claude when it runs the package's cli.js; a native one that
// the kernel names otherwise is Claude when its command line says so
// (nativeClaude).
func (p Proc) Claude() bool {
	return p.namedClaude() || p.Node || p.Native
}

// namedClaude reports whether the kernel names p Claude.
func (p Proc) namedClaude() bool { return p.Comm == "claude" || p.Comm == "claude.exe" }

// nativeClaude reports whether a process the kernel does not name claude
// is a native Claude, from its executable's path (exe: Linux's
// /proc/PID/exe, the path macOS's kern.procargs2 gives) and argv. The
// kernel's name is the executable's file name: Linux takes it from the path
// exec was given, macOS from the file behind any link, so the native
// installer's ~/.local/bin/claude → ~/.local/share/claude/versions/2.1.233
// is "2.1.233" on macOS (and on Linux when started by that path, measured
// with 2.1.330, which does not rename itself), and Nix's wrapper execs
// .claude-wrapped. Such a process is Claude when argv[0], which the shell
// or the wrapper (exec -a "$0") sets to the name the user typed, is claude,
// or when the executable or argv[0] lies in a claude/versions dir.
func nativeClaude(exe string, argv []string) bool {
	paths := []string{exe}
	if len(argv) > 0 {
		a0 := filepath.ToSlash(argv[0])
		if b := path.Base(a0); b == "claude" || b == "claude.exe" {
			return true
		}
		paths = append(paths, a0)
	}
	for _, p := range paths {
		if strings.Contains(filepath.ToSlash(p), "/claude/versions/") {
			return true
		}
	}
	return false
}

// Snapshot is every process readable at one moment.
type Snapshot struct {
	procs map[int]Proc
	self  map[int]bool // this process and its ancestors
	// err: the process table could not be read at all.
	err error
	// quote writes a path as the Cwd fields are written (lsof's escapes on
	// macOS); nil: as it is. unquote gives the paths a Cwd may stand for.
	quote   func(string) string
	unquote func(string) []string
	// fold: compare paths as a file system that folds case and Unicode
	// normalisation does (fsx.WithinAs): macOS's table, read on any system.
	fold bool
	// id gives a file's identity for that comparison; nil: stat.
	id func(string) (fsx.FileID, bool)
	// why the working directories of Unknown processes could not be read.
	why string
}

// Unreadable is a snapshot of a process table that could not be read: In
// cannot tell anything from it.
func Unreadable(err error) *Snapshot { return &Snapshot{err: err} }

// IsClaude reports whether pid is a Claude process now.
func (s *Snapshot) IsClaude(pid int) bool {
	p, ok := s.procs[pid]
	return ok && p.Claude()
}

// Encloses reports whether pid is this process or one of its ancestors (a
// command typed in a Claude's shell runs under that Claude); false from a
// table that could not be read.
func (s *Snapshot) Encloses(pid int) bool {
	return s != nil && s.err == nil && pid > 1 && s.self[pid]
}

// Exists reports whether pid is a process now, Claude or not; from a table
// that could not be read, any PID may be one: true.
func (s *Snapshot) Exists(pid int) bool {
	if s == nil || s.err != nil {
		return true
	}
	_, ok := s.procs[pid]
	return ok
}

// newSnapshot indexes procs and finds the chain of processes from me up.
func newSnapshot(procs []Proc, me int) *Snapshot {
	s := &Snapshot{procs: make(map[int]Proc, len(procs)), self: map[int]bool{}, fold: fsx.NamesFold}
	for _, p := range procs {
		s.procs[p.PID] = p
	}
	for pid, n := me, 0; pid > 1 && n < 256; n++ {
		s.self[pid] = true
		p, ok := s.procs[pid]
		if !ok {
			break
		}
		pid = p.PPID
	}
	return s
}

// runsCLI reports whether a node command line runs Claude Code: its script
// is the package's cli.js, the claude link npm installs for it (argv names
// the link the shell found, until Claude sets its title), or the
// .claude-wrapped script of nixpkgs' wrapper; or its title is claude
// already (macOS: node rewrites argv, not the process table's name).
func runsCLI(args []string) bool {
	if len(args) >= 1 && args[0] == "claude" {
		return true
	}
	if len(args) < 2 {
		return false
	}
	script := filepath.ToSlash(args[1])
	base := path.Base(script)
	return base == "claude" || base == ".claude-wrapped" ||
		strings.HasSuffix(script, "/@anthropic-ai/claude-code/cli.js") ||
		strings.HasSuffix(script, "/@anthropic-ai/claude-code/cli.mjs")
}

// UnknownError says In cannot tell: a Claude runs, and where it or a
// process under it works could not be read; or a process that may be a
// Claude (Maybe: its command line could not be read) works there, or where
// it works could not be read either.
type UnknownError struct {
	PID   int    // one such Claude
	Why   string // why its working directory is not known; "" when it is
	Maybe string // why it may be Claude; "" when it is one
}

func (e *UnknownError) Error() string {
	switch {
	case e.Maybe == "":
		return fmt.Sprintf("claude (PID %d) runs, and where it works cannot be read (%s)", e.PID, e.Why)
	case e.Why == "":
		return fmt.Sprintf("PID %d works there and may be Claude: its command line cannot be read (%s)", e.PID, e.Maybe)
	}
	return fmt.Sprintf("PID %d may be Claude (its command line cannot be read: %s), and where it works cannot be read (%s)", e.PID, e.Maybe, e.Why)
}

// In gives the PIDs of the Claudes that work in dir: a Claude whose working
// directory is dir or below it, and a Claude one of whose descendants works
// there (an agent's tool in its isolated worktree, while Claude itself
// stays in the main one). The process that asks and its ancestors are left
// out: the Claude that runs this command (its WorktreeRemove hook, say) is
// not in its own way. When none is found but one may be there unseen, the
// error says so (an *UnknownError, or why the table could not be read).
func (s *Snapshot) In(dir string) ([]int, error) {
	if s == nil {
		return nil, nil
	}
	if s.err != nil {
		return nil, fmt.Errorf("the process table cannot be read (%v)", s.err)
	}
	roots := []string{filepath.Clean(dir)}
	if c, err := filepath.EvalSymlinks(dir); err == nil && c != roots[0] {
		roots = append(roots, c)
	}
	quoted := roots
	if s.quote != nil {
		quoted = make([]string, len(roots))
		for i, r := range roots {
			quoted[i] = s.quote(r)
		}
	}
	found := map[int]bool{}
	unsure := map[int]*UnknownError{}
	for _, p := range s.procs {
		if s.self[p.PID] {
			continue
		}
		switch {
		case p.Unknown:
			if c := s.claudeOf(p); c != 0 {
				unsure[c] = &UnknownError{PID: c, Why: s.why, Maybe: s.procs[c].Maybe}
			}
		case p.Cwd != "" && s.within(p.Cwd, roots, quoted):
			if c := s.claudeOf(p); c != 0 && s.procs[c].Maybe != "" {
				unsure[c] = &UnknownError{PID: c, Maybe: s.procs[c].Maybe}
			} else if c != 0 {
				found[c] = true
			}
		}
	}
	if len(found) == 0 && len(unsure) > 0 {
		pids := make(map[int]bool, len(unsure))
		for pid := range unsure {
			pids[pid] = true
		}
		return nil, unsure[sorted(pids)[0]]
	}
	return sorted(found), nil
}

func sorted(set map[int]bool) []int {
	out := make([]int, 0, len(set))
	for pid := range set {
		out = append(out, pid)
	}
	sort.Ints(out)
	return out
}

// claudeOf is p when it is a Claude, else its nearest Claude ancestor; 0
// when it has none, or when that Claude is the asking process's own. Where
// no Claude is found, the nearest process that may be one (Proc.Maybe)
// stands for it: a process whose command line could not be read may be a
// Claude under another name, and what runs under it its tools.
func (s *Snapshot) claudeOf(p Proc) int {
	maybe := 0
	for n := 0; n < 256; n++ {
		if p.Claude() {
			if s.self[p.PID] {
				return 0
			}
			return p.PID
		}
		if p.Maybe != "" && maybe == 0 && !s.self[p.PID] {
			maybe = p.PID
		}
		next, ok := s.procs[p.PPID]
		if !ok || p.PPID <= 1 {
			return maybe
		}
		p = next
	}
	return maybe
}

// within reports whether the working directory cwd (as the process table
// writes it) is one of roots or below it: byte for byte as written (quoted:
// roots written so), and where names fold, as the file system compares
// them (fsx.WithinAs), for each path cwd may stand for.
func (s *Snapshot) within(cwd string, roots, quoted []string) bool {
	for _, r := range quoted {
		if fsx.WithinAs(cwd, r, false, nil) {
			return true
		}
	}
	if !s.fold {
		return false
	}
	paths := []string{cwd}
	if s.unquote != nil {
		paths = s.unquote(cwd)
	}
	for _, p := range paths {
		for _, r := range roots {
			if fsx.WithinAs(p, r, true, s.id) {
				return true
			}
		}
	}
	return false
}
