package worktree

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitctx"
)

// repoKey names a repository in the archive by its identity, never by a
// directory name alone: two repositories whose main worktrees share a name
// (~/p1/app, ~/p2/app) are two archives, and a worktree made in one never
// receives the other's conversations. It is the repository's name (the main
// worktree's dir, else the git dir without .git) for people, then the
// fingerprint of its canonical common git dir. Pure: the launch path asks it
// too (the common dir it is given is canonical).
func repoKey(common string) string {
	common = filepath.Clean(common)
	name := strings.TrimSuffix(filepath.Base(common), ".git")
	if filepath.Base(common) == ".git" {
		name = filepath.Base(filepath.Dir(common))
	}
	return name + "-" + gitctx.Fingerprint(common)
}

// ArchiveDir is where rm keeps an account's transcripts of the worktree
// name of the repository whose common git dir is common:
// <account dir>/archive/<repo>-<fingerprint>/<name>/projects (then
// projects-<time>…), each with a record of the worktree removed
// (conversation.RemovedFile). Archives an earlier version kept under the
// repository's name alone are never restored by name: 'claude-account
// sessions --all' lists them, 'claude-account resume ID' continues one.
func ArchiveDir(accountDir, common, name string) string {
	return filepath.Join(accountDir, "archive", repoKey(common), name)
}

// RestoreTranscripts gives a linked worktree the transcripts archived when
// an earlier worktree of the same name was removed: they go from ArchiveDir
// into configDir/projects, where claude --resume looks, the newest archive
// first. A transcript the config dir already has a file of the same name
// for stays in the archive; nothing is overwritten. One that Claude's
// cleanup would soon delete (conversation.Due: older than cleanupPeriodDays
// less a week) is copied with the time now, and the archive keeps its own:
// Claude never holds the only copy of an old conversation. Run with the
// instance lock held, before Claude starts. Without an archive it costs one
// failed open.
func RestoreTranscripts(ctx gitctx.Context, account, accountDir, configDir string, now time.Time) ([]string, error) {
	if ctx.Kind != gitctx.Linked || accountDir == "" || configDir == "" {
		return nil, nil
	}
	name := filepath.Base(ctx.Toplevel)
	dir := ArchiveDir(accountDir, ctx.CommonDir, name)
	if !ownDirs(accountDir, dir) {
		return nil, nil
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil
	}
	var srcs []string
	for _, de := range des {
		if de.IsDir() && (de.Name() == "projects" || strings.HasPrefix(de.Name(), "projects-")) {
			srcs = append(srcs, de.Name())
		}
	}
	// The later projects-<time>… newest first, then projects (the first
	// archive): an older copy of a conversation, kept in an earlier archive,
	// never stands in for the newer one.
	sort.Slice(srcs, func(i, j int) bool {
		return srcs[j] == "projects" || srcs[i] != "projects" && srcs[i] > srcs[j]
	})
	var notes []string
	dst := filepath.Join(configDir, "projects")
	m := merge{now: now, keep: conversation.Keep(configDir, accountDir)}
	for _, s := range srcs {
		src := filepath.Join(dir, s)
		// The record of the removed worktree is the archive's, not Claude's:
		// it stays until the transcripts have all gone back.
		rec := filepath.Join(src, conversation.RemovedFile)
		data, _ := os.ReadFile(rec)
		_ = os.Remove(rec)
		n, err := m.into(src, dst)
		if n.kept > 0 || n.copied > 0 || n.present > 0 || err != nil {
			if data != nil {
				_ = fsx.WriteFile(rec, data, 0o600)
			}
		}
		if err != nil {
			return notes, fmt.Errorf("restoring the transcripts archived in %s: %w; they stay there", src, err)
		}
		if n.moved+n.copied > 0 {
			notes = append(notes, fmt.Sprintf("restored %s's transcripts of an earlier worktree %s from %s", account, name, src))
		}
		if n.copied > 0 {
			notes = append(notes, fmt.Sprintf("kept %d of them in %s too: older than Claude keeps untouched transcripts (cleanupPeriodDays), they were put back dated now", n.copied, src))
		}
		if n.kept > 0 {
			notes = append(notes, fmt.Sprintf("kept %d archived transcript(s) in %s: the worktree has files of the same name", n.kept, src))
		}
	}
	// Emptied archives go, up to the repository's; anything left stays.
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if os.Remove(d) != nil {
			break
		}
	}
	return notes, nil
}

// ownDirs reports whether every dir from below accountDir down to dir is a
// real directory inside it, none a link: transcripts are restored only from
// the account's own archive, the one rm wrote, never from wherever a link
// in its place points.
func ownDirs(accountDir, dir string) bool {
	rel, err := filepath.Rel(accountDir, dir)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	p := accountDir
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// merge moves archived transcripts back where Claude looks.
type merge struct {
	now  time.Time
	keep time.Duration // how long Claude keeps untouched transcripts (conversation.Keep)
}

// merged counts what into did with the files of an archive.
// merged counts what into did: files moved, copied (kept in the archive
// too), kept (the worktree has another file of that name), and present
// (the worktree has this one already: an earlier copy, maybe continued).
type merged struct{ moved, copied, kept, present int }

// into moves every regular file under src to the same place under dst,
// unless dst has something there (then it stays in src); a file Claude's
// cleanup would soon delete is copied instead, dated now, and stays in src
// too. Emptied directories of src are removed; links are left where they
// are. Each file is moved by itself, never the dir whole: a file moved gets
// a new change time, which tells the after-exit pass it came back in this
// session (the launch's doing), so that the account keeps its copy of it
// again (KeepCopies).
func (m merge) into(src, dst string) (n merged, err error) {
	var dirs []string
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			dirs = append(dirs, p)
			return nil
		case !d.Type().IsRegular():
			return nil
		}
		if tfi, err := os.Lstat(target); err == nil {
			// A transcript copied back before (dated then, and only ever
			// appended to since) is no conflict to report at every launch.
			if fi, err := d.Info(); err == nil && tfi.Mode().IsRegular() && tfi.Size() >= fi.Size() && !tfi.ModTime().Before(fi.ModTime()) {
				n.present++
			} else {
				n.kept++
			}
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
			return err
		}
		if fi, err := d.Info(); err == nil && conversation.Due(fi.ModTime(), m.now, m.keep) {
			if err := copyFile(p, target); err != nil {
				return err
			}
			n.copied++
			return os.Chtimes(target, m.now, m.now)
		}
		if err := moveFile(p, target); err != nil {
			return err
		}
		n.moved++
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = os.Remove(dirs[i]) // only when empty
	}
	return n, err
}

// moveFile renames a file, or copies and removes it across file systems
// (the account dir and the git dir may be on different ones).
func moveFile(src, dst string) error {
	err := fsx.Rename(src, dst)
	if !errors.Is(err, syscall.EXDEV) {
		return err
	}
	if err := copyFile(src, dst); err != nil {
		return err
	}
	return os.Remove(src)
}
