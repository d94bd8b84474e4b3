// Package gitcmd is the one place the launcher starts git. Every git it
// runs — for the status line, the worktree commands, Claude's worktree
// hooks and clone — goes through Git.Run, which makes sure that nothing a
// repository's configuration names runs as a command. A repository's
// .git/config, .git/hooks and .gitattributes arrive with it (a copied
// checkout, an archive, a nested repository inside a worktree), so they are
// not the user's to run; the user's own configuration (system, global, -c)
// keeps working.
//
// Turned off for every call, whatever the configuration says:
//
//   - core.fsmonitor= (empty, which every git reads as off): no fsmonitor
//     hook command and no fsmonitor daemon (git status would run the command
//     at every status line).
//   - core.hooksPath=/dev/null: no hook runs (post-checkout on worktree add,
//     reference-transaction on every ref update, post-index-change, …),
//     neither the repository's .git/hooks nor a core.hooksPath it names. Git
//     2.54 added hooks configured as hook.<name>.command; those the
//     repository's configuration names get hook.<name>.enabled=false.
//   - no pager: git's output is never a terminal here, so core.pager and
//     pager.<cmd> never start; GIT_TERMINAL_PROMPT=0, so git never waits for
//     a password nobody types.
//
// Neutralised where the repository's configuration (local or worktree
// scope, includes followed) sets them, by setting the value the user's own
// configuration gives, else a value that runs nothing:
//
//   - filter.<x>.clean, .smudge: "" (git then runs no filter), .process:
//     "" where the repository sets one (any value of it makes git ignore
//     clean and smudge), and filter.<x>.required=false, so an empty filter
//     is no error;
//   - merge.<x>.driver, diff.<x>.textconv, diff.<x>.command, diff.external:
//     "" (git runs nothing; a merge with such a driver then fails, which
//     callers read as "not merged");
//   - credential.helper and credential.<url>.helper: the list is emptied and
//     the user's own helpers are given again, in their order;
//   - core.sshCommand: the user's, else $GIT_SSH, else ssh ($GIT_SSH_COMMAND
//     already wins over any configuration);
//   - core.askPass: the user's, else $SSH_ASKPASS, else none;
//   - core.gitProxy: GIT_PROXY_COMMAND="" (no proxy) unless the user set it;
//   - core.alternateRefsCommand: "" (no alternate refs are read);
//   - remote.<r>.uploadpack: git takes the first value it reads, so no
//     setting replaces the repository's; fetch is given
//     --upload-pack=git-upload-pack instead, and a submodule command is
//     refused when a submodule's configuration sets one (a fetch inside the
//     submodule would run it). remote.<r>.receivepack is for push, which
//     the launcher never runs;
//   - remote.<r>.vcs=<v>: protocol.<v>.allow=never, so git refuses it;
//   - protocol.allow, protocol.<p>.allow: the user's, else git's built-in
//     policy (ext never, which the ext:: transport would run);
//   - submodule.<x>.update=!command: checkout.
//
// The same holds for the repositories git itself enters: the configuration
// of every submodule git dir (<gitdir>/modules/…) is read too, and the
// settings travel to git's children in the environment. git status, which
// would enter every submodule checked out wherever its git dir is, is kept
// out of them (see noSubmoduleStatus).
//
// Not reached by any command allowed here, so not overridden: core.editor
// and sequence.editor (nothing edits), gpg.program (commit-tree is given
// --no-gpg-sign), aliases (git never lets an alias replace a built-in
// command, and Run allows only built-in commands, see allowed),
// uploadpack.packObjectsHook (git reads it only from the user's own
// configuration).
//
// Reading the configuration runs nothing. It costs no process in a
// repository whose configuration files name none of the settings above (a
// scan for their names, see needsList); otherwise one `git config --list
// --show-scope` per repository.
//
// Needs git 2.31 (GIT_CONFIG_COUNT); the callers' --end-of-options needs
// 2.24, and 2.30 for rev-parse.
//
// What git's porcelain commands print is read here too, once for every
// caller (porcelain.go): ParseWorktrees and ParseStatus.
package gitcmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Git runs git in Dir, on the repository GitDir when set (--git-dir),
// with the environment Env (NAME=VALUE).
type Git struct {
	Dir    string
	GitDir string
	Env    []string
}

// allowed are the git commands the launcher runs, each checked for what it
// may start (see the package comment): a new one is added here only after
// the same check. diff runs only with --no-ext-diff and --no-textconv
// (Run refuses it otherwise), so no textconv or external diff runs; merge,
// whose merge.verifySignatures would run gpg.program, is not among them.
var allowed = map[string]bool{
	"add": true, "branch": true, "checkout": true, "clone": true, "commit-tree": true,
	"config": true, "diff": true, "fetch": true, "for-each-ref": true, "hash-object": true,
	"ls-files": true, "merge-base": true, "merge-tree": true, "read-tree": true, "restore": true,
	"rev-list": true, "rev-parse": true, "sparse-checkout": true, "status": true,
	"submodule": true, "symbolic-ref": true, "update-ref": true, "worktree": true,
	"write-tree": true,
}

// Run runs git with args (the command first: global options are Git's
// fields) and stdin (nil: none), and returns what it wrote. err is an
// *exec.ExitError when git failed, ctx.Err() when ctx ended (git gets
// SIGTERM, then SIGKILL 5 s later), or another error when git could not
// start or the repository's configuration could not be read (then stderr
// is git's).
func (g Git) Run(ctx context.Context, stdin io.Reader, args ...string) (stdout, stderr []byte, err error) {
	if len(args) == 0 || !allowed[args[0]] {
		return nil, nil, fmt.Errorf("gitcmd: git %s is not a command the launcher runs", strings.Join(args, " "))
	}
	if args[0] == "diff" && !(hasArg(args, "--no-ext-diff") && hasArg(args, "--no-textconv")) {
		return nil, nil, fmt.Errorf("gitcmd: git %s runs without --no-ext-diff and --no-textconv", strings.Join(args, " "))
	}
	if ctx == nil {
		ctx = context.Background()
	}
	p, stderr, err := g.plan(ctx)
	if err != nil {
		return nil, stderr, err
	}
	switch {
	case args[0] == "fetch" && len(p.UploadPack) > 0:
		// The command line wins over the remote's first value.
		args = append([]string{"fetch", "--upload-pack=git-upload-pack"}, args[1:]...)
	case args[0] == "status":
		// git status starts `git status` in each submodule, whose own
		// configuration plan cannot read (see noSubmoduleStatus).
		for _, a := range args[1:] {
			if strings.HasPrefix(a, "--ignore-submodules") {
				return nil, nil, fmt.Errorf("gitcmd: git status %s: the submodules' status is gitcmd's to decide", a)
			}
		}
		args = append([]string{"status", noSubmoduleStatus}, args[1:]...)
	case args[0] == "submodule" && len(p.SubmoduleUploadPack) > 0:
		// A fetch inside a submodule takes no option from here.
		k := p.SubmoduleUploadPack[0]
		return nil, nil, fmt.Errorf("a submodule's git config sets %s, a command git would run to fetch; remove it there ('git config --unset %s') and run this again", k, k)
	}
	env := withConfig(g.Env, p.Settings, append([]string{"GIT_TERMINAL_PROMPT=0"}, p.Env...))
	return run(ctx, g.Dir, env, stdin, g.argv(args))
}

// noSubmoduleStatus keeps git status out of submodules. Without it git
// starts `git status` in each submodule checked out (every gitlink in the
// index whose directory holds a .git), and that git reads the submodule's
// own configuration, which may name a filter. Only a submodule git dir
// under <gitdir>/modules is found without reading the index (see locate);
// one inside the submodule's work tree (git submodule add of an existing
// repository, an archive) or wherever its .git file points is not, so its
// filter.<x>.clean could not be neutralised by name. With "dirty", git
// compares only the submodule's HEAD with the gitlink, reading its refs and
// starting nothing: a submodule on another commit still shows, one with
// uncommitted changes does not. The callers that must know a submodule's
// changes ask it themselves (worktree rm's checkNested), in a git of its
// own whose configuration plan reads. A command-line option wins over
// diff.ignoreSubmodules and .gitmodules' submodule.<name>.ignore.
const noSubmoduleStatus = "--ignore-submodules=dirty"

func (g Git) argv(args []string) []string {
	if g.GitDir == "" {
		return args
	}
	return append([]string{"--git-dir=" + g.GitDir}, args...)
}

// run starts git itself: the only exec of git in the launcher.
func run(ctx context.Context, dir string, env []string, stdin io.Reader, args []string) ([]byte, []byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--no-pager"}, args...)...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, stdin
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return stdout.Bytes(), stderr.Bytes(), err
}

// withConfig appends set to the GIT_CONFIG_COUNT entries of env and sets
// the variables of extra (NAME=VALUE), each replacing any of the same name.
func withConfig(env []string, set []Setting, extra []string) []string {
	n := 0
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GIT_CONFIG_COUNT="); ok {
			fmt.Sscan(v, &n)
		}
	}
	out := make([]string, 0, len(env)+2*len(set)+len(extra)+1)
	drop := map[string]bool{"GIT_CONFIG_COUNT": true}
	for _, kv := range extra {
		name, _, _ := strings.Cut(kv, "=")
		drop[name] = true
	}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !drop[name] {
			out = append(out, kv)
		}
	}
	for i, s := range set {
		out = append(out, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", n+i, s.Key), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", n+i, s.Value))
	}
	out = append(out, fmt.Sprintf("GIT_CONFIG_COUNT=%d", n+len(set)))
	return append(out, extra...)
}

// Getenv looks a variable up in an environment list (the last one wins, as
// in exec).
func Getenv(env []string, name string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// hasArg reports whether args holds arg before any "--".
func hasArg(args []string, arg string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == arg {
			return true
		}
	}
	return false
}
