package clone

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"strings"

	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/gitcmd"
)

// Git runs git non-interactively in a fixed environment, through gitcmd:
// nothing a repository's configuration names runs.
type Git struct {
	Env    []string // NAME=VALUE, from GitEnv
	Dir    string   // where git runs; never inside a repository that matters
	GitDir string   // the repository (--git-dir); "" for none or Dir's
	stdin  io.Reader
}

// at is g on the repository dir.
func (g Git) at(dir string) Git { g.GitDir = dir; return g }

// in is g run in dir, on the repository there.
func (g Git) in(dir string) Git { g.Dir, g.GitDir = dir, ""; return g }

// repoLocal are variables that point git at a repository or its parts. They
// may be set when clone runs from a git hook or alias, and would make every
// command act on that repository instead of ours.
var repoLocal = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_PREFIX", "GIT_IMPLICIT_WORK_TREE",
	"GIT_SHALLOW_FILE", "GIT_GRAFT_FILE", "GIT_REPLACE_REF_BASE", "GIT_NO_REPLACE_OBJECTS",
	"GIT_INTERNAL_SUPER_PREFIX", "GIT_QUARANTINE_PATH",
}

// GitEnv is e for git: GIT_TERMINAL_PROMPT=0 so that a missing credential
// fails instead of waiting for a password nobody types, and without the
// variables that would redirect git to another repository.
func GitEnv(e env.Env) []string {
	c := e.With("GIT_TERMINAL_PROMPT", "0")
	for _, k := range repoLocal {
		delete(c, k)
	}
	return c.List()
}

// GitError is a git command that failed.
type GitError struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *GitError) Error() string { return "git " + strings.Join(e.Args, " ") + ": " + e.Line() }

func (e *GitError) Unwrap() error { return e.Err }

// Line is the one line of git's stderr that says what went wrong: the first
// "fatal:" or "error:" line (later ones are generic advice such as "Please
// make sure you have the correct access rights"), else the last non-empty one.
func (e *GitError) Line() string { return lastLine(e.Stderr, e.Err) }

func lastLine(stderr string, err error) string {
	var last string
	for _, l := range strings.FieldsFunc(stderr, func(r rune) bool { return r == '\n' || r == '\r' }) {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		for _, p := range []string{"fatal: ", "error: "} {
			if rest, ok := strings.CutPrefix(l, p); ok && strings.TrimSpace(rest) != "" {
				return clean(rest)
			}
		}
		last = l
	}
	if last != "" {
		return clean(last)
	}
	if errors.Is(err, exec.ErrNotFound) {
		return "git is not installed (not found on PATH)"
	}
	if err != nil {
		return err.Error()
	}
	return "failed"
}

// clean keeps a message on one line of printable text.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, strings.TrimSuffix(s, "."))
}

// Run runs git with args and returns its stdout without the final newline.
// When ctx ends, git gets SIGTERM (it cleans up after itself on it), then
// SIGKILL a few seconds later.
func (g Git) Run(ctx context.Context, args ...string) (string, error) {
	stdout, stderr, err := gitcmd.Git{Dir: g.Dir, GitDir: g.GitDir, Env: g.Env}.Run(ctx, g.stdin, args...)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", &GitError{Args: args, Stderr: string(stderr), Err: err}
	}
	return strings.TrimSuffix(string(stdout), "\n"), nil
}

// ok runs a query that answers by its exit status (rev-parse --verify,
// merge-base --is-ancestor): false when git says no, an error only when git
// could not run or ctx ended.
func (g Git) ok(ctx context.Context, args ...string) (bool, string, error) {
	out, err := g.Run(ctx, args...)
	var ge *GitError
	var ee *exec.ExitError
	if errors.As(err, &ge) && errors.As(ge.Err, &ee) && ee.ExitCode() == 1 {
		return false, "", nil
	}
	return err == nil, out, err
}

// input runs git with stdin as its input.
func (g Git) input(ctx context.Context, stdin string, args ...string) error {
	g.stdin = strings.NewReader(stdin)
	_, err := g.Run(ctx, args...)
	return err
}
