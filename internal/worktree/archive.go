package worktree

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/runtimes"
)

// removed is the record of the worktree e kept with its archived
// transcripts, so that 'claude-account resume' can make it again.
func (r *Repo) removed(e *Entry, base, saved string, o RemoveOptions) conversation.Removed {
	return conversation.Removed{Path: e.Path, Branch: e.Branch, Head: e.HEAD, Saved: saved, Base: base,
		Root: r.Root, CommonDir: r.Common, RemovedAt: o.Now.UTC()}
}

// movedHere reports whether a worktree the account's record puts at was,
// with the git dir recordedGitDir, is now at path: was is gone, path is
// the git dir being removed's work tree, and its .git names that git dir
// back, which no file of the repository alone can make true outside it.
func movedHere(was, path, recordedGitDir, gitDir string) bool {
	if was == path || !fsx.SamePath(recordedGitDir, gitDir) {
		return false
	}
	if _, err := os.Lstat(was); err == nil {
		return false
	}
	return runtimes.NamesGitDir(path, gitDir)
}

// archive moves Claude's transcripts (projects/) of each runtime in the
// worktree to the archive of the account it was made for,
// <account dir>/archive/<repo>/<name>/, so that claude --resume history
// outlives the worktree. Only a runtime the launcher made for that account
// (runtimes.Trusted, from the account's record) is archived, and only to
// the account dir the launcher finds for the runtime's account name
// (o.AccountDir), never to one a file in the runtime names: a runtime that
// came with the repository goes with the worktree, and nothing of it reaches
// an account. The move renames entries, so a link in projects/ stays a
// link; none is followed.
func (r *Repo) archive(gitDir, name string, o RemoveOptions, rec conversation.Removed) ([]string, error) {
	var notes []string
	if gitDir == "" || !filepath.IsAbs(gitDir) {
		// A worktree whose .git could not be read names no git dir: a
		// relative one would be read against the working directory.
		return nil, nil
	}
	parent := filepath.Join(gitDir, configdir.DirName)
	des, _ := os.ReadDir(parent)
	for _, de := range des {
		if !de.IsDir() {
			continue // a link or a file is no runtime
		}
		rt := filepath.Join(parent, de.Name())
		src := filepath.Join(rt, "projects")
		if fi, err := os.Lstat(src); err != nil || !fi.IsDir() {
			continue // no transcripts (or a link in their place: never followed)
		}
		acct, accountDir := de.Name(), ""
		if account.ValidateName(acct) == nil && o.AccountDir != nil {
			accountDir = o.AccountDir(acct)
		}
		if !runtimes.Trusted(accountDir, rt) {
			notes = append(notes, fmt.Sprintf("left %s to go with the worktree, unarchived: claude-account did not make it for an account of yours", rt))
			continue
		}
		// Where the worktree was is what the account's record says the
		// launcher made this runtime for; git's admin files came with the
		// repository, and a planted gitdir would have resume make the
		// worktree anywhere (runtimes.Check).
		rec := rec
		listed := rec.Path // where git lists it
		rec.Vouched = false
		if p := runtimes.Check(accountDir, rt); p.Known {
			rec.Path, rec.Vouched = p.Place.Worktree, true
			if movedHere(rec.Path, listed, p.Place.GitDir, gitDir) {
				// git worktree move, and no launch there since: the
				// work tree is where git lists it, naming the git dir
				// the record names back (runtimes.Runtime.whereNow).
				rec.Path = listed
			}
		}
		// RestoreTranscripts brings them back to a worktree made again
		// with this name.
		base := filepath.Join(ArchiveDir(accountDir, r.Common, name), "projects")
		if err := os.MkdirAll(filepath.Dir(base), 0o700); err != nil {
			return notes, err
		}
		dst, err := moveAside(src, base, o.Now)
		if err != nil {
			return notes, fmt.Errorf("archiving %s: %w; nothing was removed", src, err)
		}
		if data, err := json.MarshalIndent(rec, "", "  "); err == nil {
			// What makes the worktree again; without it the transcripts
			// still resume (sessions reads where they ran from them).
			_ = fsx.WriteFile(filepath.Join(dst, conversation.RemovedFile), append(data, '\n'), 0o600)
		}
		// The account's own copies of them (KeepCopies) are the same
		// conversations: folded in, so that they are kept and listed once.
		if err := absorbCopies(accountDir, rt, dst); err != nil {
			notes = append(notes, fmt.Sprintf("some of the account's copies of %s's conversations stay in %s: %v", acct, ArchiveDir(accountDir, r.Common, name), err))
		}
		notes = append(notes, fmt.Sprintf("archived %s's transcripts to %s", acct, dst))
	}
	for _, d := range asides(gitDir) {
		// A runtime set aside (by an earlier version, or come with the
		// repository) is not proven the account's: its conversations are
		// kept apart in the account's archive, listed as not verified,
		// resumed only when asked (--unverified), never restored by name.
		src := filepath.Join(d, "projects")
		if fi, err := os.Lstat(src); err != nil || !fi.IsDir() {
			continue
		}
		acct := strings.SplitN(filepath.Base(d), ".moved-", 2)[0]
		accountDir := ""
		if account.ValidateName(acct) == nil && o.AccountDir != nil {
			accountDir = o.AccountDir(acct)
		}
		if accountDir == "" {
			continue // --force: rm was told to let it go with the worktree
		}
		base := filepath.Join(ArchiveDir(accountDir, r.Common, name), SetAsideDir, "projects")
		if err := os.MkdirAll(filepath.Dir(base), 0o700); err != nil {
			return notes, err
		}
		dst, err := moveAside(src, base, o.Now)
		if err != nil {
			return notes, fmt.Errorf("archiving %s: %w; nothing was removed", src, err)
		}
		if data, err := json.MarshalIndent(rec, "", "  "); err == nil {
			_ = fsx.WriteFile(filepath.Join(dst, conversation.RemovedFile), append(data, '\n'), 0o600)
		}
		notes = append(notes, fmt.Sprintf("kept the conversations of %s, set aside and not proven %s's, apart in %s ('claude-account resume ID --unverified' continues one)", d, acct, dst))
	}
	return notes, nil
}

// SetAsideDir holds, in a worktree's archive, the conversations of its
// runtimes set aside: apart from the account's own.
const SetAsideDir = "set-aside"

// moveAside moves the directory src to base, or — when base is taken, by an
// earlier archive or one made at the same moment — to the first free of
// base-<time>, base-<time>-2, …: an archive is never merged into or written
// over, and only a move that happened is reported.
func moveAside(src, base string, now time.Time) (string, error) {
	stamp := base + "-" + now.UTC().Format("20060102T150405Z")
	for i := 0; i < 1000; i++ {
		dst := base
		switch {
		case i == 1:
			dst = stamp
		case i > 1:
			dst = fmt.Sprintf("%s-%d", stamp, i)
		}
		if _, err := os.Lstat(dst); err == nil {
			continue
		}
		err := fsx.Rename(src, dst)
		switch {
		case err == nil:
			return dst, nil
		case errors.Is(err, os.ErrExist) || errors.Is(err, syscall.ENOTEMPTY):
			continue // made since the Lstat: take the next name
		case errors.Is(err, syscall.EXDEV):
			if err := copyTree(src, dst); err != nil {
				return "", err
			}
			return dst, nil
		default:
			return "", err
		}
	}
	return "", fmt.Errorf("%s and 999 names after it are taken; move some of them away", base)
}

// copyTree copies a directory across file systems (rename cannot): dirs
// and regular files; a link is dropped, never followed.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o700)
		case d.Type().IsRegular():
			return copyFile(p, target)
		}
		return nil
	})
}

// copyFile copies the regular file src to dst with its mode, refusing to
// open src through a link (one swapped in after it was listed).
func copyFile(src, dst string) error { return fsx.CopyFile(src, dst) }

// unfoundAccount is the first runtime under gitDir holding transcripts whose
// account's dir o.AccountDir cannot find, and that account's name.
func unfoundAccount(gitDir string, o RemoveOptions) (runtime, acct string) {
	if gitDir == "" {
		return "", ""
	}
	parent := filepath.Join(gitDir, configdir.DirName)
	des, _ := os.ReadDir(parent)
	for _, de := range des {
		if !de.IsDir() || account.ValidateName(de.Name()) != nil {
			continue
		}
		rt := filepath.Join(parent, de.Name())
		if fi, err := os.Lstat(filepath.Join(rt, "projects")); err != nil || !fi.IsDir() {
			continue
		}
		if o.AccountDir == nil || o.AccountDir(de.Name()) == "" {
			return rt, de.Name()
		}
	}
	return "", ""
}

// liveElsewhere is the work tree the account's record says a runtime in the
// git dir admin was made for, when it is not path (the checkout git
// records, which is gone) and is there, naming admin back: git's record was
// changed under it (a planted gitdir), and pruning would cut the live
// worktree from git. "" when there is none.
func liveElsewhere(admin, path string, o RemoveOptions) string {
	parent := filepath.Join(admin, configdir.DirName)
	des, _ := os.ReadDir(parent)
	for _, de := range des {
		if !de.IsDir() || account.ValidateName(de.Name()) != nil || o.AccountDir == nil {
			continue
		}
		rt := runtimes.Check(o.AccountDir(de.Name()), filepath.Join(parent, de.Name()))
		if wt := rt.Place.Worktree; rt.Made && rt.Known && wt != path && runtimes.NamesGitDir(wt, admin) {
			return wt
		}
	}
	return ""
}

// adminDir finds the git dir (<common>/worktrees/<name>) of the worktree at
// path from its gitdir file, which still exists after the worktree's own
// directory is gone; "" when there is none.
func (r *Repo) adminDir(path string) string {
	dirs, _ := filepath.Glob(filepath.Join(r.Common, "worktrees", "*", "gitdir"))
	for _, f := range dirs {
		data, err := os.ReadFile(f)
		if err == nil && filepath.Dir(strings.TrimSpace(string(data))) == path {
			return filepath.Dir(f)
		}
	}
	return ""
}

// unfoundAsideAccount is the first runtime set aside under gitDir
// (claude-runtime/<account>.moved-<time>) holding conversations whose
// account's dir o.AccountDir cannot find, and that account's name.
func unfoundAsideAccount(gitDir string, o RemoveOptions) (string, string) {
	for _, d := range asides(gitDir) {
		acct := strings.SplitN(filepath.Base(d), ".moved-", 2)[0]
		if files, _ := filepath.Glob(filepath.Join(d, "projects", "*", "*.jsonl")); len(files) == 0 {
			continue
		}
		if account.ValidateName(acct) != nil || o.AccountDir == nil || o.AccountDir(acct) == "" {
			return d, acct
		}
	}
	return "", ""
}

// asides are the runtimes set aside under gitDir, real dirs.
func asides(gitDir string) []string {
	if gitDir == "" {
		return nil
	}
	var out []string
	dirs, _ := filepath.Glob(filepath.Join(gitDir, configdir.DirName, "*.moved-*"))
	for _, d := range dirs {
		if fi, err := os.Lstat(d); err == nil && fi.IsDir() {
			out = append(out, d)
		}
	}
	return out
}
