package claudeproc

import (
	"errors"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/fsx"
)

// The tests in this file decide from macOS inputs written after macOS's
// formats and behaviour; no macOS machine runs them.

// TestDarwinFoldedCwd: APFS ignores case and Unicode normalisation, and
// the kernel reports a working directory as the process named it, so a
// Claude that did `cd ~/src/App/.claude/worktrees/Fix` works in the
// worktree fix. A byte comparison missed it, and worktree rm or gc would
// remove the directory it works in (this test failed so before).
func TestDarwinFoldedCwd(t *testing.T) {
	const wt = "/Users/u/src/app/.claude/worktrees/"
	table := []kinfo{
		{PID: 401, PPID: 1, UID: 501, Comm: "-zsh"},
		{PID: 700, PPID: 401, UID: 501, Comm: "claude"},
		{PID: 710, PPID: 401, UID: 501, Comm: "claude"},
		{PID: 720, PPID: 401, UID: 501, Comm: "claude"},
		{PID: 730, PPID: 401, UID: 501, Comm: "claude"},
	}
	// What lsof -F n prints under LC_ALL=C: the NFD é of 710's cwd as the
	// bytes \xcc\x81 escaped; the worktree was made as NFC "café".
	lsof := "p700\nfcwd\nn/Users/u/src/App/.claude/worktrees/Fix\n" +
		"p710\nfcwd\nn" + wt + `cafe\xcc\x81/src` + "\n" +
		"p720\nfcwd\nn" + wt + "fix2\n" +
		"p730\nfcwd\nn/Users/u/src/APP/.claude/worktrees/FIX/web\n"
	src := darwinSources{
		procargs: func(pid int) ([]byte, error) {
			if pid != 401 {
				return nil, errors.New("not asked: the others are named claude")
			}
			return procargs2("/bin/zsh", []string{"-zsh"}), nil
		},
		cwds: func([]int) (map[int]string, error) { return parseLsof([]byte(lsof)), nil },
	}
	// The same inodes under both spellings, as APFS answers stat.
	inodes := map[string]uint64{
		"/":                                          2,
		"/Users":                                     3,
		"/Users/u":                                   4,
		"/Users/u/src":                               5,
		"/Users/u/src/app":                           6,
		"/Users/u/src/App":                           6,
		"/Users/u/src/APP":                           6,
		"/Users/u/src/app/.claude":                   7,
		"/Users/u/src/App/.claude":                   7,
		"/Users/u/src/APP/.claude":                   7,
		wt[:len(wt)-1]:                               8,
		"/Users/u/src/App/.claude/worktrees":         8,
		"/Users/u/src/APP/.claude/worktrees":         8,
		wt + "fix":                                   10,
		"/Users/u/src/App/.claude/worktrees/Fix":     10,
		"/Users/u/src/APP/.claude/worktrees/FIX":     10,
		"/Users/u/src/APP/.claude/worktrees/FIX/web": 11,
		wt + "fix2":                                  12,
		wt + "caf\u00e9":                             13,
		wt + "cafe\u0301":                            13,
		wt + "cafe\u0301/src":                        14,
	}
	for name, id := range map[string]func(string) (fsx.FileID, bool){
		"the file system answers": func(p string) (fsx.FileID, bool) {
			ino, ok := inodes[p]
			return fsx.FileID{Dev: 1, Ino: ino}, ok
		},
		"paths gone, names fold": func(string) (fsx.FileID, bool) { return fsx.FileID{}, false },
	} {
		s := fromTable(table, 900, 501, src)
		s.id = id
		for _, c := range []struct {
			dir  string
			want []int
		}{
			{wt + "fix", []int{700, 730}},
			{wt + "caf\u00e9", []int{710}},
			{wt + "fix2", []int{720}},
			{wt + "other", []int{}},
			{"/Users/u/src/app", []int{700, 710, 720, 730}},
		} {
			if got, err := s.In(c.dir); err != nil || !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s: In(%s) = %v, %v; want %v", name, c.dir, got, err, c.want)
			}
		}
	}
}

// lsofUnquote undoes lsofQuote, both readings of a caret included.
func TestLsofUnquote(t *testing.T) {
	for _, p := range []string{"/a/b", "/a/caf\u00e9\\x\ttab\n", "/a/\x01\x7f\xff^", `/a/\x`} {
		got := lsofUnquote(lsofQuote(p))
		found := false
		for _, g := range got {
			found = found || g == p
		}
		if !found {
			t.Errorf("lsofUnquote(lsofQuote(%q)) = %q, which does not hold it", p, got)
		}
	}
	if got := lsofUnquote("/a/a^Bc"); !reflect.DeepEqual(got, []string{"/a/a^Bc", "/a/a\x02c"}) {
		t.Errorf("lsofUnquote(a^Bc) = %q, want both readings", got)
	}
}

// TestDarwinArgvRetry: kern.procargs2 fails for a moment while a process
// forks or execs. A native Claude (named for its version file, so only its
// command line tells) read at that moment was taken for no Claude, and rm
// or gc went on (this test failed so before). Now the read is tried again,
// a few times; one that still fails makes the process one that may be
// Claude, and In refuses where it works, saying so.
func TestDarwinArgvRetry(t *testing.T) {
	d := readDarwin(t, "darwin-table.txtar")
	const wt = "/Users/u/src/app/.claude/worktrees/"
	// sources whose kern.procargs2 read of PID 600 (2.1.233, typed claude,
	// working in wt/native) fails its first fails times.
	sources := func(fails int) (darwinSources, *int, *[]time.Duration) {
		src, _ := d.sources(t, nil)
		read := src.procargs
		calls, pauses := 0, []time.Duration{}
		src.procargs = func(pid int) ([]byte, error) {
			if pid == 600 {
				calls++
				if calls <= fails {
					return nil, syscall.EINVAL
				}
			}
			return read(pid)
		}
		src.pause = func(d time.Duration) { pauses = append(pauses, d) }
		return src, &calls, &pauses
	}

	// Fails twice, then reads: Claude, found.
	src, calls, pauses := sources(2)
	s := fromTable(d.table, 900, 501, src)
	if got, err := s.In(wt + "native"); err != nil || !reflect.DeepEqual(got, []int{600}) {
		t.Errorf("two failed reads: In(native) = %v, %v; want [600]", got, err)
	}
	if *calls != 3 || !reflect.DeepEqual(*pauses, argvPauses[:2]) {
		t.Errorf("two failed reads: %d reads, pauses %v; want 3 reads, pauses %v", *calls, *pauses, argvPauses[:2])
	}

	// Never reads: it may be Claude. Where it works, In cannot tell and
	// says why; elsewhere it is in no one's way, and a Claude surely
	// there still answers.
	src, calls, pauses = sources(1 << 30)
	s = fromTable(d.table, 900, 501, src)
	if *calls != len(argvPauses)+1 || !reflect.DeepEqual(*pauses, argvPauses) {
		t.Errorf("failing reads: %d reads, pauses %v; want %d, %v", *calls, *pauses, len(argvPauses)+1, argvPauses)
	}
	got, err := s.In(wt + "native")
	var ue *UnknownError
	if got != nil || !asUnknown(err, &ue) || ue.PID != 600 ||
		err.Error() != "PID 600 works there and may be Claude: its command line cannot be read (kern.procargs2: invalid argument, 4 tries)" {
		t.Errorf("failing reads: In(native) = %v, %v; want an UnknownError saying PID 600 may be Claude", got, err)
	}
	if got, err := s.In(wt + "fix"); err != nil || !reflect.DeepEqual(got, []int{510}) {
		t.Errorf("failing reads: In(fix) = %v, %v; want [510]", got, err)
	}
	if got, err := s.In(wt + "shell"); err != nil || len(got) != 0 {
		t.Errorf("failing reads: In(shell) = %v, %v; want none", got, err)
	}

	// lsof did not answer for it either: where it works is not known.
	d2 := d
	d2.lsof = []byte(strings.Replace(string(d.lsof), "p600\nfcwd\nn"+wt+"native\n", "", 1))
	src, _, _ = sources(1 << 30)
	src.cwds = func([]int) (map[int]string, error) { return parseLsof(d2.lsof), nil }
	s = fromTable(d.table, 900, 501, src)
	if got, err := s.In(wt + "shell"); got != nil || !asUnknown(err, &ue) || ue.PID != 600 ||
		!strings.Contains(err.Error(), "PID 600 may be Claude (its command line cannot be read: kern.procargs2: invalid argument, 4 tries), and where it works cannot be read") {
		t.Errorf("failing reads, no cwd: In(shell) = %v, %v; want an UnknownError for PID 600", got, err)
	}

	// A process that ends while it is read is in no one's way; a zombie is
	// not read at all.
	src, calls, _ = sources(1 << 30)
	alive := src.alive
	src.alive = func(pid int) bool { return pid != 600 && alive(pid) }
	table := append([]kinfo(nil), d.table...)
	for i := range table {
		if table[i].PID == 630 {
			table[i].Zombie = true
		}
	}
	read := src.procargs
	src.procargs = func(pid int) ([]byte, error) {
		if pid == 630 {
			t.Errorf("the zombie 630 was read")
		}
		return read(pid)
	}
	s = fromTable(table, 900, 501, src)
	if got, err := s.In(wt + "native"); err != nil || len(got) != 0 || *calls != 1 {
		t.Errorf("ended while read: In(native) = %v, %v after %d reads; want none after 1", got, err, *calls)
	}
}
