package worktree

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/fsx"
)

// asideMark joins, in the name of a dir of copies set aside, the name of
// the dir of copies they were in and when they were set aside:
// kept-<fingerprint>-diverged-<time>.
const asideMark = "-diverged-"

// setAside moves the account's copy dst (in the dir of copies copies) of
// the runtime's file src, as KeepCopies checked it (fi), out of the way of
// the new one, into a dir of copies beside copies named for now, with the
// same record of the worktree, when src does not hold every byte of it. A
// hard link breaks when the runtime's file is replaced (an older backup
// restored with tar or rsync, then continued): the copy is then the only
// place the turns after the backup are, and linking the new file over it
// would lose them. Set aside, it is still a transcript the account keeps,
// which sessions lists (as diverged from the runtime's, by its bytes) and
// resume names. A copy src begins with (the same conversation, only behind: a
// copy where links fail), or an empty one, is replaced; so is any file but
// a transcript (a side dir's tool results and metadata, which Claude may
// rewrite whole: setting each aside would pile up dirs for nothing).
func setAside(accountDir, copies, dst, src string, fi fs.FileInfo, now time.Time) error {
	if !strings.HasSuffix(dst, ".jsonl") {
		return nil
	}
	old, err := os.Lstat(dst)
	if err != nil || !old.Mode().IsRegular() || old.Size() == 0 || os.SameFile(old, fi) {
		return nil
	}
	if o, ok := conversation.ByPrefix(dst, src, true); ok && o != conversation.Newer {
		return nil
	}
	rel, err := filepath.Rel(copies, dst)
	if err != nil || strings.HasPrefix(rel, "..") {
		return fmt.Errorf("%s is not inside %s", dst, copies)
	}
	aside := copies + asideMark + now.UTC().Format("20060102T150405.000000000Z")
	if err := mkdirIn(accountDir, filepath.Dir(filepath.Join(aside, rel))); err != nil {
		return err
	}
	if _, err := os.Lstat(filepath.Join(aside, conversation.RemovedFile)); err != nil {
		rec, err := fsx.ReadFileNoFollow(filepath.Join(copies, conversation.RemovedFile), 1<<20)
		if err != nil {
			return err
		}
		if err := fsx.WriteFile(filepath.Join(aside, conversation.RemovedFile), rec, 0o600); err != nil {
			return err
		}
	}
	return fsx.Rename(dst, filepath.Join(aside, rel))
}

// keptOf is the dir of copies d was set aside from (setAside), or d.
func keptOf(d string) string {
	if before, _, ok := strings.Cut(filepath.Base(d), asideMark); ok {
		return filepath.Join(filepath.Dir(d), before)
	}
	return d
}

// heldBy reports whether the file at to (tfi, as Lstat saw it) holds every
// byte of the account's copy at p (fi): the same file, or one beginning with
// all of it (conversation.ByPrefix; of a transcript, whole lines); an empty
// copy holds nothing to lose.
func heldBy(p string, fi fs.FileInfo, to string, tfi fs.FileInfo) bool {
	if !tfi.Mode().IsRegular() {
		return false
	}
	if fi.Size() == 0 || os.SameFile(fi, tfi) {
		return true
	}
	o, ok := conversation.ByPrefix(p, to, strings.HasSuffix(p, ".jsonl"))
	return ok && o != conversation.Newer
}
