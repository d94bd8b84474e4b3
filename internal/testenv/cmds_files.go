package testenv

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tidwall/gjson"
)

// readlink PATH TARGET: PATH is a symlink whose target is exactly TARGET.
func readlinkCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: readlink PATH TARGET")
	}
	got, err := os.Readlink(ts.MkAbs(args[0]))
	if neg {
		if err == nil && got == args[1] {
			ts.Fatalf("%s links to %s", args[0], got)
		}
		return
	}
	ts.Check(err)
	if got != args[1] {
		ts.Fatalf("%s links to %s, want %s", args[0], got, args[1])
	}
}

// issymlink PATH: PATH is a symlink.
func issymlink(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: issymlink PATH")
	}
	fi, err := os.Lstat(ts.MkAbs(args[0]))
	is := err == nil && fi.Mode()&fs.ModeSymlink != 0
	if is == neg {
		ts.Fatalf("issymlink %s: %v", args[0], is)
	}
}

// mode PATH MODE: PATH's permission bits are MODE (octal, e.g. 0600).
func modeCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: mode PATH MODE")
	}
	want, err := strconv.ParseUint(args[1], 8, 32)
	ts.Check(err)
	fi, err := os.Lstat(ts.MkAbs(args[0]))
	ts.Check(err)
	if got := fi.Mode().Perm(); (uint64(got) == want) == neg {
		ts.Fatalf("%s has mode %#o, want %s%s", args[0], got, map[bool]string{true: "not "}[neg], args[1])
	}
}

// jsonpath FILE PATH WANT: the gjson PATH of FILE reads WANT (strings
// unquoted, anything else as raw JSON); WANT "<missing>" means no such value.
func jsonpath(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: jsonpath FILE PATH WANT")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	r := gjson.GetBytes(data, args[1])
	got := r.Raw
	switch {
	case !r.Exists():
		got = "<missing>"
	case r.Type == gjson.String:
		got = r.Str
	}
	if (got == args[2]) == neg {
		ts.Fatalf("%s %s = %s, want %s%s", args[0], args[1], got, map[bool]string{true: "not "}[neg], args[2])
	}
}

// waitfile PATH [REGEXP]: wait up to Patience for PATH to exist with
// content (matching REGEXP, multi-line mode, when given). The deadline is
// generous: a real Claude (a node program before 2.1.198) starts slowly on a
// loaded machine, and a passing wait ends as soon as the file is there.
func waitfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: waitfile PATH [REGEXP]")
	}
	re := regexp.MustCompile("(?m).")
	if len(args) == 2 {
		re = regexp.MustCompile("(?m)" + args[1])
	}
	for deadline := time.Now().Add(Patience); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if data, err := os.ReadFile(ts.MkAbs(args[0])); err == nil && re.Match(data) {
			return
		}
	}
	ts.Fatalf("%s did not appear (or match) within %s", args[0], Patience)
}

// snapshot DIR NAME records every entry under DIR (mode, size, mtime, inode,
// link target); unchanged DIR NAME fails if any of it differs now.
func snapshot(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: snapshot DIR NAME")
	}
	ts.Value(snapshotsKey).(*sync.Map).Store(args[1], tree(ts, args[0]))
}

func unchanged(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: unchanged DIR NAME")
	}
	old, ok := ts.Value(snapshotsKey).(*sync.Map).Load(args[1])
	if !ok {
		ts.Fatalf("no snapshot %s", args[1])
	}
	now := tree(ts, args[0])
	if (now == old.(string)) == neg {
		if neg {
			ts.Fatalf("%s is unchanged", args[0])
		}
		ts.Fatalf("%s changed:\nbefore:\n%s\nafter:\n%s", args[0], old, now)
	}
}

func tree(ts *testscript.TestScript, dir string) string {
	root := ts.MkAbs(dir)
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		st := fi.Sys().(*syscall.Stat_t)
		line := fmt.Sprintf("%s %v %d ino=%d mtime=%d", strings.TrimPrefix(p, root), fi.Mode(), fi.Size(), st.Ino, fi.ModTime().UnixNano())
		if fi.Mode()&fs.ModeSymlink != 0 {
			t, _ := os.Readlink(p)
			line += " -> " + t
		}
		if fi.IsDir() {
			line = fmt.Sprintf("%s %v ino=%d", strings.TrimPrefix(p, root), fi.Mode(), st.Ino)
		}
		lines = append(lines, line)
		return nil
	})
	ts.Check(err)
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
