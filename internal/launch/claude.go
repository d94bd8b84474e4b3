package launch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/env"
)

// Candidate is one place the Claude binary may come from, in order of precedence.
type Candidate struct {
	Source string // e.g. "claude in ~/.claude-max/account.toml"
	Name   string // a path, or a name looked up on PATH; "" when unset
}

// FindClaude resolves the first candidate that is set. A set one that does not
// work is an error, not a reason to fall back: a user who pinned a binary must
// not silently get another one. PATH is the environment's, not the process's.
func FindClaude(cands []Candidate, e env.Env) (string, error) {
	var tried []string
	for _, c := range cands {
		if c.Name == "" {
			tried = append(tried, c.Source+" is unset")
			continue
		}
		p, err := lookPath(c.Name, e.Get("PATH"))
		if err == nil {
			return p, nil
		}
		switch {
		case strings.Contains(c.Name, "/"):
			tried = append(tried[:0], fmt.Sprintf("%s = %s %v", c.Source, c.Name, err))
		case errors.Is(err, exec.ErrDot):
			tried = append(tried, fmt.Sprintf("%s %v", c.Name, err))
		default:
			tried = append(tried, fmt.Sprintf("%s is not on PATH", c.Name))
		}
		break
	}
	return "", fmt.Errorf("no Claude Code binary: %s; install Claude Code or fix that setting", strings.Join(tried, ", "))
}

// lookPath finds name in path (the environment's PATH, not ours) as
// exec.LookPath does, refusing what only a relative entry finds (an empty
// entry, ".", "bin"): it would run whatever ./claude the current directory —
// a freshly cloned repository — holds (exec.ErrDot).
func lookPath(name, path string) (string, error) {
	if strings.Contains(name, "/") {
		return name, executable(name)
	}
	relative := ""
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			if dir == "" {
				dir = "."
			}
			if relative == "" && executable(filepath.Join(dir, name)) == nil {
				relative = dir + string(filepath.Separator) + name
			}
			continue
		}
		p := filepath.Join(dir, name)
		if executable(p) == nil {
			return p, nil
		}
	}
	if relative != "" {
		return "", fmt.Errorf("is only found as %s, through a relative PATH entry, which is not run (%w); give PATH absolute directories", relative, exec.ErrDot)
	}
	return "", errors.New("not found on PATH")
}

func executable(p string) error {
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("does not exist")
	case err != nil:
		return err
	case fi.IsDir():
		return errors.New("is a directory")
	case fi.Mode()&0o111 == 0:
		return errors.New("is not executable")
	}
	return nil
}
