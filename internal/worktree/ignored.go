package worktree

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/gitcmd"
)

// What git ignores in a worktree is work too when the session left it
// there: a .env, a local database, notes. No commit keeps such a file, and
// removing the worktree deletes it (git worktree remove --force, and rm's
// --force saves what git add --all takes, ignored files not). Only what
// claude-account or Claude Code put there themselves is not: see machinery.

// claudeLocalSettings is Claude Code's settings file of a checkout, which git
// ignores (Claude Code adds it to the user's global excludes, New to the
// repository's): New copies the main worktree's into a new worktree, and
// Claude writes the permissions a user allows "for this project" to it.
// Both matter to that checkout alone: a throwaway worktree's go with it.
var claudeLocalSettings = filepath.Join(".claude", "settings.local.json")

// ignoredWork lists what git ignores in the worktree at g.Dir that is not
// its machinery (mainRoot: the main worktree's dir, what New copied and
// linked from), as git lists it: a directory matched whole (node_modules/,
// build/) once, ending in '/'. One git status, taking no lock (Claude may
// still be writing there: AfterExit runs after any Claude left).
func ignoredWork(g Git, mainRoot string) ([]string, error) {
	out, err := g.run([]string{"GIT_OPTIONAL_LOCKS=0"}, "status", "--porcelain=v2", "-z", "--ignored=matching", "--untracked-files=normal", "--no-renames")
	if err != nil {
		return nil, err
	}
	var work []string
	for _, p := range gitcmd.ParseIgnored([]byte(out)) {
		if !machinery(g.Dir, mainRoot, p) {
			work = append(work, p)
		}
	}
	return work, nil
}

// machinery reports whether the ignored path rel (slash-separated, as git
// gives it) of the worktree at dir is what claude-account or Claude Code put
// there, which removing the worktree loses nothing of:
//   - Claude Code's settings of the checkout (claudeLocalSettings);
//   - a link New made for a symlink_dirs entry: it points at the same path
//     in the main worktree, whose files stay;
//   - a file the same, byte for byte, as the main worktree's of that path:
//     a .worktreeinclude copy New made that the session left as it was.
//
// A directory git lists whole is never machinery: its files may be anything.
func machinery(dir, mainRoot, rel string) bool {
	if strings.HasSuffix(rel, "/") {
		return false
	}
	local := filepath.FromSlash(rel)
	if local == claudeLocalSettings {
		return true
	}
	if mainRoot == "" {
		return false
	}
	p, orig := filepath.Join(dir, local), filepath.Join(mainRoot, local)
	fi, err := os.Lstat(p)
	if err != nil {
		return false
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		target, err := os.Readlink(p)
		return err == nil && target == orig
	case fi.Mode().IsRegular():
		ofi, err := os.Lstat(orig)
		if err != nil || !ofi.Mode().IsRegular() || ofi.Size() != fi.Size() {
			return false
		}
		a, err := os.ReadFile(p)
		if err != nil {
			return false
		}
		b, err := os.ReadFile(orig)
		return err == nil && bytes.Equal(a, b)
	}
	return false
}
