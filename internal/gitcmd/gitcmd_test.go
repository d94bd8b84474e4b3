package gitcmd

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/env"
)

// fixture is a scratch HOME with its own global git config, and a
// repository in it.
type fixture struct {
	t      *testing.T
	dir    string
	env    []string
	repo   string
	marker string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{t: t, dir: dir, repo: filepath.Join(dir, "repo"), marker: filepath.Join(dir, "ran")}
	global := filepath.Join(dir, "gitconfig")
	if err := os.WriteFile(global, []byte("[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.env = []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_GLOBAL=" + global, "GIT_CONFIG_NOSYSTEM=1"}
	f.git("", "init", "-q", f.repo)
	f.write("repo/README", "hello\n")
	f.git(f.repo, "add", "README")
	f.git(f.repo, "commit", "-qm", "init")
	return f
}

// git runs the test's own git (not through gitcmd) and returns its stdout.
func (f *fixture) git(dir string, args ...string) string {
	f.t.Helper()
	out, err := f.rawGit(dir, f.env, "", args...)
	if err != nil {
		f.t.Fatalf("git %v: %v", args, err)
	}
	return out
}

func (f *fixture) rawGit(dir string, environ []string, stdin string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, environ, strings.NewReader(stdin)
	out, err := cmd.Output()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		err = errors.New(err.Error() + ": " + string(ee.Stderr))
	}
	return string(out), err
}

func (f *fixture) write(rel, body string) string {
	f.t.Helper()
	p := filepath.Join(f.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// script is an executable that touches the marker, then runs rest.
func (f *fixture) script(name, rest string) string {
	return f.write(name, "#!/bin/sh\ntouch '"+f.marker+"'\n"+rest+"\n")
}

func (f *fixture) ran() bool {
	_, err := os.Stat(f.marker)
	return err == nil
}

// plannedEnv is the environment gitcmd gives a command in dir.
func (f *fixture) plannedEnv(dir string) []string {
	f.t.Helper()
	g := Git{Dir: dir, Env: f.env}
	p, stderr, err := g.plan(context.Background())
	if err != nil {
		f.t.Fatalf("plan: %v %s", err, stderr)
	}
	return withConfig(f.env, p.Settings, append([]string{"GIT_TERMINAL_PROMPT=0"}, p.Env...))
}

// credentialFill asks git for a password for https://example.com, as a
// fetch would.
func (f *fixture) credentialFill(environ []string) (string, error) {
	return f.rawGit(f.repo, environ, "protocol=https\nhost=example.com\n\n", "credential", "fill")
}

func TestCredentialHelpersOfTheRepositoryNeverRun(t *testing.T) {
	f := newFixture(t)
	evil := f.script("evil-helper", "echo username=evil; echo password=evil")
	mine := f.write("my-helper", "#!/bin/sh\necho username=me\necho password=mine\n")
	f.git(f.repo, "config", "credential.helper", evil)
	f.git(f.repo, "config", "credential.https://example.com.helper", evil)

	// The vector is real: plain git runs the repository's helper.
	if _, err := f.credentialFill(append(f.env, "GIT_TERMINAL_PROMPT=0")); err != nil || !f.ran() {
		t.Fatalf("plain git did not run the repository's helper (err %v): the test shows nothing", err)
	}
	os.Remove(f.marker)
	f.git("", "config", "--global", "credential.helper", mine)
	listCache.Clear() // the user's configuration changed within this process

	out, err := f.credentialFill(f.plannedEnv(f.repo))
	if err != nil {
		t.Fatal(err)
	}
	if f.ran() {
		t.Error("the repository's credential helper ran")
	}
	if !strings.Contains(out, "password=mine") {
		t.Errorf("the user's own helper did not answer: %q", out)
	}
}

func TestAskPassOfTheRepositoryNeverRuns(t *testing.T) {
	f := newFixture(t)
	f.git(f.repo, "config", "core.askPass", f.script("evil-askpass", "echo evil"))
	if _, err := f.credentialFill(append(f.env, "GIT_TERMINAL_PROMPT=0")); err != nil || !f.ran() {
		t.Fatalf("plain git did not run the repository's askpass (err %v): the test shows nothing", err)
	}
	os.Remove(f.marker)
	if _, err := f.credentialFill(f.plannedEnv(f.repo)); err == nil {
		t.Error("credential fill answered without any askpass or helper")
	}
	if f.ran() {
		t.Error("the repository's core.askPass ran")
	}
	// The user's own askpass keeps working.
	f.git("", "config", "--global", "core.askPass", f.write("my-askpass", "#!/bin/sh\necho mine\n"))
	listCache.Clear() // the user's configuration changed within this process
	out, err := f.credentialFill(f.plannedEnv(f.repo))
	if err != nil || !strings.Contains(out, "password=mine") || f.ran() {
		t.Errorf("with the user's askpass: %q, %v, repository's ran: %v", out, err, f.ran())
	}
}

func TestGitProxyOfTheRepositoryNeverRuns(t *testing.T) {
	f := newFixture(t)
	f.git(f.repo, "config", "core.gitProxy", f.script("evil-proxy", "exit 1"))
	f.git(f.repo, "remote", "add", "o", "git://example.invalid/x")
	if _, err := f.rawGit(f.repo, f.env, "", "fetch", "-q", "o"); err == nil || !f.ran() {
		t.Fatalf("plain git did not run the repository's proxy (err %v): the test shows nothing", err)
	}
	os.Remove(f.marker)
	_, _, err := Git{Dir: f.repo, Env: append(f.env, "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=http.lowSpeedTime", "GIT_CONFIG_VALUE_0=1")}.
		Run(context.Background(), nil, "fetch", "-q", "o")
	if err == nil {
		t.Error("fetch from example.invalid worked")
	}
	if f.ran() {
		t.Error("the repository's core.gitProxy ran")
	}
}

func TestExtTransportTheRepositoryAllowsNeverRuns(t *testing.T) {
	for _, c := range []struct {
		name   string
		config [][2]string
	}{
		{"url", [][2]string{{"protocol.ext.allow", "always"}, {"remote.o.url", "ext::sh -c touch% MARKER"}}},
		{"protocol.allow", [][2]string{{"protocol.allow", "always"}, {"remote.o.url", "ext::sh -c touch% MARKER"}}},
		{"vcs", [][2]string{{"protocol.allow", "always"}, {"remote.o.vcs", "ext"}, {"remote.o.url", "sh -c touch% MARKER"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			for _, kv := range c.config {
				f.git(f.repo, "config", kv[0], strings.ReplaceAll(kv[1], "MARKER", f.marker))
			}
			f.rawGit(f.repo, f.env, "", "fetch", "-q", "o")
			if !f.ran() {
				t.Fatal("plain git did not run the ext command: the test shows nothing")
			}
			os.Remove(f.marker)
			_, stderr, err := Git{Dir: f.repo, Env: f.env}.Run(context.Background(), nil, "fetch", "-q", "o")
			if err == nil || !strings.Contains(string(stderr), "not allowed") {
				t.Errorf("fetch: %v, %s", err, stderr)
			}
			if f.ran() {
				t.Error("the ext command ran")
			}
		})
	}
}

func TestAlternateRefsCommandOfTheRepositoryNeverRuns(t *testing.T) {
	f := newFixture(t)
	other := filepath.Join(f.dir, "other")
	f.git("", "clone", "-q", "--bare", f.repo, other)
	target := filepath.Join(f.dir, "target")
	f.git("", "init", "-q", "--bare", target)
	f.write("target/objects/info/alternates", filepath.Join(other, "objects")+"\n")
	f.git(target, "config", "core.alternateRefsCommand", f.script("evil-alt", "true"))
	if _, err := f.rawGit(target, f.env, "", "fetch", "-q", f.repo, "main"); err != nil || !f.ran() {
		t.Fatalf("plain git did not run the alternate refs command (err %v): the test shows nothing", err)
	}
	os.Remove(f.marker)
	if _, stderr, err := (Git{Dir: target, Env: f.env}).Run(context.Background(), nil, "fetch", "-q", f.repo, "main"); err != nil {
		t.Fatalf("fetch: %v %s", err, stderr)
	}
	if f.ran() {
		t.Error("the repository's core.alternateRefsCommand ran")
	}
}

func TestUsersOwnFilterKeepsWorking(t *testing.T) {
	f := newFixture(t)
	f.write("repo/.gitattributes", "*.txt filter=lfs\n")
	f.write("repo/a.txt", "a\n")
	f.git(f.repo, "add", ".")
	f.git(f.repo, "commit", "-qm", "a")
	// The user's own smudge filter (as git lfs install writes globally)
	// turns a into b; the repository names another one.
	f.git("", "config", "--global", "filter.lfs.smudge", "sed s/a/b/")
	f.git("", "config", "--global", "filter.lfs.clean", "sed s/b/a/")
	f.git("", "config", "--global", "filter.lfs.required", "true")
	f.git(f.repo, "config", "filter.lfs.smudge", "touch '"+f.marker+"'; cat")
	os.Remove(filepath.Join(f.repo, "a.txt"))
	if _, stderr, err := (Git{Dir: f.repo, Env: f.env}).Run(context.Background(), nil, "checkout", "--", "a.txt"); err != nil {
		t.Fatalf("checkout: %v %s", err, stderr)
	}
	if f.ran() {
		t.Error("the repository's smudge filter ran")
	}
	if data, _ := os.ReadFile(filepath.Join(f.repo, "a.txt")); string(data) != "b\n" {
		t.Errorf("a.txt = %q, want the user's filter's b", data)
	}
}

func TestSubmoduleUploadPackRefusesSubmoduleCommands(t *testing.T) {
	f := newFixture(t)
	mod := filepath.Join(f.repo, ".git", "modules", "lib")
	f.git("", "init", "-q", "--bare", mod)
	f.git(mod, "config", "remote.origin.uploadpack", "touch '"+f.marker+"'; git-upload-pack")
	g := Git{Dir: f.repo, Env: f.env}
	_, _, err := g.Run(context.Background(), nil, "submodule", "update", "--init")
	if err == nil || !strings.Contains(err.Error(), "remote.origin.uploadpack") {
		t.Errorf("submodule update: %v, want a refusal naming the key", err)
	}
	if _, stderr, err := g.Run(context.Background(), nil, "status", "--porcelain"); err != nil {
		t.Errorf("status refused too: %v %s", err, stderr)
	}
}

func TestRunRefusesCommandsNotChecked(t *testing.T) {
	f := newFixture(t)
	// diff only with --no-ext-diff and --no-textconv, before any "--".
	for _, args := range [][]string{{"diff"}, {"diff", "--no-ext-diff"}, {"diff", "--no-textconv", "--", "--no-ext-diff"}, {"log", "-p"}, {"--git-dir=x", "status"}, {"-c", "a.b=c", "status"}, {}} {
		if _, _, err := (Git{Dir: f.repo, Env: f.env}).Run(context.Background(), nil, args...); err == nil {
			t.Errorf("git %q ran", args)
		}
	}
	if _, _, err := (Git{Dir: f.repo, Env: f.env}).Run(context.Background(), nil, "diff", "--no-ext-diff", "--no-textconv", "--stat"); err != nil {
		t.Errorf("git diff --no-ext-diff --no-textconv: %v", err)
	}
}

// TestStatusKeepsOutOfSubmodules: git status must not start a git in a
// submodule, whose configuration plan may not have read, and no caller can
// let it.
func TestStatusKeepsOutOfSubmodules(t *testing.T) {
	f := newFixture(t)
	g := Git{Dir: f.repo, Env: f.env}
	for _, opt := range []string{"--ignore-submodules=none", "--ignore-submodules"} {
		if _, _, err := g.Run(context.Background(), nil, "status", "--porcelain", opt); err == nil {
			t.Errorf("git status %s ran", opt)
		}
	}
	if _, _, err := g.Run(context.Background(), nil, "status", "--porcelain"); err != nil {
		t.Fatal(err)
	}
}

func TestWithConfigAppendsToTheUsers(t *testing.T) {
	got := withConfig([]string{"A=1", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=x.y", "GIT_CONFIG_VALUE_0=z", "GIT_TERMINAL_PROMPT=1"},
		[]Setting{{"filter.a=b.clean", ""}}, []string{"GIT_TERMINAL_PROMPT=0"})
	want := []string{"A=1", "GIT_CONFIG_KEY_0=x.y", "GIT_CONFIG_VALUE_0=z", "GIT_CONFIG_KEY_1=filter.a=b.clean", "GIT_CONFIG_VALUE_1=", "GIT_CONFIG_COUNT=2", "GIT_TERMINAL_PROMPT=0"}
	if !slices.Equal(got, want) {
		t.Errorf("withConfig = %q\nwant %q", got, want)
	}
}

func TestNeutralise(t *testing.T) {
	local := func(k, v string) Entry { return Entry{Scope: "local", Key: k, Value: v, HasValue: true} }
	global := func(k, v string) Entry { return Entry{Scope: "global", Key: k, Value: v, HasValue: true} }
	for _, c := range []struct {
		name     string
		main     []Entry
		environ  env.Env
		want     []Setting
		wantEnv  []string
		wantPack []string
	}{
		{"nothing of the repository's", []Entry{global("filter.lfs.clean", "git-lfs clean"), local("core.bare", "false")}, nil, nil, nil, nil},
		{"filter: the user's values back, else none", []Entry{global("filter.lfs.process", "git-lfs filter-process"), global("filter.lfs.required", "true"), local("filter.lfs.process", "evil")}, nil,
			[]Setting{{"filter.lfs.clean", ""}, {"filter.lfs.smudge", ""}, {"filter.lfs.required", "true"}, {"filter.lfs.process", "git-lfs filter-process"}}, nil, nil},
		{"filter: no process unless the repository sets one", []Entry{global("filter.x.smudge", "mine"), local("filter.x.clean", "evil")}, nil,
			[]Setting{{"filter.x.clean", ""}, {"filter.x.smudge", "mine"}, {"filter.x.required", "false"}}, nil, nil},
		{"filter with = in its name", []Entry{local("filter.a=b.process", "evil")}, nil,
			[]Setting{{"filter.a=b.clean", ""}, {"filter.a=b.smudge", ""}, {"filter.a=b.required", "false"}, {"filter.a=b.process", ""}}, nil, nil},
		{"drivers", []Entry{local("merge.x.driver", "evil"), local("diff.x.textconv", "evil"), local("diff.external", "evil"), local("merge.x.name", "n")}, nil,
			[]Setting{{"merge.x.driver", ""}, {"diff.x.textconv", ""}, {"diff.external", ""}}, nil, nil},
		{"credential helpers: emptied, then the user's", []Entry{global("credential.helper", "store"), global("credential.https://a.b.helper", "x"), local("credential.https://a.b.helper", "evil")}, nil,
			[]Setting{{"credential.helper", ""}, {"credential.helper", "store"}, {"credential.https://a.b.helper", "x"}}, nil, nil},
		{"ssh command: ssh", []Entry{local("core.sshcommand", "evil")}, nil, []Setting{{"core.sshcommand", "ssh"}}, nil, nil},
		{"ssh command: GIT_SSH", []Entry{local("core.sshcommand", "evil")}, env.Env{"GIT_SSH": "/my ssh"}, []Setting{{"core.sshcommand", "'/my ssh'"}}, nil, nil},
		{"ssh command: GIT_SSH_COMMAND wins already", []Entry{local("core.sshcommand", "evil")}, env.Env{"GIT_SSH_COMMAND": "ssh -v"}, nil, nil, nil},
		{"ssh command: the user's", []Entry{global("core.sshcommand", "ssh -i k"), local("core.sshcommand", "evil")}, nil, []Setting{{"core.sshcommand", "ssh -i k"}}, nil, nil},
		{"askpass", []Entry{local("core.askpass", "evil")}, env.Env{"SSH_ASKPASS": "/a"}, []Setting{{"core.askpass", "/a"}}, nil, nil},
		{"proxy", []Entry{local("core.gitproxy", "evil")}, nil, nil, []string{"GIT_PROXY_COMMAND="}, nil},
		{"upload-pack", []Entry{local("remote.origin.uploadpack", "evil")}, nil, nil, nil, []string{"remote.origin.uploadpack"}},
		{"upload-pack: the user's comes first", []Entry{global("remote.origin.uploadpack", "/opt/git-upload-pack"), local("remote.origin.uploadpack", "evil")}, nil, nil, nil, nil},
		{"vcs", []Entry{local("remote.o.vcs", "ext")}, nil, []Setting{{"protocol.ext.allow", "never"}}, nil, nil},
		{"protocol", []Entry{local("protocol.ext.allow", "always"), local("protocol.file.allow", "always")}, nil,
			[]Setting{{"protocol.ext.allow", "never"}, {"protocol.file.allow", "user"}}, nil, nil},
		{"protocol.allow", []Entry{global("protocol.https.allow", "never"), local("protocol.allow", "always")}, nil,
			[]Setting{{"protocol.http.allow", "always"}, {"protocol.git.allow", "always"}, {"protocol.ssh.allow", "always"}, {"protocol.ext.allow", "never"}, {"protocol.allow", "user"}}, nil, nil},
		{"submodule update command", []Entry{local("submodule.lib.update", "!evil"), local("submodule.doc.update", "rebase")}, nil,
			[]Setting{{"submodule.lib.update", "checkout"}}, nil, nil},
		{"configured hooks", []Entry{local("hook.lint.command", "evil"), local("hook.lint.event", "post-checkout")}, nil,
			[]Setting{{"hook.lint.enabled", "false"}}, nil, nil},
		{"worktree scope", []Entry{{Scope: "worktree", Key: "diff.external", Value: "evil"}}, nil, []Setting{{"diff.external", ""}}, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := Neutralise(c.main, nil, c.environ)
			if !slices.Equal(p.Settings, c.want) || !slices.Equal(p.Env, c.wantEnv) || !slices.Equal(p.UploadPack, c.wantPack) {
				t.Errorf("Neutralise = %+v\nwant settings %v, env %v, upload-pack %v", p, c.want, c.wantEnv, c.wantPack)
			}
		})
	}
	// A submodule's entries count as the repository's; its upload-pack is
	// reported apart (only a command that enters submodules needs it).
	p := Neutralise(nil, [][]Entry{{local("filter.y.clean", "evil"), local("remote.origin.uploadpack", "evil")}}, nil)
	if len(p.Settings) != 3 || len(p.UploadPack) != 0 || !slices.Equal(p.SubmoduleUploadPack, []string{"remote.origin.uploadpack"}) {
		t.Errorf("Neutralise of a submodule = %+v", p)
	}
}

func TestParseList(t *testing.T) {
	out := "system\x00credential.helper\nstore\x00local\x00filter.x.clean\ntouch m\x00local\x00filter.y.smudge\x00" +
		"command\x00credential.https://a.b.helper\n\x00local\x00core.x\nline one\nline two\x00"
	got, err := ParseList([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{"system", "credential.helper", "store", true},
		{"local", "filter.x.clean", "touch m", true},
		{"local", "filter.y.smudge", "", false},
		{"command", "credential.https://a.b.helper", "", true},
		{"local", "core.x", "line one\nline two", true},
	}
	if !slices.Equal(got, want) {
		t.Errorf("ParseList = %+v\nwant %+v", got, want)
	}
	for _, bad := range []string{"local\x00", "local\x00core.x\nv", "remote\x00core.x\x00", "local\x00Core.x\x00", "local\x00core\x00", "local\x00core.\x00", "local\x00.x\x00", "local\x00a.b.1x\x00"} {
		if _, err := ParseList([]byte(bad)); err == nil {
			t.Errorf("ParseList(%q) took it", bad)
		}
	}
}

// TestListingOfRealGit checks ParseList and the scopes against what git
// prints, includes and worktree config included.
func TestListingOfRealGit(t *testing.T) {
	f := newFixture(t)
	inc := f.write("included", "[filter \"Inc\"]\n\tclean = evil\n")
	f.git(f.repo, "config", "include.path", inc)
	f.git(f.repo, "config", "extensions.worktreeConfig", "true")
	f.git(f.repo, "config", "--worktree", "merge.w.driver", "evil")
	f.git(f.repo, "config", "filter.x.smudge", "a\nb")
	f.git("", "config", "--global", "filter.x.smudge", "mine")
	p, _, err := (Git{Dir: f.repo, Env: f.env}).plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Setting{{"filter.Inc.clean", ""}, {"merge.w.driver", ""}, {"filter.x.smudge", "mine"}, {"core.fsmonitor", ""}} {
		if !slices.Contains(p.Settings, s) {
			t.Errorf("plan lacks %v: %+v", s, p.Settings)
		}
	}
}

func TestPlanAsksGitOnlyWhenAFileNamesASetting(t *testing.T) {
	f := newFixture(t)
	loc, known := locate(Git{Dir: filepath.Join(f.repo), Env: f.env})
	if !known || loc.needsList() {
		t.Errorf("a fresh repository needs a listing: %+v", loc)
	}
	f.git(f.repo, "submodule", "status") // reads nothing, writes nothing
	lib := filepath.Join(f.repo, ".git", "modules", "a", "b")
	f.git("", "init", "-q", "--bare", lib)
	f.git(lib, "config", "diff.x.textconv", "evil")
	loc, known = locate(Git{Dir: filepath.Join(f.repo), Env: f.env})
	if !known || !loc.needsList() || len(loc.modules) != 1 || loc.modules[0].gitDir != lib {
		t.Errorf("a submodule git dir naming a textconv: %+v", loc)
	}
}
