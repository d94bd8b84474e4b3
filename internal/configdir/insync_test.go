package configdir

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/runtimes"
	"github.com/claude-account/claude-account/internal/trust"
)

// syncWorld is an account used outside git: its own dir is the config dir,
// and its .claude.json is a large state, in sync after the first launch.
type syncWorld struct {
	t     testing.TB
	in    Input
	state string
}

func newSyncWorld(t testing.TB) *syncWorld {
	root := t.TempDir()
	acctDir := filepath.Join(root, "home", ".claude-max")
	ok(t, account.Init("max", acctDir))
	ok(t, os.WriteFile(filepath.Join(acctDir, ".mcp.json"), []byte(`{"mcpServers":{"a":{"command":"/bin/true"}}}`), 0o600))
	var b bytes.Buffer
	b.WriteString(`{"numStartups": 3, "mcpServers": {"a": {"command": "/bin/false"}}, "projects": {`)
	for i := 0; b.Len() < stampAlone+1024; i++ {
		fmt.Fprintf(&b, "%q: {\"history\": [%q]},\n", fmt.Sprintf("/src/p%06d", i), strings.Repeat("lorem ipsum ", 20))
	}
	b.WriteString(`"/src/last": {}}}`)
	ok(t, os.WriteFile(filepath.Join(acctDir, ".claude.json"), b.Bytes(), 0o600))
	a, err := account.Load("max", acctDir)
	ok(t, err)
	plain := filepath.Join(root, "plain")
	ok(t, os.MkdirAll(plain, 0o755))
	e := env.Env{"HOME": filepath.Join(root, "home"), "GIT_CEILING_DIRECTORIES": root}
	ctx, err := gitctx.Detect(plain, e.Get)
	ok(t, err)
	in := Input{Account: a, Context: ctx, Layout: Locate(a, ctx, e), Trust: trust.Store{Dir: filepath.Join(root, "trust")},
		Claude: claudever.Binary{Known: true, Version: claudever.V(2, 1, 330)}}
	return &syncWorld{t: t, in: in, state: filepath.Join(acctDir, ".claude.json")}
}

// launch plans and applies with the clock read now, as a launch does; it
// returns the plan's lines and how many times it read the state.
func (w *syncWorld) launch() (lines []string, scanned int) {
	w.t.Helper()
	in := w.in
	in.Now = time.Now()
	p, err := MakePlan(in)
	ok(w.t, err)
	defer p.Close()
	ok(w.t, p.Apply())
	return p.Lines()[1:], p.scanned
}

// settle waits, polling the clock, until the state's last change is older
// than the file system's timestamp granularity: a stamp taken sooner is racy.
func (w *syncWorld) settle() {
	w.t.Helper()
	fi, err := os.Lstat(w.state)
	ok(w.t, err)
	last := max(fi.ModTime().UnixNano(), runtimes.Ctime(fi))
	gran := granularity(filepath.Dir(w.state))
	for time.Now().Add(-gran).UnixNano() <= last {
		time.Sleep(gran / 10)
	}
}

func (w *syncWorld) stamp() SyncStamp {
	return loadRecord(filepath.Join(filepath.Dir(w.state), ManagedFile), false).read.InSync
}

// writeInPlace rewrites the state in place (same inode), then sets its mtime
// back: a rewrite of the same size within the same second, or tick.
func (w *syncWorld) writeInPlace(data []byte) {
	w.t.Helper()
	fi, err := os.Lstat(w.state)
	ok(w.t, err)
	f, err := os.OpenFile(w.state, os.O_WRONLY, 0)
	ok(w.t, err)
	_, err = f.WriteAt(data, 0)
	ok(w.t, err)
	ok(w.t, f.Close())
	ok(w.t, os.Chtimes(w.state, fi.ModTime(), fi.ModTime()))
}

func TestInSyncStampSkipsTheScan(t *testing.T) {
	w := newSyncWorld(t)
	if lines, _ := w.launch(); !strings.Contains(strings.Join(lines, "\n"), ".claude.json (account's MCP servers and keys)") {
		t.Fatalf("the first launch did not splice the stale server:\n%s", strings.Join(lines, "\n"))
	}
	w.settle()
	if _, n := w.launch(); n != 1 {
		t.Fatalf("the launch that finds the state in sync read it %d times, want 1", n)
	}
	if w.stamp() == (SyncStamp{}) {
		t.Fatal("a launch that found the large state in sync recorded no stamp")
	}
	lines, n := w.launch()
	if n != 0 || len(lines) != 0 {
		t.Fatalf("with the stamp, a launch read the state %d times and planned %q; want none", n, lines)
	}
}

// A launch right after the state changed cannot tell a change in the same
// tick from this version: it records no stamp, and the next one scans.
func TestInSyncStampNotTakenWhenRacy(t *testing.T) {
	w := newSyncWorld(t)
	w.launch()
	fi, err := os.Lstat(w.state)
	ok(t, err)
	in := w.in
	in.Now = time.Unix(0, max(fi.ModTime().UnixNano(), runtimes.Ctime(fi))).Add(granularity(filepath.Dir(w.state)) / 2)
	p, err := MakePlan(in)
	ok(t, err)
	ok(t, p.Apply())
	p.Close()
	if st := w.stamp(); st != (SyncStamp{}) {
		t.Fatalf("a stamp taken within the timestamp granularity of the state's change was recorded: %+v", st)
	}
	if _, n := w.launch(); n != 1 {
		t.Fatalf("after a racy launch, the next read the state %d times, want 1", n)
	}
}

// What Claude (or anything) does to the state after the stamp is seen,
// even a rewrite of the same size, in place, with the mtime set back.
func TestInSyncStampRewriteStillSpliced(t *testing.T) {
	w := newSyncWorld(t)
	w.launch()
	w.settle()
	w.launch()
	stamped := w.stamp()
	if stamped == (SyncStamp{}) {
		t.Fatal("no stamp recorded")
	}
	data, err := os.ReadFile(w.state)
	ok(t, err)
	// The declared server changed back, at the same size.
	changed := bytes.Replace(data, []byte(`"/bin/true"`), []byte(`"/bin/echo"`), 1)
	if bytes.Equal(changed, data) || len(changed) != len(data) {
		t.Fatal("the test's rewrite is not a same-size change")
	}
	w.writeInPlace(changed)
	fi, err := os.Lstat(w.state)
	ok(t, err)
	if fi.Size() != stamped.Size || fi.ModTime().UnixNano() != stamped.MtimeNanos {
		t.Fatalf("the rewrite changed the size or mtime: the test proves nothing")
	}
	lines, n := w.launch()
	if n != 1 || !strings.Contains(strings.Join(lines, "\n"), ".claude.json (account's MCP servers and keys)") {
		t.Fatalf("after a same-size rewrite with the mtime set back, the launch read the state %d times and planned %q; want it spliced", n, lines)
	}
	after, err := os.ReadFile(w.state)
	ok(t, err)
	if !bytes.Contains(after, []byte(`"/bin/true"`)) {
		t.Fatal("the declared server was not restored")
	}
}

// A change to what the decision depends on (here the declared servers) is
// seen though the state did not change.
func TestInSyncStampInputsChanged(t *testing.T) {
	w := newSyncWorld(t)
	w.launch()
	w.settle()
	w.launch()
	if w.stamp() == (SyncStamp{}) {
		t.Fatal("no stamp recorded")
	}
	ok(t, os.WriteFile(filepath.Join(w.in.Account.Dir, ".mcp.json"), []byte(`{"mcpServers":{"a":{"command":"/bin/sh"}}}`), 0o600))
	lines, n := w.launch()
	if n != 1 || !strings.Contains(strings.Join(lines, "\n"), ".claude.json (account's MCP servers and keys)") {
		t.Fatalf("after the declared servers changed, the launch read the state %d times and planned %q; want it spliced", n, lines)
	}
}
