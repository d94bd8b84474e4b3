package claudeproc

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// macOS has no /proc. The kernel's process table (sysctl kern.proc.all)
// gives each process's pid, parent, owner and name; kern.procargs2 a
// process's argv; neither gives its working directory, which only
// proc_pidinfo(PROC_PIDVNODEPATHINFO) in libproc does, and pure Go cannot
// call it. lsof (in /usr/sbin on every Mac) calls it: `lsof -a -d cwd -p
// PIDS -Fn`. It is asked only about Claudes of ours and the processes under
// them, and only when one runs (never on the launch path: worktree rm, gc
// and an ephemeral worktree's removal after Claude exits). This file
// decides from what those sources say, on any system, so Linux tests it;
// current_darwin.go reads them.

// kinfo is what kern.proc.all says of one process.
type kinfo struct {
	PID, PPID int
	UID       int
	Comm      string
	Zombie    bool // it has exited and waits for its parent: it runs nothing
}

// darwinSources reads what kern.proc.all does not say.
type darwinSources struct {
	// procargs reads a process's kern.procargs2 (its executable's path and
	// arguments); nil: none are read.
	procargs func(pid int) ([]byte, error)
	// pause waits between two tries of a failed procargs read.
	pause func(time.Duration)
	// cwds gives the working directories of pids, as lsof writes them; a
	// pid it does not name is unknown.
	cwds func(pids []int) (map[int]string, error)
	// alive reports whether pid still runs (kill(pid, 0)).
	alive func(pid int) bool
}

// argvPauses are the waits before each new try of a failed kern.procargs2
// read: it fails for a moment while the process forks or execs (the
// kernel has no arguments to give until exec finishes), and a Claude
// missed then could let rm or gc remove the worktree it works in. Four
// tries within 35 ms; a process that still fails is one that may be Claude
// (Proc.Maybe).
var argvPauses = []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond}

// readArgv reads pid's executable path and arguments, trying again after
// each of argvPauses while the read fails and the process still runs. err
// is the last failure when every try failed; gone says the process ended
// meanwhile (it is in no one's way).
func readArgv(src darwinSources, pid int) (exe string, args []string, gone bool, err error) {
	for try := 0; ; try++ {
		b, rerr := src.procargs(pid)
		if rerr == nil {
			exe, args = parseProcArgs(b)
			return exe, args, false, nil
		}
		err = fmt.Errorf("kern.procargs2: %w", rerr)
		if src.alive != nil && !src.alive(pid) {
			return "", nil, true, err
		}
		if try == len(argvPauses) {
			return "", nil, false, fmt.Errorf("%w, %d tries", err, try+1)
		}
		if src.pause != nil {
			src.pause(argvPauses[try])
		}
	}
}

// fromTable is the snapshot of macOS's process table as seen by uid, for
// the process me. Other users' processes get no working directory, as on
// Linux: their Claudes are not in a worktree of ours. A process of ours
// whose command line cannot be read, after readArgv's tries, may be a
// Claude (Proc.Maybe): In counts it as one that may be in the way.
func fromTable(table []kinfo, me, uid int, src darwinSources) *Snapshot {
	procs := make([]Proc, 0, len(table))
	for _, k := range table {
		p := Proc{PID: k.PID, PPID: k.PPID, Comm: k.Comm}
		if k.UID == uid && !k.Zombie && !p.namedClaude() && src.procargs != nil {
			// A native Claude is named for the file behind its link
			// (2.1.233): its arguments tell (nativeClaude).
			exe, args, gone, err := readArgv(src, k.PID)
			switch {
			case gone:
				// Ended while we looked: in no one's way.
			case err != nil:
				p.Maybe = err.Error()
			case p.Comm == "node" || p.Comm == "nodejs":
				p.Node = runsCLI(args)
			default:
				p.Native = nativeClaude(exe, args)
			}
		}
		procs = append(procs, p)
	}
	s := newSnapshot(procs, me)
	// macOS's file systems fold case and Unicode normalisation, whatever
	// system reads the table (the tests: Linux).
	s.quote, s.unquote, s.fold = lsofQuote, lsofUnquote, true
	owner := make(map[int]int, len(table))
	for _, k := range table {
		owner[k.PID] = k.UID
	}
	// Only the Claudes of ours and what runs under them can be in the way.
	var want []int
	for pid, p := range s.procs {
		if owner[pid] == uid && !s.self[pid] && s.claudeOf(p) != 0 {
			want = append(want, pid)
		}
	}
	if len(want) == 0 {
		return s
	}
	sort.Ints(want)
	cwds, err := src.cwds(want)
	if err != nil {
		s.why = err.Error()
	} else {
		s.why = "lsof did not say"
	}
	for _, pid := range want {
		p := s.procs[pid]
		if cwd, ok := cwds[pid]; ok && cwd != "" {
			p.Cwd = cwd
		} else if src.alive == nil || src.alive(pid) {
			p.Unknown = true
		}
		s.procs[pid] = p
	}
	return s
}

// lsofArgs are lsof's arguments for the working directories of pids: only
// the cwd descriptor (-a: of these pids), one field a line (-Fn: "p<pid>",
// "f<fd>", "n<path>"; the field list attached, as -F's argument is
// optional), no warnings on stderr (-w).
func lsofArgs(pids []int) []string {
	list := make([]string, len(pids))
	for i, pid := range pids {
		list[i] = strconv.Itoa(pid)
	}
	return []string{"-a", "-w", "-d", "cwd", "-p", strings.Join(list, ","), "-Fn"}
}

// lsofPath is Apple's lsof, which every macOS ships; one on PATH else.
const lsofPath = "/usr/sbin/lsof"

// lsofCwds asks lsof (bin; one on PATH when bin is missing) where pids
// work. It exits 1 when a pid has gone; what it printed still holds.
func lsofCwds(bin string, pids []int) (map[int]string, error) {
	if _, err := os.Stat(bin); err != nil {
		found, err := exec.LookPath("lsof")
		if err != nil {
			return nil, fmt.Errorf("lsof is not in %s nor on PATH", filepath.Dir(bin))
		}
		bin = found
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

// parseLsof reads lsof's -F output: a "p<pid>" line starts each process,
// an "f<fd>" line each file, an "n<name>" line gives the file's name. Only
// the cwd descriptor's name is taken; names stay as lsof wrote them
// (lsofQuote).
func parseLsof(out []byte) map[int]string {
	cwds := map[int]string{}
	pid, fd := 0, ""
	for _, line := range strings.Split(string(out), "\n") {
		if line == "" {
			continue
		}
		switch v := line[1:]; line[0] {
		case 'p':
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				pid = 0
				continue
			}
			pid, fd = n, ""
		case 'f':
			fd = v
		case 'n':
			if pid > 0 && (fd == "cwd" || fd == "") {
				cwds[pid] = v
			}
		}
	}
	return cwds
}

// lsofQuote writes a path as lsof does under LC_ALL=C (safestrprt in its
// misc.c): a control byte as \b \f \n \r \t or ^X, 0xff as ^?, a backslash
// doubled, any other byte outside printable ASCII as \xNN. Paths are
// compared byte for byte in this form first, not decoded: "^A" in a name
// is those two characters, which decoding would take for a control byte
// (lsofUnquote gives both readings, for the comparison that folds names).
func lsofQuote(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20:
			b.WriteByte('^')
			b.WriteByte(c + 0x40)
		case c == 0xff:
			b.WriteString("^?")
		case c >= 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// lsofUnquote gives the paths lsofQuote may have written as s: its escapes
// undone, "^X" read as the two characters it may be and, when s holds
// one, as the control byte it may stand for.
func lsofUnquote(s string) []string {
	if !strings.ContainsAny(s, `\^`) {
		return []string{s}
	}
	decode := func(carets bool) string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c == '\\' && i+1 < len(s):
				switch n := s[i+1]; n {
				case '\\':
					b.WriteByte('\\')
				case 'b':
					b.WriteByte('\b')
				case 'f':
					b.WriteByte('\f')
				case 'n':
					b.WriteByte('\n')
				case 'r':
					b.WriteByte('\r')
				case 't':
					b.WriteByte('\t')
				case 'x':
					if i+4 > len(s) {
						b.WriteByte(c)
						continue
					}
					v, err := strconv.ParseUint(s[i+2:i+4], 16, 8)
					if err != nil {
						b.WriteByte(c)
						continue
					}
					b.WriteByte(byte(v))
					i += 2
				default:
					b.WriteByte(c)
					continue
				}
				i++
			case c == '^' && carets && i+1 < len(s) && (s[i+1] == '?' || s[i+1] >= 0x40 && s[i+1] < 0x60):
				if s[i+1] == '?' {
					b.WriteByte(0xff)
				} else {
					b.WriteByte(s[i+1] - 0x40)
				}
				i++
			default:
				b.WriteByte(c)
			}
		}
		return b.String()
	}
	paths := []string{decode(false)}
	if strings.Contains(s, "^") {
		paths = append(paths, decode(true))
	}
	return paths
}

// parseProcArgs reads kern.procargs2: argc (a 32-bit int, little-endian
// on both Macs), the executable's path, NUL padding, then argc
// NUL-terminated arguments (and the environment, not read).
func parseProcArgs(b []byte) (exe string, args []string) {
	if len(b) < 4 {
		return "", nil
	}
	argc := int(int32(binary.LittleEndian.Uint32(b)))
	rest := b[4:]
	i := bytes.IndexByte(rest, 0)
	if argc <= 0 || i < 0 {
		return "", nil
	}
	exe, rest = string(rest[:i]), rest[i:]
	for len(rest) > 0 && rest[0] == 0 {
		rest = rest[1:]
	}
	for len(args) < argc && len(rest) > 0 {
		j := bytes.IndexByte(rest, 0)
		if j < 0 {
			args = append(args, string(rest))
			break
		}
		args = append(args, string(rest[:j]))
		rest = rest[j+1:]
	}
	return exe, args
}
