package doctor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/trust"
)

func loadAccount(t *testing.T, dir string) *account.Account {
	t.Helper()
	if err := account.Init("max", dir); err != nil {
		t.Fatal(err)
	}
	a, err := account.Load("max", dir)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestLoginPerOS is what doctor --json says of the login on each system and
// release, decided on Linux for macOS too: the OS is the Claude binary's
// (claudever.Binary.OS), not this process's.
func TestLoginPerOS(t *testing.T) {
	home := t.TempDir()
	a := loadAccount(t, filepath.Join(home, ".claude-max"))
	runtime := configdir.Layout{ConfigDir: filepath.Join(home, "src", "app", ".git", "claude-runtime", "max"), IsRuntime: true}
	outside := configdir.Layout{ConfigDir: a.Dir}
	bin := func(os, version string) claudever.Binary {
		v, _ := claudever.Parse(version)
		return claudever.Binary{Path: "/bin/claude", Version: v, Known: true, OS: os}
	}
	for _, c := range []struct {
		name      string
		claude    claudever.Binary
		layout    configdir.Layout
		env       env.Env
		via       string
		mechanism string
		path      string
		loggedIn  bool // with no login file anywhere
	}{
		{"darwin 2.1.330 worktree", bin("darwin", "2.1.330"), runtime, nil, "environment", configdir.LoginKeychain, a.Dir, true},
		{"darwin 2.1.144 worktree", bin("darwin", "2.1.144"), runtime, nil, "environment", configdir.LoginKeychain, a.Dir, true},
		{"darwin 2.1.90 worktree", bin("darwin", "2.1.90"), runtime, nil, "none", configdir.LoginKeychainPerDir, runtime.ConfigDir, true},
		{"darwin 2.0.77 outside git", bin("darwin", "2.0.77"), outside, nil, "configDir", configdir.LoginKeychain, a.Dir, true},
		{"darwin 2.1.330 yours", bin("darwin", "2.1.330"), runtime, env.Env{"CLAUDE_SECURESTORAGE_CONFIG_DIR": "/Users/u/login"}, "environment", configdir.LoginKeychainYours, "/Users/u/login", true},
		{"linux 2.1.330 worktree", bin("linux", "2.1.330"), runtime, nil, "environment", configdir.LoginFile, a.Dir, false},
		{"linux 2.1.90 worktree", bin("linux", "2.1.90"), runtime, nil, "link", configdir.LoginLink, filepath.Join(a.Dir, configdir.Credentials), false},
		{"linux 2.1.90 outside git", bin("linux", "2.1.90"), outside, nil, "configDir", configdir.LoginFile, a.Dir, false},
		{"linux 2.1.330 yours", bin("linux", "2.1.330"), runtime, env.Env{"CLAUDE_SECURESTORAGE_CONFIG_DIR": "/home/u/login"}, "environment", configdir.LoginFileYours, "/home/u/login", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var login configdir.Shared
			for _, s := range configdir.SharedState(a, c.layout, c.env, c.claude) {
				if s.Name == "login" {
					login = s
				}
			}
			if login.Via != c.via || login.Mechanism != c.mechanism || login.Path != c.path {
				t.Errorf("login = %+v, want via %s, mechanism %q, path %s", login, c.via, c.mechanism, c.path)
			}
			data, _ := json.Marshal(login)
			if !strings.Contains(string(data), `"mechanism":"`+c.mechanism+`"`) {
				t.Errorf("doctor --json's login row %s does not name the mechanism", data)
			}
			in := Input{Account: a, Layout: c.layout, Claude: c.claude, Env: c.env}
			if got := HasLogin(in); got != c.loggedIn {
				t.Errorf("HasLogin = %v, want %v", got, c.loggedIn)
			}
		})
	}

	// Before 2.1.144 a macOS worktree logs in on its own: the launch says so.
	in := Input{Account: a, Layout: runtime, Claude: bin("darwin", "2.1.90")}
	found := Degraded(in)
	if len(found) != 1 || !strings.Contains(found[0].Message, "login is not shared (Claude keeps the login in a keychain item named by the config dir: log in once in each worktree; needs ≥ 2.1.144)") {
		t.Errorf("Degraded = %+v, want the login row", found)
	}
	in.Claude = bin("linux", "2.1.90")
	for _, f := range Degraded(in) {
		if strings.Contains(f.Message, "login") {
			t.Errorf("on Linux 2.1.90 shares the login (a link), but Degraded says %s", f.Message)
		}
	}
}

// An account dir that is ~/.claude itself: on macOS every launch would
// name it to Claude, selecting another keychain item than plain claude's;
// refused, and doctor says so. On Linux it is the same file either way.
func TestKeychainDefaultDir(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".claude")
	a := loadAccount(t, dir)
	darwin := claudever.Binary{OS: "darwin"}
	err := configdir.KeychainDefaultDir(dir, home, darwin)
	if err == nil || !strings.Contains(err.Error(), "is Claude Code's own default dir: on macOS, naming it to Claude selects another keychain login than plain claude's") {
		t.Errorf("darwin: %v, want the refusal", err)
	}
	if err := configdir.KeychainDefaultDir(dir+"/", home, darwin); err == nil {
		t.Error("darwin: ~/.claude/ passed")
	}
	if err := configdir.KeychainDefaultDir(dir, home, claudever.Binary{OS: "linux"}); err != nil {
		t.Errorf("linux: %v", err)
	}
	if err := configdir.KeychainDefaultDir(filepath.Join(home, ".claude-max"), home, darwin); err != nil {
		t.Errorf("darwin, ~/.claude-max: %v", err)
	}
	ctx, err := gitctx.Detect(home, func(k string) string { return map[string]string{"GIT_CEILING_DIRECTORIES": filepath.Dir(home)}[k] })
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Account: a, Context: ctx, Layout: configdir.Layout{ConfigDir: dir}, LockDir: filepath.Join(home, "locks"),
		Trust: trust.Store{Dir: filepath.Join(home, "trust")}, Now: time.Now(), Env: env.Env{"HOME": home}}
	for _, c := range []struct {
		os   string
		want bool
	}{{"darwin", true}, {"linux", false}} {
		in.Claude = claudever.Binary{Path: "/bin/claude", OS: c.os}
		got := false
		for _, f := range Check(in) {
			got = got || f.ID == "keychain-default-dir" && f.Path == dir
		}
		if got != c.want {
			t.Errorf("%s: keychain-default-dir found %v, want %v", c.os, got, c.want)
		}
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
}
