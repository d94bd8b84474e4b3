// Package convdirs names the dirs that hold an account's conversations, as
// usage tools read them: ccusage (20.0.24) takes CLAUDE_CONFIG_DIR as a
// comma-separated list and counts the transcripts under each dir's
// projects/. Under the launcher an account's conversations are kept in
// several places, and only the account's side says which are its own:
//
//   - the account dir (sessions outside git and in bare repositories, and
//     what init --from brought);
//   - each runtime the account's record says the launcher made
//     (runtimes.List: its inode, never a file inside it), while its worktree
//     is there;
//   - the account's copies of its runtimes' transcripts
//     (<account>/archive/<repo>/<worktree>/kept-<fingerprint>/projects);
//   - the archive of removed worktrees (<account>/archive/<repo>/<worktree>/projects).
//
// A conversation held in several of them (a runtime's transcript and the
// account's hard link to it, a copy handed to another account, a worktree
// resumed elsewhere) is counted once by ccusage itself: it drops an entry
// whose message id and request id (without a request id: message id and
// session id) it has counted already, and a session whose every entry is
// such a copy is not listed (measured on 20.0.24; see the docs). So every
// dir is listed and none is left out for holding copies: a copy may be the
// only one left of what Claude's cleanup deleted elsewhere.
//
// Nothing is written and nothing outside the account's record and dirs is
// believed: a runtime the record does not name with the inode it has now
// (one that came with a repository, or a path that is now a link to
// elsewhere), and a projects/ that is a link, are left out. It reads the
// record and a few dir entries: it runs in a shell substitution.
package convdirs

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/runtimes"
)

// Kinds of dir (Dir.Kind, Left.Kind).
const (
	KindAccount  = "account"   // the account dir
	KindRuntime  = "runtime"   // a worktree's runtime the launcher made for the account
	KindKept     = "kept"      // the account's copies of a runtime's transcripts
	KindArchive  = "archive"   // the archive of a removed worktree
	KindSetAside = "set-aside" // kept apart by worktree rm, or a runtime a launch set aside: not proven the account's
)

// Dir is one dir a usage tool is given: Path/projects holds conversations.
type Dir struct {
	Path    string `json:"path"`
	Account string `json:"account"`
	Kind    string `json:"kind"`
	// Worktree is where its conversations ran, as the account's side says
	// (a runtime's record, an archive's record of the removed worktree);
	// "" when it does not say.
	Worktree string `json:"worktree,omitempty"`
}

// Left is a dir that holds, or claims to hold, conversations of the account
// and is not listed, and why.
type Left struct {
	Path    string `json:"path"`
	Account string `json:"account"`
	Kind    string `json:"kind"`
	Why     string `json:"why"`
	// Missed: conversations of the account are there that no listed dir
	// holds a copy of (as far as it is known without reading them): the
	// usage tool does not see them.
	Missed bool `json:"missed"`
}

// List is what Of finds.
type List struct {
	Dirs []Dir  `json:"dirs"`
	Left []Left `json:"left"`
}

// Value is the list as CLAUDE_CONFIG_DIR takes it.
func (l List) Value() string {
	paths := make([]string, len(l.Dirs))
	for i, d := range l.Dirs {
		paths[i] = d.Path
	}
	return strings.Join(paths, ",")
}

// Of lists the dirs of the accounts accts, in order, each dir once.
func Of(accts []conversation.Account) List {
	var l List
	seen := map[string]bool{}
	for _, a := range accts {
		one := ofAccount(a)
		for _, d := range one.Dirs {
			if why := unlistable(d.Path); why != "" {
				l.Left = append(l.Left, Left{Path: d.Path, Account: d.Account, Kind: d.Kind, Why: why, Missed: true})
				continue
			}
			if !seen[d.Path] {
				seen[d.Path] = true
				l.Dirs = append(l.Dirs, d)
			}
		}
		l.Left = append(l.Left, one.Left...)
	}
	if l.Dirs == nil {
		l.Dirs = []Dir{}
	}
	if l.Left == nil {
		l.Left = []Left{}
	}
	return l
}

// unlistable says why a list for CLAUDE_CONFIG_DIR cannot carry path:
// ccusage splits it at commas and trims blanks around each entry.
func unlistable(path string) string {
	switch {
	case strings.Contains(path, ","):
		return "its path holds a comma, which a comma-separated CLAUDE_CONFIG_DIR cannot carry; rename the directory to let usage tools see it"
	case strings.TrimSpace(path) != path:
		return "its path begins or ends with a blank, which usage tools trim from each CLAUDE_CONFIG_DIR entry; rename the directory to let them see it"
	}
	return ""
}

// ofAccount is the dirs of one account.
func ofAccount(a conversation.Account) List {
	var l List
	dir := func(path, kind, wt string) {
		l.Dirs = append(l.Dirs, Dir{Path: path, Account: a.Name, Kind: kind, Worktree: wt})
	}
	left := func(path, kind, why string, missed bool) {
		l.Left = append(l.Left, Left{Path: path, Account: a.Name, Kind: kind, Why: why, Missed: missed})
	}
	if holdsProjects(a.Dir) {
		dir(a.Dir, KindAccount, "")
	}
	listed := map[string]string{} // runtimes listed, by fingerprint: their kept copies are named for it
	rts, err := runtimes.List(a.Dir)
	if err != nil {
		left(runtimes.Path(a.Dir), KindRuntime, err.Error(), true)
	}
	for _, rt := range rts {
		for _, d := range setAside(rt.Dir) {
			// A launch found the runtime was not the dir it made (the
			// repository restored from a copy, a dir that came with it)
			// and set it aside: sessions --all lists its conversations,
			// usage tools given this list do not see them.
			left(d, KindSetAside, "a launch set this runtime aside: claude-account cannot prove it is the account's (it may have come with the repository); 'claude-account sessions --all' lists its conversations", holdsProjects(d))
		}
		if !exists(filepath.Join(rt.Dir, "projects")) {
			continue // no conversation yet (or the runtime is gone with its worktree)
		}
		switch wt := rt.Place.Worktree; {
		case !rt.Made:
			left(rt.Dir, KindRuntime, "the account's record does not vouch for it: "+rt.Why, false)
		case !holdsProjects(rt.Dir):
			left(rt.Dir, KindRuntime, "its projects is not a directory of its own (a link is never followed)", false)
		case wt != "" && !exists(wt):
			why := "its worktree " + wt + " is gone; the account's copies of its conversations (kept) are listed"
			if !rt.Kept {
				why = "its worktree " + wt + " is gone; 'claude-account sessions --all' lists its conversations and 'claude-account resume ID' brings one back"
			}
			left(rt.Dir, KindRuntime, why, !rt.Kept)
		default:
			dir(rt.Dir, KindRuntime, wt)
			listed[gitctx.Fingerprint(rt.Dir)] = rt.Dir
		}
	}
	var worktrees []string
	if realDir(filepath.Join(a.Dir, "archive")) {
		worktrees, _ = filepath.Glob(filepath.Join(a.Dir, "archive", "*", "*"))
	}
	for _, w := range worktrees {
		if !realDir(w) || !realDir(filepath.Dir(w)) {
			continue
		}
		kept, _ := filepath.Glob(filepath.Join(w, conversation.KeptPrefix+"*"))
		for _, k := range kept {
			if !realDir(k) || !holdsProjects(k) {
				continue
			}
			if rt, ok := listed[strings.TrimPrefix(filepath.Base(k), conversation.KeptPrefix)]; ok && linksOnly(filepath.Join(k, "projects"), filepath.Join(rt, "projects")) {
				// Every file is its runtime's own (a hard link), and the
				// runtime is listed: the list stays short (one
				// environment variable holds at most 128 KiB on Linux).
				left(k, KindKept, "every transcript in it is a hard link to its runtime's, which is listed", false)
				continue
			}
			dir(k, KindKept, removedPath(k))
		}
		if holdsProjects(w) {
			dir(w, KindArchive, removedPath(filepath.Join(w, "projects")))
		}
		// A second worktree of the same name removed: archived beside the
		// first as projects-<time>. ccusage reads only a dir named
		// projects, so these are named, for the user to see.
		more, _ := filepath.Glob(filepath.Join(w, "projects-*"))
		for _, m := range more {
			if realDir(m) {
				left(m, KindArchive, "usage tools read only a dir named projects, and this archive of an earlier worktree of the same name is "+filepath.Base(m)+"; 'claude-account sessions --all' lists its conversations", true)
			}
		}
		aside, _ := filepath.Glob(filepath.Join(w, "set-aside", "projects*"))
		for _, s := range aside {
			if realDir(s) {
				left(s, KindSetAside, "kept apart by worktree rm: not proven the account's (it may have come with the repository)", false)
			}
		}
	}
	return l
}

// setAside lists the dirs a launch set the runtime dir aside as
// (<dir>.moved-<time>, configdir), read from the parent dir's entries: the
// runtime's path may hold glob characters.
func setAside(dir string) []string {
	entries, err := os.ReadDir(filepath.Dir(dir))
	if err != nil {
		return nil
	}
	var out []string
	prefix := filepath.Base(dir) + ".moved-"
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) && e.Type().IsDir() {
			out = append(out, filepath.Join(filepath.Dir(dir), e.Name()))
		}
	}
	return out
}

// linksOnly reports whether every regular file under copies is the very
// file (a hard link) at the same place under orig; a link or anything else
// under copies is no copy of orig's, and says no.
func linksOnly(copies, orig string) bool {
	ok := true
	err := filepath.WalkDir(copies, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(copies, p)
		o := filepath.Join(orig, rel)
		if fi, err := os.Lstat(o); err != nil || !fi.Mode().IsRegular() || !d.Type().IsRegular() || !fsx.SameFile(p, o) {
			ok = false
			return filepath.SkipAll
		}
		return nil
	})
	return ok && err == nil
}

// removedPath is where the archived worktree was, as worktree rm (or the
// account's copies) recorded it in dir; "" when unknown.
func removedPath(dir string) string {
	if r := conversation.ReadRemoved(dir); r != nil {
		return r.Path
	}
	return ""
}

// holdsProjects reports whether dir/projects is a directory, not a link:
// a usage tool follows a link there (measured), so one would let a runtime
// name any dir's conversations as the account's.
func holdsProjects(dir string) bool { return realDir(filepath.Join(dir, "projects")) }

func realDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
