package cli

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/testenv"
)

// BenchmarkLaunchPlan is everything a launch does before starting Claude,
// in a repository whose runtime is already in sync: resolve the account,
// detect the context, plan (reading every input), and nothing to apply.
func BenchmarkLaunchPlan(b *testing.B) {
	for _, via := range []string{"claudebench", "claude-account"} {
		b.Run(via, func(b *testing.B) {
			d := benchDeps(b, via)
			args := []string{"--dry-run"}
			if via == "claude-account" {
				args = []string{"run", "--account", "bench", "--dry-run"}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if code := run(d, args); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}

func benchDeps(b *testing.B, prog string) *Deps {
	dir := b.TempDir()
	home := filepath.Join(dir, "home")
	repo := filepath.Join(dir, "repo")
	for _, c := range [][]string{{"init", "-q", repo}} {
		if out, err := exec.Command("git", c...).CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", c, err, out)
		}
	}
	e := env.Env{"HOME": home, "PATH": os.Getenv("PATH"), "XDG_RUNTIME_DIR": filepath.Join(dir, "run"),
		"CLAUDE_ACCOUNT_CLAUDE": "/bin/true"}
	d := &Deps{Env: e, Dir: repo, Prog: prog, Stdin: os.Stdin, Stdout: io.Discard, Stderr: io.Discard, Now: time.Now}
	if code := run(&Deps{Env: e, Dir: repo, Prog: "claude-account", Stdout: io.Discard, Stderr: io.Discard, Now: time.Now},
		[]string{"init", "bench"}); code != 0 {
		b.Fatal("init failed")
	}
	acct := filepath.Join(home, ".claude-bench")
	os.WriteFile(filepath.Join(acct, ".mcp.json"), []byte(`{"mcpServers":{"a":{"command":"/bin/true","args":["x"]},"b":{"command":"/bin/true"}}}`), 0o600)
	os.WriteFile(filepath.Join(acct, "settings.json"), []byte(`{"model":"opus","permissions":{"allow":["Edit"]}}`), 0o600)
	if code := run(&Deps{Env: e, Dir: repo, Prog: "claude-account", Stdin: os.Stdin, Stdout: io.Discard, Stderr: io.Discard, Now: time.Now},
		[]string{"run", "--account", "bench"}); code != 0 {
		b.Fatal("first launch failed")
	}
	return d
}

// BenchmarkHookState is what one hook event of a session costs Claude: the
// launcher started as Claude starts it (a new process, the hook's JSON on
// stdin), for a prompt, a tool that ran and a stop in turn, with and without
// --notify (account.toml notify = true: the same events, which notify at most
// once in 10 s). notify-stop is the dearest event of all: a stop that
// notifies (a fresh session each time, in a git repository, notify-send on
// PATH; the notifier is started, not waited for). /bin/true started the same
// way is the floor no hook goes below.
func BenchmarkHookState(b *testing.B) {
	bin := testenv.BuildLauncher(b)
	tmp := b.TempDir()
	run := filepath.Join(tmp, "run")
	events := []string{
		`{"session_id":"3d5eba2f","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":"hi"}`,
		`{"session_id":"3d5eba2f","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"true"},"tool_response":{"stdout":""}}`,
		`{"session_id":"3d5eba2f","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"Stop","stop_hook_active":false}`,
	}
	// notify-send that does nothing, and a session in a repository.
	binDir, repo := filepath.Join(tmp, "bin"), filepath.Join(tmp, "repo")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.Symlink("/bin/true", filepath.Join(binDir, "notify-send")); err != nil {
		b.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	if err := os.MkdirAll(filepath.Join(run, "claude-account"), 0o700); err != nil {
		b.Fatal(err)
	}
	body := `{"pid":1,"account":"max","workspace":"` + repo + `","started":"2026-11-23T12:00:00Z"}` + "\n"
	if err := os.WriteFile(filepath.Join(run, "claude-account", "max-0123456789abcdef.lock"), []byte(body), 0o600); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		notify     bool
		stops      bool
	}{{"hook", bin, false, false}, {"notify", bin, true, false}, {"notify-stop", bin, true, true}, {"true", "/bin/true", false, false}} {
		b.Run(tc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				args := []string{"hook", "state", "--id", "max-0123456789abcdef", "--token", "1-1"}
				in := events[i%len(events)]
				if tc.stops {
					args[5], in = "s-"+strconv.Itoa(i), events[2]
				}
				if tc.notify {
					args = append(args, "--notify")
				}
				c := exec.Command(tc.path, args...)
				c.Env = []string{"XDG_RUNTIME_DIR=" + run, "PATH=" + binDir + ":/usr/bin:/bin"}
				c.Stdin = strings.NewReader(in)
				if out, err := c.CombinedOutput(); err != nil {
					b.Fatalf("%v\n%s", err, out)
				}
			}
		})
	}
}
