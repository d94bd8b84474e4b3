package worktree

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitcmd"
	"github.com/claude-account/claude-account/internal/gitctx"
)

// DefaultDir is where worktrees go, relative to the repository root; Claude
// Code uses the same place. account.toml [worktree] dir moves it, e.g. to a
// sibling "../app.worktrees" when tools scan nested dirs.
const DefaultDir = ".claude/worktrees"

// Repo is a repository whose worktrees we manage.
type Repo struct {
	Common string // the common git dir
	Root   string // the main worktree, or the bare repository's parent dir
	Bare   bool
	Dir    string // where new worktrees go
	Git    Git    // runs in Root (or Common when bare)
}

// RepoPlaceholder in [worktree] dir is the repository's name, so that one
// dir outside every repository (~/worktrees/{repo}) keeps their worktrees
// apart.
const RepoPlaceholder = "{repo}"

// Open finds the repository of a context. dir is account.toml's
// [worktree] dir ("" for the default); relative to Root.
func Open(ctx gitctx.Context, dir string, env []string) (*Repo, error) {
	if ctx.Kind == gitctx.NotGit {
		return nil, errors.New("not in a git repository; cd into one (or use 'claude-account clone')")
	}
	r := &Repo{Common: ctx.CommonDir}
	r.Bare = ctx.Kind == gitctx.Bare || isBareCommon(ctx.CommonDir, env)
	if r.Bare {
		r.Root = filepath.Dir(ctx.CommonDir)
		r.Git = Git{Dir: ctx.CommonDir, Env: env}
	} else {
		r.Root = filepath.Dir(ctx.CommonDir) // <main>/.git
		if filepath.Base(ctx.CommonDir) != ".git" {
			// A submodule or --separate-git-dir: the main worktree is where git says.
			r.Root = ctx.Toplevel
		}
		r.Git = Git{Dir: r.Root, Env: env}
	}
	name := filepath.Base(r.Root)
	if r.Bare {
		name = strings.TrimSuffix(filepath.Base(ctx.CommonDir), ".git") // owner__repo.git
	}
	if dir == "" {
		dir = DefaultDir
		if r.Bare {
			dir = RepoPlaceholder + ".worktrees"
		}
	}
	dir = strings.ReplaceAll(dir, RepoPlaceholder, name)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(r.Root, dir)
	}
	r.Dir = filepath.Clean(dir)
	return r, nil
}

// isBareCommon asks git whether a common dir is a bare repository (a linked
// worktree of a bare clone reports Linked, not Bare).
func isBareCommon(common string, env []string) bool {
	out, err := Git{Dir: common, GitDir: common, Env: env}.Run("config", "--bool", "core.bare")
	return err == nil && out == "true"
}

// PathFor is the worktree dir of a slug.
func (r *Repo) PathFor(slug string) string { return filepath.Join(r.Dir, Flatten(slug)) }

// Entry is a worktree git knows of (gitcmd.Worktree), with its branch by
// its short name.
type Entry struct {
	Path     string
	HEAD     string
	Branch   string // short name, "" when detached
	Bare     bool
	Detached bool
	Locked   bool
	Prunable bool
}

// Entries lists every worktree git knows of, the main one first.
func (r *Repo) Entries() ([]Entry, error) {
	out, err := r.Git.Run("worktree", "list", "--porcelain")
	if err != nil {
		return nil, err
	}
	var list []Entry
	for _, w := range gitcmd.ParseWorktrees([]byte(out)) {
		list = append(list, Entry{Path: w.Path, HEAD: w.HEAD, Branch: strings.TrimPrefix(w.Branch, "refs/heads/"),
			Bare: w.Bare, Detached: w.Detached, Locked: w.Locked, Prunable: w.Prunable})
	}
	return list, nil
}

// Find returns the worktree at path, or nil.
func (r *Repo) Find(path string) (*Entry, error) {
	list, err := r.Entries()
	if err != nil {
		return nil, err
	}
	for i := range list {
		if fsx.SamePath(list[i].Path, path) {
			return &list[i], nil
		}
	}
	return nil, nil
}

// GitDir is the per-worktree git dir of a linked worktree.
// Its .git is a file of the repository: one that is no regular file (a
// FIFO would block the read forever) is refused, as git refuses it, and
// only its first bytes are read.
func GitDir(worktree string) (string, error) {
	dotGit := filepath.Join(worktree, ".git")
	fi, err := os.Stat(dotGit)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", errors.New(dotGit + " is not a gitdir file (not a regular file)")
	}
	// O_NONBLOCK: swapped for a FIFO since the stat, it still returns.
	data, err := fsx.ReadFileLimit(dotGit, 64<<10)
	if err != nil {
		return "", err
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
	if !ok {
		return "", errors.New(worktree + "/.git is not a gitdir file")
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(worktree, dir)
	}
	return dir, nil
}

// MetaFile, in a worktree's git dir, records how we made it; it goes away
// with the worktree.
const MetaFile = "claude-account.json"

// Meta is the body of MetaFile.
type Meta struct {
	Slug      string    `json:"slug"`
	Ephemeral bool      `json:"ephemeral"`
	Base      string    `json:"base"`    // the ref it was made from
	BaseOID   string    `json:"baseOid"` // and that ref's commit then
	Created   time.Time `json:"created"`
	// MadeBranch: New made the branch (rather than checking out one that
	// existed), or Remake made it again, of the same name (recordRemade);
	// only such a branch may be deleted with the worktree.
	MadeBranch bool `json:"madeBranch,omitempty"`
}

// ReadMeta reads a worktree's record; nil when it has none (not ours).
func ReadMeta(gitDir string) *Meta {
	// A file of the repository: a FIFO planted there reads as empty
	// (O_NONBLOCK), and a huge file is not read whole.
	data, err := fsx.ReadFileNoFollow(filepath.Join(gitDir, MetaFile), 64<<10)
	if err != nil || len(data) > 64<<10 {
		return nil
	}
	var m Meta
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	// The record is a file in the repository's git dir: a base that would
	// read as an option, or is no text for a line, counts as none (the
	// default base applies), and so does a base commit that is no commit id.
	if strings.HasPrefix(m.Base, "-") || strings.ContainsFunc(m.Base, unicode.IsControl) {
		m.Base = ""
	}
	if m.BaseOID != "" && !isOID(m.BaseOID) {
		m.BaseOID = ""
	}
	return &m
}

func writeMeta(gitDir string, m Meta) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	// Written once, into the git dir git has just made for the worktree, and
	// ours alone: a crash mid-write leaves a record ReadMeta ignores, so the
	// fsyncs of an atomic write (several ms here) buy nothing.
	return os.WriteFile(filepath.Join(gitDir, MetaFile), append(data, '\n'), 0o644)
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}
