package launch

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/session"
)

// TestLaunchableKeychainDefaultDir decides, on Linux for macOS too (the OS
// is the Claude binary's), that no launch path starts Claude with an account
// dir that is ~/.claude itself on macOS: Session (run, resume), Command and
// DryRun refuse before they take a lock or touch a config dir; on Linux, and
// for a dir of its own, it is no matter.
func TestLaunchableKeychainDefaultDir(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	home := filepath.Join(dir, "home")
	open := func(acctDir, goos string) *Workspace {
		t.Helper()
		if _, err := os.Stat(acctDir); os.IsNotExist(err) {
			if err := account.Init("max", acctDir); err != nil {
				t.Fatal(err)
			}
		}
		a, err := account.Load("max", acctDir)
		if err != nil {
			t.Fatal(err)
		}
		e := env.Env{"HOME": home, "XDG_RUNTIME_DIR": filepath.Join(dir, "run"), "PATH": os.Getenv("PATH")}
		w, err := Open(a, repo, e, time.Now)
		if err != nil {
			t.Fatal(err)
		}
		w.Claude = claudever.Binary{Path: "/bin/true", Version: claudever.V(2, 1, 330), Known: true, OS: goos}
		return w
	}
	quiet := IO{Stdout: io.Discard, Stderr: io.Discard, Note: func(string) {}}
	const want = "is Claude Code's own default dir: on macOS"

	w := open(filepath.Join(home, ".claude"), "darwin")
	if err := w.Launchable(); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Launchable = %v, want the refusal", err)
	}
	if _, err := w.Session(nil, quiet); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Session = %v, want the refusal", err)
	}
	if _, err := w.Command([]string{"mcp", "list"}, quiet); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Command = %v, want the refusal", err)
	}
	if _, err := w.DryRun(nil, session.Invocation{Session: true}, quiet); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("DryRun = %v, want the refusal", err)
	}
	if _, err := os.Stat(w.Layout.ConfigDir); !os.IsNotExist(err) {
		t.Errorf("the runtime %s was made (%v) for a launch refused", w.Layout.ConfigDir, err)
	}
	if ls, _ := filepath.Glob(filepath.Join(dir, "run", "claude-account", "*.lock")); len(ls) > 0 {
		t.Errorf("a refused launch left locks %q", ls)
	}

	if err := open(filepath.Join(home, ".claude"), "linux").Launchable(); err != nil {
		t.Errorf("Linux: Launchable = %v, want nil: the login is the dir's file either way", err)
	}
	if err := open(filepath.Join(home, ".claude-max"), "darwin").Launchable(); err != nil {
		t.Errorf("a dir of its own on macOS: Launchable = %v, want nil", err)
	}
}
