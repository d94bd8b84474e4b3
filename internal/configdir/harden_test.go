package configdir_test

// Hardening: kill -9 at random moments while a launch coalesces a 30 MB
// .claude.json and a large settings.json. Whatever the moment, each file is
// valid JSON and is exactly the old or the new version; the next launch
// leaves no temporary file of ours behind, neither in the runtime dir nor
// in $TMPDIR.

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/testenv"
)

// world is a testenv.World whose stub claude exits 0 at once.
type world struct{ *testenv.World }

func newWorld(t *testing.T) *world {
	return &world{testenv.NewWorld(t, "#!/bin/sh\nexit 0\n")}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// bigClaudeJSON is a .claude.json of about size bytes: a long projects
// history, a login, and the declared server "fresh" as Claude changed it
// (the launch restores it).
func bigClaudeJSON(size int) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"numStartups\": 42,\n  \"oauthAccount\": {\"emailAddress\": \"me@example.com\"},\n")
	b.WriteString("  \"mcpServers\": {\"fresh\": {\"command\": \"/bin/false\", \"args\": [\"old\"]}},\n  \"projects\": {\n")
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "    \"/home/me/src/project-%06d\": {\"allowedTools\": [], \"history\": [{\"display\": \"fix the build, take %d: %s\"}], \"lastCost\": %d.25}",
			i, i, strings.Repeat("lorem ipsum dolor sit amet ", 8), i)
	}
	b.WriteString("\n  }\n}\n")
	return b.Bytes()
}

// bigSettings is a settings.json Claude wrote: a stale declared key and a
// long permissions list of its own.
func bigSettings(size int) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"model\": \"sonnet\",\n  \"theme\": \"dark\",\n  \"permissions\": {\"allow\": [\n")
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "    \"Bash(make target-%07d:*)\"", i)
	}
	b.WriteString("\n  ]}\n}\n")
	return b.Bytes()
}

func sum(data []byte) [32]byte { return sha256.Sum256(data) }

// replace puts data at path the way the user's old file would be: a whole
// file, in one rename, mode 0600.
func replace(t *testing.T, path string, data []byte) {
	t.Helper()
	tmp := path + ".harden-restore"
	must(t, os.WriteFile(tmp, data, 0o600))
	must(t, os.Rename(tmp, path))
}

// tempLike matches the names renameio gives its temporary files and probes:
// "." + the file's name + a decimal number (e.g. "..claude.json5577006791947779410").
var tempLike = regexp.MustCompile(`^\..*\.json\d+$|harden-restore`)

func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		if tempLike.MatchString(de.Name()) {
			fi, _ := de.Info()
			size := int64(-1)
			if fi != nil {
				size = fi.Size()
			}
			out = append(out, fmt.Sprintf("%s (%d bytes)", filepath.Join(dir, de.Name()), size))
		}
	}
	return out
}

func TestHardenKillDuringCoalesce(t *testing.T) {
	if testing.Short() {
		t.Skip("30 MB crash test skipped in -short mode")
	}
	w := newWorld(t)
	must(t, os.MkdirAll(w.Tmp, 0o700))
	w.OK(w.Root, "init", "x")
	acct := filepath.Join(w.Root, "home", ".claude-x")
	// Declared in a store dir, as under Nix: the account's settings.json is
	// then the coalesced file every runtime links to.
	must(t, os.MkdirAll(filepath.Join(acct, "store"), 0o700))
	must(t, os.WriteFile(filepath.Join(acct, "store", "settings.json"), []byte(`{"model": "opus", "env": {"A": "1"}}`+"\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(acct, "account.toml"), []byte("declared = \"store\"\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(acct, "store", ".mcp.json"), []byte(`{"mcpServers": {"fresh": {"command": "/bin/true", "args": ["new"]}}}`+"\n"), 0o600))
	repo := w.Repo("repo")
	w.OK(repo, "run", "--account", "x") // makes the runtime
	rt := filepath.Join(repo, ".git", "claude-runtime", "x")
	state, settings := filepath.Join(rt, ".claude.json"), filepath.Join(acct, "settings.json")

	oldState, oldSettings := bigClaudeJSON(30<<20), bigSettings(4<<20)
	replace(t, state, oldState)
	replace(t, settings, oldSettings)
	start := time.Now()
	w.OK(repo, "run", "--account", "x")
	window := time.Since(start)
	newState, err := os.ReadFile(state)
	must(t, err)
	newSettings, err := os.ReadFile(settings)
	must(t, err)
	if bytes.Equal(newState, oldState) || bytes.Equal(newSettings, oldSettings) {
		t.Fatal("the clean launch did not coalesce: the test cannot tell old from new")
	}
	for name, data := range map[string][]byte{"new .claude.json": newState, "new settings.json": newSettings} {
		if !json.Valid(data) {
			t.Fatalf("%s is not valid JSON", name)
		}
	}
	t.Logf("one coalescing launch takes %v", window)

	want := map[string]map[[32]byte]string{
		state:    {sum(oldState): "old", sum(newState): "new"},
		settings: {sum(oldSettings): "old", sum(newSettings): "new"},
	}
	const kills = 25
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	seen := map[string]int{}
	isOld := map[string]bool{state: true, settings: true}
	// Patient: on a loaded machine every launch, and every 30 MB replace
	// between rounds, is slower; the rounds end when enough were killed.
	deadline := time.Now().Add(testenv.Patience)
	// A launch that finished before its kill does not count: keep going
	// until kills launches died mid-way. The kill comes within the first
	// 90% of one launch's time, where the coalescing happens.
	for i := 0; seen["killed"] < kills && i < 4*kills && time.Now().Before(deadline); i++ {
		// Every round starts from the old files, so every launch coalesces.
		if !isOld[state] {
			replace(t, state, oldState)
		}
		if !isOld[settings] {
			replace(t, settings, oldSettings)
		}
		delay := time.Duration(rng.Int63n(int64(window)*9/10 + 1))
		c := w.Cmd(repo, "run", "--account", "x")
		must(t, c.Start())
		time.Sleep(delay)
		_ = c.Process.Signal(syscall.SIGKILL)
		err := c.Wait()
		if ee, ok := err.(*exec.ExitError); ok {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
				seen["killed"]++
			}
		}
		for path, versions := range want {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("round %d (kill after %v): %s: %v", i, delay, path, err)
			}
			v, ok := versions[sum(data)]
			if !ok && path == state && json.Valid(data) && gjson.GetBytes(data, "mcpServers").Raw == gjson.GetBytes(newState, "mcpServers").Raw {
				// A complete launch's output from another starting point:
				// a round killed after it recorded the account's keys (the
				// ledger, the runtimes record) but before this file was
				// written starts the next round from there, and the account
				// keys it then leaves in the runtime are the account's own.
				// What must never happen is a file that is part of two.
				ok, v = true, "new from another start"
			}
			if !ok {
				t.Fatalf("round %d (kill after %v): %s is neither the old nor the new version (%d bytes, valid JSON: %v)",
					i, delay, path, len(data), json.Valid(data))
			}
			// Old and new are both valid JSON (checked above), so
			// matching one of them proves the file parses.
			isOld[path] = v == "old"
			seen[filepath.Base(path)+" "+v]++
		}
	}
	t.Logf("outcomes: %v", seen)
	if seen["killed"] < 25 {
		t.Fatalf("only %d launches were killed by SIGKILL, want at least 25 (rounds ran out of time?)", seen["killed"])
	}

	// The next launch, not killed, must leave no temporary file of ours:
	// not in the runtime dir, not in $TMPDIR (renameio puts its temporary
	// file there when $TMPDIR is on the same file system as the target).
	replace(t, state, oldState)
	w.OK(repo, "run", "--account", "x")
	var left []string
	for _, dir := range []string{rt, filepath.Dir(rt), w.Tmp} {
		left = append(left, leftovers(t, dir)...)
	}
	if len(left) > 0 {
		t.Errorf("after %d kills and one clean launch, temporary files remain (the launcher should clean up stale temporary files of its own names):\n  %s",
			seen["killed"], strings.Join(left, "\n  "))
	}
	for _, p := range []string{state, settings} {
		fi, err := os.Stat(p)
		must(t, err)
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %#o after the clean launch, want 0600", p, fi.Mode().Perm())
		}
	}
}
