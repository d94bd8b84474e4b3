package session

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/worktree"
)

// ensureDir makes the state dir inside the lock dir, both private.
func ensureDir(lockDir string) error {
	if err := lock.EnsureDir(lockDir); err != nil {
		return err
	}
	dir := StateDir(lockDir)
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return lock.CheckDir(dir)
}

// Running is one session running now: an instance lock someone holds (the
// kernel frees it when the launcher dies, so a dead session is never
// listed), with the state its hooks reported.
type Running struct {
	ID    string // the lock's name without ".lock"
	Lock  lock.Held
	State *State // nil until Claude's hooks report (or when they cannot)
}

// List returns every session running now, of every account, oldest first.
func List(lockDir string) ([]Running, error) {
	held, err := lock.List(lockDir, func(string) bool { return true })
	if err != nil {
		return nil, err
	}
	var out []Running
	for _, h := range held {
		id := strings.TrimSuffix(filepath.Base(h.Path), ".lock")
		r := Running{ID: id, Lock: h}
		if h.PID > 0 {
			s := readState(filepath.Join(StateDir(lockDir), id+".json"), Token(h.PID, h.Started.UnixNano()))
			if s.Token != "" {
				r.State = s
			}
		}
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Lock.Started.Before(out[j].Lock.Started) })
	return out, nil
}

// Info is a running session as 'claude-account ps' shows it: one the
// launcher started (Kind Foreground) or one Claude's supervisor hosts
// (Kind Background: claude --bg, a session sent to the background).
type Info struct {
	Kind    string `json:"kind"` // foreground or background
	Account string `json:"account"`
	Path    string `json:"path"`   // the worktree it runs in; outside git, Claude's directory
	Slug    string `json:"slug"`   // the worktree's name, "" for a main worktree or outside git
	Branch  string `json:"branch"` // "" outside git, "@<commit>" when detached
	State   string `json:"state"`  // starting, working or waiting; a background one's: starting, working, needs input, done, failed
	// Reason is why it is in State, one of Reasons (limit, permission,
	// question, failed, ended, started, working), and ReasonText what a
	// person reads of it ("limit, resets 17:01"; ps fills it in).
	Reason     string `json:"reason"`
	ReasonText string `json:"reasonText"`
	// ResetsAt is when the limit that stopped it resets, as its account's
	// figures say (null when they do not); Message is Claude's own line at
	// a failed turn ("You've hit your 5-hour limit · resets 5:01pm (UTC)").
	ResetsAt    *time.Time `json:"resetsAt"`
	Message     string     `json:"message,omitempty"`
	Since       time.Time  `json:"since"`
	PID         int        `json:"pid"`         // Claude's (the launcher's until Claude runs)
	LauncherPID int        `json:"launcherPid"` // the launcher that holds the lock ('claude-account close' stops it)
	SessionID   string     `json:"sessionId,omitempty"`
	Worktrees   []Worktree `json:"worktrees"` // worktrees the session made itself (claude -w, agents' isolation)
	LockFile    string     `json:"lockFile"`
	Pane        string     `json:"pane"`       // its tmux pane ("%3"), "" outside tmux
	TmuxSocket  string     `json:"tmuxSocket"` // the socket of that pane's tmux server, "" outside tmux
	// ID is a background session's short id (claude attach ID, stop ID),
	// "" for a foreground one.
	ID string `json:"id"`
	// Detail is Claude's one line on a background session: what it does,
	// or what it needs.
	Detail string `json:"detail"`
	// ConfigDir is the config dir whose supervisor hosts a background
	// session: its commands run with CLAUDE_CONFIG_DIR set to it.
	ConfigDir string `json:"configDir,omitempty"`
}

// Worktree is a worktree a session made.
type Worktree struct {
	Path   string `json:"path"`
	Slug   string `json:"slug"`
	Branch string `json:"branch"`
}

// Describe reads what a session's lock and state name: where it runs (slug,
// branch) and the worktrees it made. getenv is the environment git reads.
func Describe(r Running, getenv func(string) string) Info {
	h := r.Lock
	in := Info{Kind: Foreground, Account: h.Account, Path: h.Workspace, State: Starting, Reason: Started, Since: h.Started,
		PID: h.ClaudePID, LauncherPID: h.PID, LockFile: h.Path, Worktrees: []Worktree{}}
	if socket := lock.TmuxSocket(h.Tmux); socket != "" && lock.ValidPane(h.Pane) {
		in.Pane, in.TmuxSocket = h.Pane, socket
	}
	if in.PID == 0 {
		in.PID = h.PID
	}
	if r.State != nil {
		in.State, in.Since, in.SessionID = r.State.State, r.State.Since, r.State.SessionID
		in.Reason, in.Message = r.State.Reason, r.State.Message
	}
	var repo gitctx.Context
	if in.Path != "" {
		repo, _ = gitctx.Detect(in.Path, getenv)
		in.Slug, in.Branch = where(repo)
	} else if r.State != nil {
		in.Path = r.State.Cwd
	}
	if r.State == nil {
		return in
	}
	seen := map[string]bool{in.Path: true}
	add := func(path string, made bool) {
		ctx, err := gitctx.Detect(path, getenv)
		if err != nil || ctx.Toplevel == "" || seen[ctx.Toplevel] || ctx.Kind != gitctx.Linked ||
			repo.CommonDir == "" || ctx.CommonDir != repo.CommonDir {
			return
		}
		if !made && !madeSince(ctx.GitDir, h.Started) {
			return // a worktree that was there before: Claude only went there
		}
		seen[ctx.Toplevel] = true
		slug, branch := where(ctx)
		in.Worktrees = append(in.Worktrees, Worktree{Path: ctx.Toplevel, Slug: slug, Branch: branch})
	}
	for _, w := range r.State.Worktrees {
		add(w, true)
	}
	if r.State.Cwd != "" {
		// claude -w moves the session into the worktree it made: its hooks
		// report that directory.
		add(r.State.Cwd, false)
	}
	return in
}

// where is a worktree's name and branch.
func where(ctx gitctx.Context) (slug, branch string) {
	if ctx.GitDir == "" {
		return "", ""
	}
	if ctx.Kind == gitctx.Linked {
		slug = ctx.Worktree
		if m := worktree.ReadMeta(ctx.GitDir); m != nil && m.Slug != "" {
			slug = m.Slug
		}
	}
	head, detached, err := gitctx.Head(ctx.GitDir)
	if err == nil {
		branch = head
		if detached {
			branch = "@" + head
		}
	}
	return slug, branch
}

// madeSince reports whether the linked worktree whose git dir is gitDir was
// made at or after t: git writes its commondir file once, when it adds the
// worktree.
func madeSince(gitDir string, t time.Time) bool {
	fi, err := os.Stat(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return false
	}
	// On a file system of whole seconds one made in the session's first
	// second is missed: better than showing one that was there before.
	return !fi.ModTime().Before(t)
}
