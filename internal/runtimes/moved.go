package runtimes

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
	"time"
)

// A runtime lives in its repository's git dir, so a repository moved whole
// (mv app app2) takes its runtimes along to a path the record does not
// name. What proves that the dir at the new path is the one the launcher
// made, and not one that came with a repository (an archive, a copied
// checkout), is what no archive or copy can give a dir:
//
//   - the same inode on the same device as the one recorded: a copy, an
//     archive extracted anywhere, a move across file systems is another
//     inode; one file system has one live inode of a number at a time;
//   - so the path recorded no longer holds it (gone, another dir there),
//     or holds this very dir by another name (a link left in its place):
//     a copy, whose original still exists, is another inode;
//   - the dir did not change after the launcher last left it alone (its
//     inode change time is not later than Quiet): a new dir that reused
//     the number of one removed since (an archive extracted after a
//     worktree rm) was made later, and an extraction into the moved dir
//     changes it. A runtime in use (Quiet 0) proves nothing.
//
// Its files then still answer to Quiet (ChangedSince) as at the path
// recorded: the move keeps the quiet time. A move across file systems
// (a copy, then a removal) leaves none of this: the launch sets the runtime
// aside as it does a copy's, reading nothing of it as the launcher's; the
// conversations the account keeps copies of, and that the set-aside dir
// holds the same bytes of, come along (configdir's across.go); the rest
// stay listed and resumable with --unverified.

// goneFor is how long a runtime no longer at its path is remembered, so
// that a repository moved whole is found after it when it is next used.
const goneFor = 180 * 24 * time.Hour

// goneMax bounds how many are remembered, the oldest forgotten first: the
// record is read at every launch.
const goneMax = 64

// moved is the record's entry of a runtime that moved to dir (id is dir as
// it is now) and the path it was recorded at; false when there is none
// (see above for what proves one).
func (r *Record) moved(dir string, id dirID) (string, Entry, bool) {
	var from string
	var found Entry
	for _, m := range []map[string]Entry{r.Runtimes, r.Gone} {
		for p, e := range m {
			if p == dir || e.Ino != id.ino || e.Dev == 0 || e.Dev != id.dev || e.Quiet == 0 || id.ctime > e.Quiet+slack ||
				filepath.Base(p) != filepath.Base(dir) {
				continue
			}
			if e.Quiet < found.Quiet || e.Quiet == found.Quiet && from != "" && p > from {
				continue // the latest record of it, whichever map holds it
			}
			from, found = p, e
		}
	}
	if from == "" {
		return "", Entry{}, false
	}
	// The path recorded need not be gone: were it to hold the same inode
	// on the same device, it is this very dir, reached by another name (a
	// link left where the repository was: mv app app2; ln -s app2 app).
	return from, found, true
}

// relocate records at their new paths the account's other runtimes of a
// repository that moved whole, when a launch in it records one (dir, in the
// common git dir common): a runtime the record has in another common git
// dir, as <common>/claude-runtime/<account> or
// <common>/worktrees/<name>/claude-runtime/<account>, that is now at the
// same place below common and proven moved (moved). So the conversations
// of its linked worktrees are listed, and resumed, without a launch in
// each. Where each belongs is then what git's files say (placeOf) until a
// launch there records it: git's own links between a moved repository and
// its linked worktrees need 'git worktree repair', and the record names no
// place it has not seen.
func (r *Record) relocate(dir, common string) {
	if common == "" {
		return
	}
	found := map[string]string{} // new path → old
	for _, m := range []map[string]Entry{r.Runtimes, r.Gone} {
		for p := range m {
			old, rel := commonOf(p)
			if old == "" || old == common {
				continue
			}
			np := filepath.Join(common, rel)
			if _, taken := r.Runtimes[np]; taken || np == dir {
				continue
			}
			id, err := stat(np)
			if err != nil {
				continue
			}
			if was, _, ok := r.moved(np, id); ok && was == p {
				found[np] = p
			}
		}
	}
	for np, p := range found {
		e, ok := r.Runtimes[p]
		if !ok {
			e = r.Gone[p]
		}
		delete(r.Runtimes, p)
		delete(r.Gone, p)
		e.Gone, e.Place = 0, Place{}
		r.Runtimes[np] = e
	}
}

// commonOf splits a runtime's path into the common git dir it is in and
// the rest: <common>/claude-runtime/<account>, or
// <common>/worktrees/<name>/claude-runtime/<account>; "" for another (a
// runtime under the state dir).
func commonOf(p string) (string, string) {
	if filepath.Base(filepath.Dir(p)) != "claude-runtime" {
		return "", ""
	}
	gitDir := filepath.Dir(filepath.Dir(p))
	common := gitDir
	if filepath.Base(filepath.Dir(gitDir)) == "worktrees" {
		common = filepath.Dir(filepath.Dir(gitDir))
	}
	rel, err := filepath.Rel(common, p)
	if err != nil {
		return "", ""
	}
	return common, rel
}

// keepGone remembers e, no longer at its path p since now, unless it can
// never be found again (moved: a record of an earlier version without its
// device, a runtime never left quiet).
func (r *Record) keepGone(p string, e Entry, now int64) {
	if e.Dev == 0 || e.Quiet == 0 {
		return
	}
	if was, ok := r.Gone[p]; ok && was.Quiet > e.Quiet {
		return
	}
	e.Gone = now
	if r.Gone == nil {
		r.Gone = map[string]Entry{}
	}
	r.Gone[p] = e
}

// forget drops the runtimes gone longer than goneFor, and the oldest past
// goneMax.
func (r *Record) forget(now int64) {
	var paths []string
	for p, e := range r.Gone {
		if now-e.Gone > int64(goneFor) {
			delete(r.Gone, p)
			continue
		}
		paths = append(paths, p)
	}
	if len(paths) <= goneMax {
		return
	}
	sort.Slice(paths, func(i, j int) bool {
		a, b := r.Gone[paths[i]], r.Gone[paths[j]]
		if a.Gone != b.Gone {
			return a.Gone > b.Gone
		}
		return paths[i] < paths[j]
	})
	for _, p := range paths[goneMax:] {
		delete(r.Gone, p)
	}
}

// GoneFrom is the runtime dir other than dir that the record has for the
// work tree worktree under dir's name (claude-runtime/<account>) and that
// is no longer there:
// where a runtime that arrived with the same claim came from, when it was
// moved across file systems (a copy, then a removal), which nothing proves
// (moved); "" when there is none. Only to say so: nothing is adopted.
func (r *Record) GoneFrom(worktree, dir string) string {
	if worktree == "" {
		return ""
	}
	name := filepath.Base(dir)
	var found string
	for _, m := range []map[string]Entry{r.Runtimes, r.Gone} {
		for p, e := range m {
			if p == dir || e.Worktree != worktree || filepath.Base(p) != name || found != "" && p > found {
				continue
			}
			if cur, err := stat(p); errors.Is(err, fs.ErrNotExist) || err == nil && cur.ino != e.Ino {
				found = p
			}
		}
	}
	return found
}

// MovedFrom is where the account in accountDir last recorded the runtime
// now at dir, when dir is one the launcher made that moved (see above for
// what proves it) and no launch has recorded it here yet: sessions lists a
// repository moved whole as its own before a launch in it. False when dir
// is recorded where it is, is not there, or proves nothing.
func MovedFrom(accountDir, dir string) (Place, bool) {
	r, err := Read(Path(accountDir))
	if err != nil {
		return Place{}, false
	}
	if e, ok := r.Runtimes[dir]; ok {
		if ino, err := inode(dir); err == nil && ino == e.Ino {
			return Place{}, false // recorded here: nothing moved
		}
	}
	id, err := stat(dir)
	if err != nil {
		return Place{}, false
	}
	_, e, ok := r.moved(dir, id)
	return e.Place, ok && e.CommonDir != ""
}
