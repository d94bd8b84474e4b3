// Package worktree manages the linked worktrees parallel agents work in:
// create, list, remove safely, sweep stale ones. Unlike the launch path it
// runs git itself: these are rare, deliberate operations where git's own
// safety (locks, refs, index) matters more than a millisecond.
package worktree

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/claude-account/claude-account/internal/gitcmd"
)

// Git runs git in a directory with a given environment, through gitcmd:
// nothing the repository's configuration names runs.
type Git struct {
	Dir    string
	GitDir string // --git-dir, when not the repository Dir is in
	Env    []string
}

// In returns a Git for another directory.
func (g Git) In(dir string) Git { return Git{Dir: dir, Env: g.Env} }

// Run runs git and returns its stdout without the trailing newline. A failure
// reads as one line: the command and git's last line of stderr.
func (g Git) Run(args ...string) (string, error) {
	out, err := g.run(nil, args...)
	return strings.TrimRight(out, "\n"), err
}

// OK runs git and reports whether it exited 0 (for yes/no questions such as
// merge-base --is-ancestor); other failures are errors.
func (g Git) OK(args ...string) (bool, error) {
	_, err := g.run(nil, args...)
	var ee *exec.ExitError
	if errors.As(errors.Unwrap(err), &ee) && ee.ExitCode() == 1 {
		return false, nil
	}
	return err == nil, err
}

func (g Git) run(extraEnv []string, args ...string) (string, error) {
	return g.runInput(nil, extraEnv, args...)
}

// runInput is run with stdin read from input (nil: none).
func (g Git) runInput(input io.Reader, extraEnv []string, args ...string) (string, error) {
	stdout, stderr, err := gitcmd.Git{Dir: g.Dir, GitDir: g.GitDir, Env: append(append([]string{}, g.Env...), extraEnv...)}.
		Run(context.Background(), input, args...)
	if err != nil {
		msg := gitMessage(string(stderr))
		if msg == "" {
			msg = err.Error()
		}
		return string(stdout), &gitError{args: args, msg: msg, err: err}
	}
	return string(stdout), nil
}

type gitError struct {
	args []string
	msg  string
	err  error
}

func (e *gitError) Error() string {
	return fmt.Sprintf("git %s: %s", strings.Join(e.args, " "), e.msg)
}

func (e *gitError) Unwrap() error { return e.err }

// gitMessage picks the line of git's stderr that says what went wrong: the
// first "fatal:" or "error:" line (later lines are often advice such as
// "remove the file manually to continue"), else the last line.
func gitMessage(stderr string) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "fatal: ") || strings.HasPrefix(l, "error: ") {
			return l
		}
	}
	return lines[len(lines)-1]
}
