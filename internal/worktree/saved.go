package worktree

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/claude-account/claude-account/internal/shell"
)

// wipPrefix is where rm --force keeps a removed worktree's uncommitted work:
// refs/claude-account/wip/<directory name>, or <name>-<time> when an earlier
// removal's work is kept there already (keepRef).
const wipPrefix = "refs/claude-account/wip/"

// Saved is the uncommitted work rm --force saved of a worktree directory.
type Saved struct {
	Ref    string // refs/claude-account/wip/<name>[-<time>]
	OID    string // the commit that holds the work
	Parent string // the commit the worktree was on, "" before its first
}

// mayHaveSaved reports whether a ref of name's saved work may exist, from
// the loose refs and packed-refs alone: New asks on every call, and asking
// git would cost a process each time.
func (r *Repo) mayHaveSaved(name string) bool {
	des, _ := os.ReadDir(filepath.Join(r.Common, filepath.FromSlash(wipPrefix)))
	for _, de := range des {
		if strings.HasPrefix(de.Name(), name) {
			return true
		}
	}
	data, err := os.ReadFile(filepath.Join(r.Common, "packed-refs"))
	return err == nil && bytes.Contains(data, []byte(" "+wipPrefix+name))
}

// savedWork is the newest work rm --force saved of the worktree directory
// name (what a worktree made with that name again would get back), or nil.
func (r *Repo) savedWork(name string) (*Saved, error) {
	out, err := r.Git.Run("for-each-ref", "--format=%(refname) %(objectname) %(parent)", wipPrefix+name, wipPrefix+name+"-*")
	if err != nil {
		return nil, err
	}
	var all []Saved
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		rest := strings.TrimPrefix(f[0], wipPrefix+name)
		// Only this name's own: not another worktree's (fix-login for fix),
		// nor the detached commits rm kept as <name>-head.
		if rest != "" && !isStamp(strings.TrimPrefix(rest, "-")) {
			continue
		}
		s := Saved{Ref: f[0], OID: f[1]}
		if len(f) > 2 {
			s.Parent = f[2]
		}
		all = append(all, s)
	}
	if len(all) == 0 {
		return nil, nil
	}
	// The stamped ones are later than the plain one, and sort by time.
	sort.Slice(all, func(i, j int) bool { return all[i].Ref < all[j].Ref })
	return &all[len(all)-1], nil
}

// isStamp reports a time as keepRef writes it: 20060102T150405Z.
func isStamp(s string) bool {
	if len(s) != 16 || s[8] != 'T' || s[15] != 'Z' {
		return false
	}
	return strings.Trim(s[:8]+s[9:15], "0123456789") == ""
}

// putBack writes the work of s into the worktree at path as uncommitted
// changes (nothing staged; files that were untracked come back untracked),
// then drops s's ref, as git stash pop drops its entry: the work is where
// it was again, and a worktree made with the name later must not get it a
// second time. A ref moved since (another removal) is left alone.
func (r *Repo) putBack(path string, s Saved) error {
	if _, err := r.Git.In(path).Run("restore", "--source="+s.OID, "--worktree", "--", "."); err != nil {
		return err
	}
	_, _ = r.Git.Run("update-ref", "-m", "claude-account: put back in "+path, "-d", s.Ref, s.OID)
	return nil
}

// rescue is the git command that checks saved work out in a worktree of
// its own, from anywhere: beside the worktree it came from, named so that
// making that worktree again (worktree new NAME) never takes its path.
func (r *Repo) rescue(worktreePath, ref string) string {
	gitDir := r.Root
	if r.Bare {
		gitDir = r.Common
	}
	name := strings.TrimPrefix(ref, wipPrefix)
	dir := filepath.Join(filepath.Dir(worktreePath), Flatten("rescue/"+name))
	return fmt.Sprintf("git -C %s worktree add -b rescue/%s %s %s", shell.Quote(gitDir), name, shell.Quote(dir), ref)
}

// SavedWorkError is New refusing a name whose removed worktree's saved work
// cannot be put back where the new one would start.
type SavedWorkError struct{ msg string }

func (e *SavedWorkError) Error() string { return e.msg }

// checkSaved finds the work rm --force saved of the worktree New is about
// to make at path, starting on the commit start: nil when there is none,
// the work to put back when it was saved on start, and a SavedWorkError
// naming the choices when it was saved on another commit, where restoring
// its files would also undo the difference between the two commits.
func (r *Repo) checkSaved(slug, path, start string) (*Saved, error) {
	s, err := r.savedWork(filepath.Base(path))
	if err != nil || s == nil {
		return nil, err
	}
	if s.Parent != "" && s.Parent == start {
		return s, nil
	}
	gitDir := r.Root
	if r.Bare {
		gitDir = r.Common
	}
	on := "before its first commit"
	if s.Parent != "" {
		on = "on commit " + s.Parent[:min(12, len(s.Parent))]
	}
	choices := ""
	if s.Parent != "" && !r.hasRef("refs/heads/"+Branch(slug)) {
		choices = fmt.Sprintf("put it back on the commit it was on with 'claude-account worktree new %s --base %s', ", shell.Quote(slug), s.Parent)
	}
	return nil, &SavedWorkError{fmt.Sprintf("%s holds the uncommitted work saved when %s was removed, %s, but the worktree would start on %s; %skeep it apart with '%s', or drop it with 'git -C %s update-ref -d %s'",
		s.Ref, path, on, start[:min(12, len(start))], choices, r.rescue(path, s.Ref), shell.Quote(gitDir), s.Ref)}
}
