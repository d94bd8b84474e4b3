package runtimes

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/claude-account/claude-account/internal/fsx"
)

// Runtime is what the account's side says of one runtime dir: whether the
// launcher made it, and where it belongs. Nothing in it comes from a file
// inside the dir.
type Runtime struct {
	Dir string
	// Made: the record names Dir with the inode it has now.
	Made bool
	// Quiet is when the launcher last left it alone (Entry.Quiet).
	Quiet int64
	// Kept: the account keeps copies of its transcripts (Entry.Kept).
	Kept bool
	// Place is where it belongs. Known: the record says so (the last
	// launch in it found it). Otherwise it is read from its path
	// (<git dir>/claude-runtime/<account>) and git's own admin files,
	// which came with the repository too: good enough to list it, not to
	// make a worktree anywhere outside the repository.
	Place Place
	Known bool
	// From is where the record has it, when it moved here with its
	// repository (Record.moved); Place is then where it was.
	From string
	// Why it is not believed, when it is not Made: one clause for a
	// listing ("… is not the dir claude-account made there").
	Why string
}

// Check is what the record of the account in accountDir says of dir. A
// record that cannot be read believes nothing, and says why.
func Check(accountDir, dir string) Runtime {
	if accountDir == "" {
		return Runtime{Dir: dir, Why: "no account dir was found for it"}
	}
	r, err := Read(Path(accountDir))
	if err != nil {
		return Runtime{Dir: dir, Why: err.Error()}
	}
	return r.Check(dir)
}

// Trusted reports whether dir is a runtime the launcher made for the account
// in accountDir, so that something of it may go back to the account (its
// transcripts to the account's archive, its conversations to init --from).
func Trusted(accountDir, dir string) bool { return dir != "" && Check(accountDir, dir).Made }

// List is every runtime the account's record names, by path, each as
// Check says; nil and the error when the record cannot be read.
func List(accountDir string) ([]Runtime, error) {
	r, err := Read(Path(accountDir))
	if err != nil {
		return nil, err
	}
	dirs := make([]string, 0, len(r.Runtimes))
	for d := range r.Runtimes {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	out := make([]Runtime, 0, len(dirs))
	for _, d := range dirs {
		out = append(out, r.Check(d).whereNow())
	}
	return out, nil
}

// whereNow is rt with its work tree where git says it is now, when the
// record's is gone: 'git worktree move' leaves a linked worktree's git dir,
// and so its runtime, where it was, and writes the new place in the git
// dir's gitdir file. That file came with the repository, so it is believed
// only when the work tree it names has a .git naming the git dir back, and
// only to list and to find the worktree: the place is no longer Known, so
// nothing is ever made there (resume makes a removed worktree again only
// inside the repository). The record gets the new place at the next launch
// there.
func (rt Runtime) whereNow() Runtime {
	p := rt.Place
	if !rt.Known || filepath.Base(filepath.Dir(p.GitDir)) != "worktrees" {
		return rt
	}
	if _, err := os.Lstat(p.Worktree); err == nil {
		return rt
	}
	wt, ok := namedWorktree(p.GitDir)
	if !ok || wt == p.Worktree || !NamesGitDir(wt, p.GitDir) {
		return rt
	}
	rt.Place.Worktree, rt.Known = wt, false
	return rt
}

// Check is what the record says of dir (see Runtime).
func (r *Record) Check(dir string) Runtime {
	rt := Runtime{Dir: dir}
	e, ok := r.Runtimes[dir]
	id, err := stat(dir)
	if err == nil && (!ok || id.ino != e.Ino) {
		// Not the dir recorded at this path: one that moved here with its
		// repository (moved.go) is the launcher's, where it was.
		if from, was, moved := r.moved(dir, id); moved {
			rt.Made, rt.From, rt.Quiet = true, from, was.Quiet
			rt.Place, rt.Known = was.Place, was.Worktree != "" && was.GitDir != "" && was.CommonDir != ""
			return rt
		}
	}
	if !ok {
		rt.Why = "claude-account has no record of making it for this account (it came with the repository?)"
		return rt
	}
	rt.Quiet, rt.Kept = e.Quiet, e.Kept
	rt.Place, rt.Known = e.Place, e.Worktree != "" && e.GitDir != "" && e.CommonDir != ""
	if !rt.Known {
		rt.Place = placeOf(dir)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		rt.Why = "it is gone"
	case err != nil:
		rt.Why = err.Error()
	case id.ino != e.Ino:
		rt.Why = "another directory took the place of the one claude-account made there (a copy, an archive, or one made by hand)"
	default:
		rt.Made = true
	}
	return rt
}

// placeOf is where a runtime a launcher of an earlier version recorded
// without its place belongs, from its path and git's admin files: a main
// worktree's <root>/.git/claude-runtime/<account> belongs to <root>; a
// linked worktree's <common>/worktrees/<name>/claude-runtime/<account> to
// the work tree git's gitdir file names, when that work tree's .git names
// the same git dir back. Anything else (a submodule, a runtime under the
// state dir) is left empty: the transcripts say where they ran.
func placeOf(dir string) Place {
	parent := filepath.Dir(dir)
	if filepath.Base(parent) != "claude-runtime" {
		return Place{}
	}
	gitDir := filepath.Dir(parent)
	if filepath.Base(gitDir) == ".git" {
		return Place{Worktree: filepath.Dir(gitDir), GitDir: gitDir, CommonDir: gitDir}
	}
	if filepath.Base(filepath.Dir(gitDir)) != "worktrees" {
		return Place{}
	}
	p := Place{GitDir: gitDir, CommonDir: filepath.Dir(filepath.Dir(gitDir))}
	wt, ok := namedWorktree(gitDir)
	if !ok {
		return p
	}
	if _, err := os.Lstat(filepath.Join(wt, ".git")); err == nil && !NamesGitDir(wt, gitDir) {
		return p // the work tree is there, and belongs to another git dir
	}
	p.Worktree = wt
	return p
}

// namedWorktree is the work tree a linked worktree's git dir names in its
// gitdir file (<work tree>/.git), as git wrote it; false when it names
// none. Git's admin files came with the repository too: never read through
// a link, never more than a path's length (a link to /dev/zero).
func namedWorktree(gitDir string) (string, bool) {
	data, err := fsx.ReadFileNoFollow(filepath.Join(gitDir, "gitdir"), adminLimit)
	if err != nil || len(data) > adminLimit {
		return "", false
	}
	dotGit := strings.TrimSpace(string(data))
	if !filepath.IsAbs(dotGit) || filepath.Base(dotGit) != ".git" {
		return "", false
	}
	return filepath.Dir(filepath.Clean(dotGit)), true
}

// NamesGitDir reports whether the work tree wt's .git file names gitDir,
// as a linked worktree's does (gitdir: <common>/worktrees/<name>).
func NamesGitDir(wt, gitDir string) bool {
	back, err := fsx.ReadFileNoFollow(filepath.Join(wt, ".git"), adminLimit)
	if err != nil || len(back) > adminLimit {
		return false
	}
	line, _, _ := strings.Cut(string(back), "\n")
	named, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return false
	}
	named = strings.TrimSpace(named)
	if !filepath.IsAbs(named) {
		named = filepath.Join(wt, named)
	}
	return fsx.SamePath(filepath.Clean(named), gitDir)
}

// adminLimit bounds a read of one of git's admin files, which hold a path.
const adminLimit = 4096

// String is the runtime and why it is not believed, for messages.
func (rt Runtime) String() string {
	if rt.Made {
		return rt.Dir
	}
	return fmt.Sprintf("%s (%s)", rt.Dir, rt.Why)
}
