package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BuildLauncher builds cmd/claude-account into the test's temp dir, for Go
// tests that run the real binary (go's build cache keeps this cheap).
func BuildLauncher(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "claude-account")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/claude-account/claude-account/cmd/claude-account").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// World is what the Go tests that run the real binary start from: a private
// HOME, XDG dirs, TMPDIR and git identity, the launcher built, and a stub
// claude (the given shell script) first on PATH.
type World struct {
	T    testing.TB
	Root string   // the test's temporary dir, symlinks resolved
	Bin  string   // claude-account
	Tmp  string   // the children's TMPDIR
	Env  []string // the children's environment
}

// NewWorld makes a World; extra entries (NAME=VALUE) are added to its Env.
func NewWorld(t testing.TB, stub string, extra ...string) *World {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &World{T: t, Root: root, Bin: BuildLauncher(t), Tmp: filepath.Join(root, "tmp")}
	stubDir := filepath.Join(root, "stubbin")
	gitconfig := filepath.Join(root, ".gitconfig")
	dirs := []string{
		"HOME=" + filepath.Join(root, "home"),
		"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg", "config"),
		"XDG_DATA_HOME=" + filepath.Join(root, "xdg", "data"),
		"XDG_STATE_HOME=" + filepath.Join(root, "xdg", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(root, "xdg", "cache"),
		"XDG_RUNTIME_DIR=" + filepath.Join(root, "xdg", "run"),
		"TMPDIR=" + w.Tmp,
	}
	for _, kv := range dirs {
		must(t, os.MkdirAll(strings.SplitN(kv, "=", 2)[1], 0o700))
	}
	must(t, os.MkdirAll(stubDir, 0o755))
	// The launcher asks a Claude of unknown origin its release once
	// (claudever): every stub answers as the newest Claude does.
	if first, rest, ok := strings.Cut(stub, "\n"); ok && strings.HasPrefix(first, "#!") {
		stub = first + "\n" + `if [ "$#" = 1 ] && [ "$1" = --version ]; then echo "` + StubVersion + ` (Claude Code)"; exit 0; fi` + "\n" + rest
	}
	must(t, os.WriteFile(filepath.Join(stubDir, "claude"), []byte(stub), 0o755))
	must(t, os.WriteFile(gitconfig, []byte("[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644))
	// Built from nothing but PATH: no inherited CLAUDE_*, ANTHROPIC_*, GIT_*
	// or XDG_* variable reaches the launcher or Claude.
	w.Env = append(append(dirs, "PATH="+stubDir+":"+os.Getenv("PATH"),
		"GIT_CONFIG_GLOBAL="+gitconfig, "GIT_CONFIG_NOSYSTEM=1"), extra...)
	return w
}

// Cmd is the launcher with args, run in dir with the World's environment.
func (w *World) Cmd(dir string, args ...string) *exec.Cmd {
	c := exec.Command(w.Bin, args...)
	c.Dir, c.Env = dir, w.Env
	return c
}

// OK runs the launcher and fails the test unless it exits 0.
func (w *World) OK(dir string, args ...string) string {
	w.T.Helper()
	out, err := w.Cmd(dir, args...).CombinedOutput()
	if err != nil {
		w.T.Fatalf("claude-account %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Git runs git in dir and fails the test unless it exits 0.
func (w *World) Git(dir string, args ...string) string {
	w.T.Helper()
	c := exec.Command("git", append([]string{"-C", dir}, args...)...)
	c.Env = w.Env
	out, err := c.CombinedOutput()
	if err != nil {
		w.T.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Repo makes a repository with one commit at Root/name.
func (w *World) Repo(name string) string {
	w.T.Helper()
	dir := filepath.Join(w.Root, name)
	must(w.T, os.MkdirAll(dir, 0o755))
	w.Git(dir, "init", "-q")
	must(w.T, os.WriteFile(filepath.Join(dir, "README"), []byte("hello\n"), 0o644))
	w.Git(dir, "add", "README")
	w.Git(dir, "commit", "-q", "-m", "init")
	return dir
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
