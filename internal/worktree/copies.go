package worktree

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode"

	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitcmd"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/runtimes"
)

// A runtime lives in the worktree's git dir, and `rm -rf` of the worktree
// then `git worktree prune` (which `git gc` runs once the admin dir is three
// months old) deletes it, and every conversation in it, without a trace. So
// the account keeps its own name for each transcript a launcher's Claude
// wrote: a hard link (no disk, and it follows every turn Claude appends in
// place), or a copy where the file system refuses one. They are kept in
// the account's archive beside what worktree rm archives,
// <account dir>/archive/<repo>/<worktree>/kept-<fingerprint of the
// runtime dir>/projects/<key>/<id>.jsonl, with the record of where the
// worktree was (conversation.RemovedFile), so that sessions lists them and
// resume makes the worktree again, as for a removed one.

// KeptPrefix begins the name of a dir of kept copies in a worktree's archive.
const KeptPrefix = conversation.KeptPrefix

// CopiesDir is where the account in accountDir keeps its copies of the
// transcripts of the runtime dir runtime, of the repository whose common git
// dir is common: in the archive of the worktree by the name git gives it
// (its admin dir's, <common>/worktrees/<name>, as worktree rm archives it;
// the repository's for the main worktree), which stays when the worktree
// is moved, and then by the runtime dir's fingerprint.
func CopiesDir(accountDir, common, runtime string) string {
	name := filepath.Base(rootOf(common))
	if admin := filepath.Dir(filepath.Dir(runtime)); filepath.Base(filepath.Dir(admin)) == "worktrees" {
		name = filepath.Base(admin)
	}
	return filepath.Join(ArchiveDir(accountDir, common, name), KeptPrefix+gitctx.Fingerprint(runtime))
}

// Unkept is a transcript of a runtime the account holds no current copy of.
type Unkept struct {
	Src, Dst string // the runtime's transcript, the account's copy
	info     fs.FileInfo
}

// FindUnkept lists the transcripts of the runtime dir runtime whose copy in
// copiesDir() (CopiesDir, asked only when there is a transcript) is missing
// or stale, and that a Claude the launcher started wrote: changed after
// since (the session's start, Unix nanoseconds; 0: none is); and, on the
// first pass for a runtime made before copies were kept (first: the
// account's record does not say Kept), those not changed since the
// launcher last left the runtime alone (quiet, as the record said before
// this session). One changed between the two came from elsewhere (an
// archive extracted over the checkout, runtimes.ChangedSince) and is left
// out, also later: the quiet time moves on at the end of a session, past
// it, so only the first pass may trust it (KeepCopies then marks the
// runtime Kept, whatever it found). It takes no lock and writes nothing: a
// later session costs a stat of each transcript, and of the copy of each
// it changed. touched says a transcript changed in this session (the
// record beside the copies may need its branch brought up to date:
// RecordStale).
func FindUnkept(runtime string, copiesDir func() string, since int64, first bool, quiet int64) (todo []Unkept, touched bool) {
	root := filepath.Join(runtime, "projects")
	keys, err := readRealDir(root)
	if err != nil || len(keys) == 0 {
		return nil, false
	}
	copies := copiesDir()
	for _, k := range keys {
		if !k.IsDir() {
			continue
		}
		files, err := readRealDir(filepath.Join(root, k.Name()))
		if err != nil {
			continue
		}
		for _, f := range files {
			n := f.Name()
			if !f.Type().IsRegular() || !IsTranscriptName(n) {
				continue
			}
			fi, err := f.Info()
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			if ct := runtimes.Ctime(fi); since == 0 || ct <= since {
				// Not changed in this session: taken only on the first
				// pass, so its copy is not even looked at on later ones.
				if !first || quiet == 0 || ct > quiet {
					continue // not proven the launcher's
				}
			} else {
				touched = true
			}
			dst := filepath.Join(copies, "projects", k.Name(), n)
			if !current(fi, dst) {
				todo = append(todo, Unkept{Src: filepath.Join(root, k.Name(), n), Dst: dst, info: fi})
			}
			// Its side dir (<id>/: subagents' transcripts, tool results),
			// which Claude writes only in a session that appends to the
			// transcript: looked at only when the transcript is taken.
			id := strings.TrimSuffix(n, ".jsonl")
			todo = append(todo, sideUnkept(filepath.Join(root, k.Name(), id), filepath.Join(copies, "projects", k.Name(), id), since, first, quiet)...)
		}
	}
	return todo, touched
}

// sideUnkept is FindUnkept's rule for the files of a transcript's side dir
// src, copied to dst; links and what is below them are left out.
func sideUnkept(src, dst string, since int64, first bool, quiet int64) []Unkept {
	if fi, err := os.Lstat(src); err != nil || !fi.IsDir() {
		return nil
	}
	var todo []Unkept
	_ = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		if ct := runtimes.Ctime(fi); since == 0 || ct <= since {
			if !first || quiet == 0 || ct > quiet {
				return nil
			}
		}
		rel, _ := filepath.Rel(src, p)
		if to := filepath.Join(dst, rel); !current(fi, to) {
			todo = append(todo, Unkept{Src: p, Dst: to, info: fi})
		}
		return nil
	})
	return todo
}

// IsTranscriptName reports whether n is a conversation's transcript as
// Find lists them: <id>.jsonl, not a subagent's own (agent-*.jsonl, 2.0.77).
func IsTranscriptName(n string) bool {
	return strings.HasSuffix(n, ".jsonl") && !strings.HasPrefix(n, "agent-") && !strings.HasPrefix(n, ".")
}

// current reports whether dst is the account's current copy of the file
// src is: the same file (a hard link), or a copy of the same size and time.
func current(src fs.FileInfo, dst string) bool {
	fi, err := os.Lstat(dst)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return os.SameFile(src, fi) || fi.Size() == src.Size() && fi.ModTime().Equal(src.ModTime())
}

// Kept says what KeepCopies did.
type Kept struct {
	Linked, Copied int
	// Why the links failed, when some were copied instead (EXDEV: the
	// account dir is on another file system).
	CopiedWhy string
	// First: the copies of this runtime began now (their record was
	// written for the first time): what to say of them is said once.
	First   bool
	Expired int
}

// KeepCopies makes the account's copies of the transcripts FindUnkept
// listed, under the account's lock (the caller holds it): only when the
// account's record says the launcher made runtime for this account
// (runtimes.Check: Made), each as a hard link, else a copy with its time
// (mode 0600 either way), with the record of where the worktree is beside
// them (brought up to date also when refresh asks, RecordStale); a copy
// holding bytes the runtime's file lacks is set aside first, never
// replaced (setAside); then it
// marks the runtime Kept (the first pass is over, also when
// it found none). Then copies past Claude's retention go (ExpireCopies).
func KeepCopies(accountDir, runtime, copies string, todo []Unkept, refresh bool, now time.Time, keep time.Duration) (Kept, error) {
	var k Kept
	rt := runtimes.Check(accountDir, runtime)
	if (len(todo) > 0 || refresh) && rt.Made && rt.Place.CommonDir != "" && rt.Place.Worktree != "" {
		if err := mkdirIn(accountDir, copies); err != nil {
			return k, err
		}
		first, err := writeKeptRecord(copies, rt)
		if err != nil {
			return k, err
		}
		k.First = first
		for _, u := range todo {
			fi, err := os.Lstat(u.Src)
			if err != nil || !os.SameFile(fi, u.info) || !fi.Mode().IsRegular() {
				continue // gone or replaced since it was listed
			}
			if err := mkdirIn(accountDir, filepath.Dir(u.Dst)); err != nil {
				return k, err
			}
			if err := setAside(accountDir, copies, u.Dst, u.Src, fi, now); err != nil {
				return k, fmt.Errorf("setting aside the copy %s, which holds what %s lacks: %w", u.Dst, u.Src, err)
			}
			err = fsx.HardLink(u.Src, u.Dst, fi)
			switch {
			case err == nil:
				k.Linked++
				err = private(u.Dst)
			case fsx.CannotLink(err):
				if k.CopiedWhy == "" {
					k.CopiedWhy = err.Error()
				}
				if err = fsx.CopyFile(u.Src, u.Dst); err == nil {
					k.Copied++
					err = private(u.Dst)
				}
			}
			if err != nil {
				return k, fmt.Errorf("keeping a copy of %s in %s: %w", u.Src, u.Dst, err)
			}
		}
	}
	if rt.Made && !rt.Kept {
		if err := runtimes.MarkKept(runtimes.Path(accountDir), runtime); err != nil {
			return k, err
		}
	}
	n, err := ExpireCopies(accountDir, now, keep, false)
	k.Expired = len(n)
	return k, err
}

// private takes group's and others' access from the file at path (a link
// shares the runtime transcript's mode), never through a link.
func private(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Mode().Perm()&0o077 == 0 {
		return err
	}
	return f.Chmod(fi.Mode().Perm() &^ 0o077)
}

// writeKeptRecord writes where the runtime's worktree is (conversation.Removed)
// beside its copies, when it says anything new: resume makes the worktree
// again from it once git forgot it. Its branch is read from the worktree's
// own HEAD in its git dir, no git run.
func writeKeptRecord(copies string, rt runtimes.Runtime) (first bool, err error) {
	rec := conversation.Removed{Path: rt.Place.Worktree, CommonDir: rt.Place.CommonDir, Root: rootOf(rt.Place.CommonDir), Vouched: rt.Known}
	if head, err := fsx.ReadFileNoFollow(filepath.Join(rt.Place.GitDir, "HEAD"), 4096); err == nil && rt.Place.GitDir != "" {
		rec.Branch, rec.Head = headOf(head)
	}
	old := conversation.ReadRemoved(copies)
	if old != nil {
		if rec.Branch == "" && rec.Head == "" {
			rec.Branch, rec.Head = old.Branch, old.Head
		}
		rec.RemovedAt = old.RemovedAt
		if *old == rec {
			return false, nil
		}
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return false, err
	}
	_, err = fsx.WriteIfChanged(filepath.Join(copies, conversation.RemovedFile), append(data, '\n'), 0o600)
	return old == nil, err
}

// RecordStale reports whether the record beside the copies in copies is
// missing or names another branch or commit than the worktree's HEAD in its
// git dir gitDir says now: resume makes the worktree again from it.
func RecordStale(copies, gitDir string) bool {
	rec := conversation.ReadRemoved(copies)
	if rec == nil {
		return true
	}
	head, err := fsx.ReadFileNoFollow(filepath.Join(gitDir, "HEAD"), 4096)
	if err != nil {
		return false
	}
	b, oid := headOf(head)
	return (b != "" || oid != "") && (b != rec.Branch || oid != rec.Head)
}

// headOf reads a worktree's HEAD file (the repository's, so anything): the
// branch it is on, when that is a valid branch name, or the commit it is
// detached at.
func headOf(data []byte) (branch, oid string) {
	h := strings.TrimSpace(string(data))
	if b, ok := strings.CutPrefix(h, "ref: refs/heads/"); ok {
		if gitcmd.CheckRefName("refs/heads/"+b) == nil && !strings.HasPrefix(b, "-") && !strings.ContainsFunc(b, unicode.IsControl) {
			return b, ""
		}
		return "", ""
	}
	if validOID(h) {
		return "", h
	}
	return "", ""
}

// rootOf is the repository a common git dir belongs to (conversation's rule).
func rootOf(common string) string {
	if filepath.Base(common) == ".git" {
		return filepath.Dir(common)
	}
	return common
}

// mkdirIn makes dir, inside accountDir, 0700, and fails when any part of it
// below accountDir is a link: the copies are written only into the
// account's own dirs.
func mkdirIn(accountDir, dir string) error {
	rel, err := filepath.Rel(accountDir, dir)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return fmt.Errorf("%s is not inside the account dir %s", dir, accountDir)
	}
	if l := fsx.LinkIn(accountDir, rel); l != "" {
		return fmt.Errorf("%s is a link; remove it (the account keeps its copies of conversations below it)", filepath.Join(accountDir, l))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if l := fsx.LinkIn(accountDir, rel); l != "" {
		return fmt.Errorf("%s is a link; remove it (the account keeps its copies of conversations below it)", filepath.Join(accountDir, l))
	}
	return nil
}

// absorbTree moves each regular file under src to the same place under dst
// when dst has none, else removes it when dst's holds all of it (the same
// file, or one beginning with every byte of it: heldBy); one holding bytes
// dst's lacks (an older backup restored over the runtime's with tar or
// rsync, which broke the link) stays, listed apart; emptied dirs of src
// go. Links are left, never followed.
func absorbTree(src, dst string) error {
	var dirs []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if tfi, err := os.Lstat(to); err == nil {
			if fi, err := d.Info(); err == nil && heldBy(p, fi, to, tfi) {
				return os.Remove(p)
			}
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
			return err
		}
		return moveFile(p, to)
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = os.Remove(dirs[i]) // only when empty
	}
	return err
}

// readRealDir lists dir, which must be a directory and no link.
func readRealDir(dir string) ([]os.DirEntry, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	return os.ReadDir(dir)
}

// absorbCopies folds the account's copies of the runtime dir runtime into
// dst, the archive rm just moved its transcripts to: a copy of a transcript
// dst has is the same conversation (the same file, when linked) and goes;
// one dst lacks (the runtime's own was deleted since) moves in. So a
// removed worktree's conversations are kept, and listed, once.
func absorbCopies(accountDir, runtime, dst string) error {
	dirs, _ := filepath.Glob(filepath.Join(accountDir, "archive", "*", "*", KeptPrefix+gitctx.Fingerprint(runtime)))
	for _, d := range dirs {
		rel, _ := filepath.Rel(accountDir, d)
		if fsx.LinkIn(accountDir, rel) != "" {
			continue
		}
		if fi, err := os.Lstat(filepath.Join(d, "projects")); err == nil && fi.IsDir() {
			if err := absorbTree(filepath.Join(d, "projects"), dst); err != nil {
				return err
			}
		}
		pruneEmpty(d, false)
	}
	return nil
}
