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
	"github.com/claude-account/claude-account/internal/shell"
)

// RemoveOptions are the settings of Remove.
type RemoveOptions struct {
	Force bool
	// Running names the accounts whose launcher-started Claude holds a
	// lock on a worktree.
	Running func(toplevel string) []string
	// Claudes gives the PIDs of live Claude processes that work in a
	// worktree however they were started (claude -w, an agent's isolated
	// worktree): see package claudeproc. Its error says it cannot tell (a
	// Claude runs whose working directory cannot be read): then only Force
	// removes. nil: none are looked for.
	Claudes func(path string) ([]int, error)
	// AccountDir is the dir of the account named name as a launch of it
	// finds it ("" when there is none): where a runtime's transcripts are
	// archived when the launcher made it for that account. nil: nothing is
	// archived.
	AccountDir func(name string) string
	Now        time.Time
}

// Removal says what Remove did, one line each.
type Removal struct {
	Path  string
	Notes []string
}

// ErrEmptyName is a worktree name that is empty or blank: it names none.
var ErrEmptyName = errors.New("the name is empty; give a worktree's name, path or branch ('claude-account worktree list' shows them)")

// Resolve finds a worktree by slug, path or branch, else by the name of its
// directory (a worktree made with plain git: git worktree add ../app-wt-a).
func (r *Repo) Resolve(name string) (*Entry, error) {
	if strings.TrimSpace(name) == "" {
		return nil, ErrEmptyName
	}
	entries, err := r.Entries()
	if err != nil {
		return nil, err
	}
	cands := []string{name}
	if ValidateSlug(name) == nil {
		cands = append(cands, r.PathFor(name))
	}
	for i := range entries {
		e := &entries[i]
		for _, c := range cands {
			if fsx.SamePath(e.Path, c) || filepath.IsAbs(c) && e.Path == c {
				return e, nil
			}
		}
		if e.Branch != "" && (e.Branch == name || e.Branch == Branch(name)) {
			return e, nil
		}
	}
	if !strings.ContainsRune(name, filepath.Separator) {
		var found []*Entry
		for i := range entries {
			e := &entries[i]
			if !e.Bare && !r.isMain(e) && filepath.Base(e.Path) == name {
				found = append(found, e)
			}
		}
		switch len(found) {
		case 1:
			return found[0], nil
		case 0:
		default:
			paths := make([]string, len(found))
			for i, e := range found {
				paths[i] = e.Path
			}
			return nil, fmt.Errorf("%s names %d worktrees (%s); give the path of the one to remove", name, len(found), strings.Join(paths, ", "))
		}
	}
	return nil, fmt.Errorf("no worktree %q in this repository; 'claude-account worktree list' shows them", name)
}

// RemoveError is a refusal: the worktree holds work that removal would lose.
type RemoveError struct{ msg string }

func (e *RemoveError) Error() string { return e.msg }

// Remove deletes a linked worktree without losing anything: it refuses
// uncommitted changes, commits found on no other branch or remote, and a
// running Claude, unless forced; forced, it first saves uncommitted work as a
// commit under refs/claude-account/wip/<name>. Claude's transcripts move to
// the account's archive. The branch goes only when everything on it is merged.
func (r *Repo) Remove(e *Entry, o RemoveOptions) (*Removal, error) {
	rm := &Removal{Path: e.Path}
	if e.Bare || r.isMain(e) {
		return nil, fmt.Errorf("%s is the main worktree; only linked worktrees can be removed", e.Path)
	}
	name := filepath.Base(e.Path)
	if o.Running != nil {
		if accts := o.Running(e.Path); len(accts) > 0 {
			// The close names the worktree: rm runs from anywhere in the repository.
			return nil, &RemoveError{fmt.Sprintf("claude (%s) runs in %s; stop it first ('claude-account close --account %s %s')", accts[0], e.Path, accts[0], shell.Quote(e.Path))}
		}
	}
	if o.Claudes != nil && !e.Prunable {
		pids, err := o.Claudes(e.Path)
		switch {
		case len(pids) > 0:
			return nil, &RemoveError{fmt.Sprintf("claude (PID %d) works in %s; let it finish or stop it (kill %d), then run rm again", pids[0], e.Path, pids[0])}
		case err != nil && !o.Force:
			// Not a guess either way: --force saves the work first.
			return nil, &RemoveError{fmt.Sprintf("cannot tell whether a Claude works in %s: %v; stop it, or remove anyway with 'claude-account worktree rm --force %s'", e.Path, err, shell.Quote(e.Path))}
		}
	}
	g := r.Git.In(e.Path)
	gitDir, _ := GitDir(e.Path)
	if gitDir == "" && e.Prunable {
		gitDir = r.adminDir(e.Path) // our record outlives the directory
	}
	m := ReadMeta(gitDir)
	base := r.defaultBase()
	if m != nil && m.Base != "" {
		base = m.Base
	}
	wipRef := "refs/claude-account/wip/" + name
	saved := "" // the ref that keeps the worktree's uncommitted work, once saved
	if !o.Force {
		// Before anything is saved or removed: what is archived goes to the
		// account the runtime is named for, found where a launch finds it.
		// One kept in a dir of its own (init --dir, --account-dir) this
		// removal was not told about would go with the worktree unarchived.
		if rt, acct := unfoundAccount(gitDir, o); rt != "" {
			return nil, &RemoveError{fmt.Sprintf("%s holds transcripts of account %s, whose dir this removal cannot find; if it is yours, name it (--account %s --account-dir DIR) to archive them there, else (it came with the repository) --force removes them with the worktree", rt, acct, acct)}
		}
		// A runtime set aside keeps conversations of an account whose dir
		// must be found to archive them, as for any runtime.
		if dir, acct := unfoundAsideAccount(gitDir, o); dir != "" {
			return nil, &RemoveError{fmt.Sprintf("%s, a runtime set aside, holds conversations of account %s, whose dir this removal cannot find; if it is yours, name it (--account %s --account-dir DIR) to archive them there, else --force removes them with the worktree", dir, acct, acct)}
		}
	}
	if e.Prunable {
		// Its directory is gone, but git's record of it (and the runtime
		// inside, with Claude's transcripts) is not: archive before pruning,
		// once nothing above refused.
		if admin := r.adminDir(e.Path); admin != "" {
			if live := liveElsewhere(admin, e.Path, o); live != "" {
				return nil, &RemoveError{fmt.Sprintf("git records %s as the checkout of %s, and it is gone, but claude-account made that worktree's runtime for %s, which is there and names that git dir: git's record changed (it came with the repository?); run 'git worktree repair' in %s", e.Path, admin, live, live)}
			}
			notes, err := r.archive(admin, filepath.Base(admin), o, r.removed(e, "", "", o))
			rm.Notes = append(rm.Notes, notes...)
			if err != nil {
				return nil, err
			}
		}
	}
	if !e.Prunable {
		// Before anything is saved: --force cannot save a nested
		// repository's work, so it must not say it did.
		if err := checkNested(g, e.Path); err != nil {
			var ne *NestedRepoError
			if errors.As(err, &ne) {
				return nil, &RemoveError{err.Error()}
			}
			return nil, err
		}
		dirty, err := uncommitted(g)
		if err != nil {
			return nil, err
		}
		if dirty > 0 && !o.Force {
			return nil, &RemoveError{fmt.Sprintf("%s has %d uncommitted change(s); commit them, or --force saves them under %s first", e.Path, dirty, wipRef)}
		}
		if e.HEAD != "" {
			n, err := unique(g, e.HEAD, e.Branch)
			if err != nil {
				return nil, err
			}
			if n > 0 && !o.Force {
				if ok, _ := contained(g, base, e.HEAD); !ok {
					keep := "branch " + e.Branch
					if e.Branch == "" {
						keep = wipRef + "-head"
					}
					return nil, &RemoveError{fmt.Sprintf("%s has %d commit(s) found on no other branch or remote; push or merge them, or --force keeps them reachable from %s", e.Path, n, keep)}
				}
			}
			if n > 0 && e.Branch == "" {
				// A detached HEAD has no branch to keep its commits alive.
				ref, err := keepRef(g, wipRef+"-head", e.HEAD, o.Now)
				if err != nil {
					return nil, err
				}
				rm.Notes = append(rm.Notes, fmt.Sprintf("kept %d detached commit(s) as %s", n, ref))
			}
		}
		if dirty > 0 {
			ref, err := saveWIP(g, e.HEAD, wipRef, o.Now)
			if err != nil {
				return nil, err
			}
			saved = ref
			// Commands that run from anywhere (the worktree is gone, and
			// checking out in the user's current worktree would move it).
			// worktree new puts back the newest saved work of its name, this
			// one, and drops the ref: the rescue applies until then.
			again := ""
			if m != nil && m.Slug != "" && fsx.SamePath(r.PathFor(m.Slug), e.Path) {
				again = fmt.Sprintf("'claude-account worktree new %s' puts it back in the worktree made again (and drops the ref), or until then ", shell.Quote(m.Slug))
			}
			rm.Notes = append(rm.Notes, fmt.Sprintf("saved uncommitted work as %s; %sget it back in a worktree of its own with: %s", ref, again, r.rescue(e.Path, ref)))
		}
		notes, err := r.archive(gitDir, name, o, r.removed(e, base, saved, o))
		rm.Notes = append(rm.Notes, notes...)
		if err != nil {
			return nil, err
		}
	}
	if _, err := r.Git.Run("worktree", "remove", "--force", "--", e.Path); err != nil {
		if !e.Prunable {
			return nil, err
		}
		if err := r.prune(e.Path); err != nil {
			return nil, err
		}
	}
	// Only a branch New made for this worktree goes with it: one the user
	// made (git worktree add -b, or a worktree-NAME branch New checked out
	// as it was) is theirs, merged or not.
	made := m != nil && m.MadeBranch && e.Branch == Branch(m.Slug)
	if e.Branch != "" && !made {
		rm.Notes = append(rm.Notes, "kept branch "+e.Branch+" (not made by claude-account)")
	}
	if made && e.HEAD != "" {
		merged, _ := contained(r.Git, base, e.HEAD)
		if merged {
			if _, err := r.Git.Run("branch", "-D", "--", e.Branch); err == nil {
				rm.Notes = append(rm.Notes, "deleted branch "+e.Branch+" (merged into "+base+")")
			}
		} else {
			rm.Notes = append(rm.Notes, "kept branch "+e.Branch+" (not merged into "+base+")")
		}
	}
	return rm, nil
}

func (r *Repo) isMain(e *Entry) bool {
	return !r.Bare && fsx.SamePath(e.Path, r.Root)
}

// saveWIP commits the working tree, untracked files included (ignored ones
// not, as git stash -u), without touching the index or HEAD: a temporary
// index is filled and written as a tree.
func saveWIP(g Git, head, ref string, now time.Time) (string, error) {
	tmp, err := os.CreateTemp("", "claude-account-wip-index-")
	if err != nil {
		return "", err
	}
	tmp.Close()
	os.Remove(tmp.Name()) // git wants to create the index itself
	defer os.Remove(tmp.Name())
	idx := []string{"GIT_INDEX_FILE=" + tmp.Name()}
	if head != "" {
		if _, err := g.run(idx, "read-tree", "--end-of-options", head); err != nil {
			return "", err
		}
	}
	if _, err := g.run(idx, "add", "--all"); err != nil {
		return "", err
	}
	tree, err := g.run(idx, "write-tree")
	if err != nil {
		return "", err
	}
	// --no-gpg-sign: commit.gpgSign in the repository's config would run
	// its gpg.program.
	args := []string{"commit-tree", "--no-gpg-sign", "-m", "claude-account: uncommitted work saved " + now.UTC().Format(time.RFC3339)}
	if head != "" {
		args = append(args, "-p", head)
	}
	commit, err := g.Run(append(args, strings.TrimSpace(tree))...)
	if err != nil {
		return "", err
	}
	return keepRef(g, ref, commit, now)
}

// keepRef points ref at oid, but never moves an existing ref (it may hold
// work saved by an earlier removal): then it uses ref-<time> instead. It
// returns the ref it wrote.
func keepRef(g Git, ref, oid string, now time.Time) (string, error) {
	// An empty old value makes update-ref create the ref or fail.
	if _, err := g.Run("update-ref", "-m", "claude-account worktree rm", ref, oid, ""); err == nil {
		return ref, nil
	}
	ref += "-" + now.UTC().Format("20060102T150405Z")
	_, err := g.Run("update-ref", "-m", "claude-account worktree rm", ref, oid, "")
	return ref, err
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

// removed is the record of the worktree e kept with its archived
// transcripts, so that 'claude-account resume' can make it again.
func (r *Repo) removed(e *Entry, base, saved string, o RemoveOptions) conversation.Removed {
	return conversation.Removed{Path: e.Path, Branch: e.Branch, Head: e.HEAD, Saved: saved, Base: base,
		Root: r.Root, CommonDir: r.Common, RemovedAt: o.Now.UTC()}
}

func (r *Repo) archive(gitDir, name string, o RemoveOptions, rec conversation.Removed) ([]string, error) {
	var notes []string
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
		rec.Vouched = false
		if p := runtimes.Check(accountDir, rt); p.Known {
			rec.Path, rec.Vouched = p.Place.Worktree, true
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
		err := os.Rename(src, dst)
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

// Idle reports whether a worktree holds no work: no uncommitted change and no
// commit beyond the one it was made from; else why not.
func (r *Repo) Idle(e *Entry, m *Meta) (bool, string) {
	g := r.Git.In(e.Path)
	dirty, err := uncommitted(g)
	if err != nil {
		return false, err.Error()
	}
	if dirty > 0 {
		return false, fmt.Sprintf("%d uncommitted change(s)", dirty)
	}
	head, err := g.Run("rev-parse", "HEAD")
	if err != nil {
		return false, err.Error()
	}
	if m != nil && m.BaseOID != "" && head != m.BaseOID {
		n, _, _ := aheadBehind(g, m.BaseOID, head)
		if n > 0 {
			return false, fmt.Sprintf("%d new commit(s)", n)
		}
	}
	return true, ""
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
