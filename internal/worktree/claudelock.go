package worktree

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/claude-account/claude-account/internal/fsx"
)

// Lock is a worktree's git lock (git worktree lock: the file "locked" in its
// admin dir, holding the reason).
type Lock struct {
	Reason string
	// Claude: the reason is one Claude Code writes when it locks a worktree
	// it made or adopted for a session or an agent: "claude session NAME
	// (pid PID start PROCSTART)" or "claude agent NAME (pid PID)" (read
	// from the 2.1.332 binary: its own regular expression, which it uses to
	// tell its locks from others). PID is the process that took it, Name
	// the worktree's name as Claude gave it.
	Claude bool
	Kind   string // session or agent
	Name   string
	PID    int
}

// claudeLockReason is Claude's own pattern for its lock reasons (2.1.332),
// compiled when a lock is first read: its counted repetitions take about
// 3 ms to compile, which every launch would pay at start-up.
var claudeLockReason = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^claude (agent|session) (.{1,255}) \(pid (\d{1,10})(?: start (.{1,255}))?\)$`)
})

// ParseLock reads a lock reason as Claude writes it, or as anything else.
func ParseLock(reason string) Lock {
	l := Lock{Reason: reason}
	m := claudeLockReason().FindStringSubmatch(strings.TrimRight(reason, "\n"))
	if m == nil {
		return l
	}
	pid, err := strconv.Atoi(m[3])
	if err != nil || pid <= 0 {
		return l
	}
	l.Claude, l.Kind, l.Name, l.PID = true, m[1], m[2], pid
	return l
}

// lockLimit bounds the read of a lock file: Claude's reasons are one line.
const lockLimit = 4 << 10

// lockOf is the git lock of the worktree at path, nil when it has none.
// The file is read from the worktree's admin dir without following a link.
func (r *Repo) lockOf(path string) *Lock {
	admin := r.adminDir(path)
	if admin == "" {
		return nil
	}
	data, err := fsx.ReadFileNoFollow(filepath.Join(admin, "locked"), lockLimit)
	if err != nil {
		return nil
	}
	l := ParseLock(strings.TrimSpace(string(data)))
	return &l
}
