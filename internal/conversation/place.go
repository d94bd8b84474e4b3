package conversation

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/claude-account/claude-account/internal/fsx"
)

// Placed says what Place did.
type Placed struct {
	Path     string // the transcript where Claude finds it now
	Already  bool   // it was there already, as it is
	Replaced string // an older copy kept aside under this name, "" when none
	// Kept says the source stayed although Place was asked to move it:
	// Claude's cleanup would have deleted the only copy (Due).
	Kept bool
}

// Place puts the transcript of c where a Claude with config dir configDir,
// started in a directory whose project key is key (KeyFor), finds it for
// --resume and --continue: configDir/projects/<key>/<id>.jsonl, with its
// <id>/ dir (tool results, subagents) beside it. It copies (keeping the
// modification time the pickers sort by); with move, the source goes, as a
// restore from the archive does. Nothing is overwritten: an older copy there
// (left by an earlier handoff: its messages are all in c's) is kept aside as
// <id>.jsonl.replaced-<time>, one that holds all of c's is resumed as it is,
// and one continued apart from c (each has turns the other lacks) is a
// *DivergedError: neither is written over.
//
// A transcript older than Claude keeps untouched ones (keep, as Keep reads
// it; Due) would be deleted by Claude's cleanup as it starts: the copy gets
// the time now, and the source stays even with move, so that it is never
// the only copy.
func Place(c Conversation, configDir, key string, move bool, now time.Time, keep time.Duration) (Placed, error) {
	dir := filepath.Join(configDir, "projects", key)
	dst := filepath.Join(dir, c.ID+".jsonl")
	if fsx.SameFile(c.Transcript, dst) {
		return Placed{Path: dst, Already: true}, Refresh(dst, now, keep)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Placed{}, err
	}
	p := Placed{Path: dst}
	if fi, err := os.Lstat(dst); err == nil {
		if !fi.Mode().IsRegular() {
			return Placed{}, fmt.Errorf("%s is %s, not a transcript; remove it and resume again", dst, fsx.Kind(fi.Mode()))
		}
		// Which is newer is what their messages say (Compare), not their
		// times: a copy keeps its source's, and clocks tie.
		switch o, err := CompareFiles(c.Transcript, dst); {
		case err != nil:
			return Placed{}, err
		case o == Diverged:
			return Placed{}, &ApartError{ID: c.ID, Here: dst, There: c.Transcript}
		case o != Newer:
			return Placed{Path: dst, Already: true}, Refresh(dst, now, keep)
		}
		p.Replaced = dst + ".replaced-" + now.UTC().Format("20060102T150405Z")
		if err := fsx.Rename(dst, p.Replaced); err != nil {
			return Placed{}, err
		}
	}
	if fi, err := os.Stat(c.Transcript); err == nil && Due(fi.ModTime(), now, keep) {
		p.Kept, move = move, false
	}
	if err := fsx.CopyFile(c.Transcript, dst); err != nil {
		return Placed{}, err
	}
	side := strings.TrimSuffix(c.Transcript, ".jsonl")
	if fi, err := os.Lstat(side); err == nil && fi.IsDir() {
		if err := copyTree(side, filepath.Join(dir, c.ID)); err != nil {
			return p, err
		}
	}
	if err := Refresh(dst, now, keep); err != nil {
		return p, err
	}
	if move {
		if err := os.Remove(c.Transcript); err != nil {
			return p, err
		}
		_ = os.RemoveAll(side)
	}
	return p, nil
}

// copyTree copies the regular files of a dir tree that dst lacks; links are
// left out, never followed.
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
		case !d.Type().IsRegular():
			return nil
		}
		if _, err := os.Lstat(target); err == nil {
			return nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return fsx.CopyFile(p, target)
	})
}

// ApartError is Place refusing to write over a copy continued apart from the
// one it was to put there.
type ApartError struct {
	ID, Here, There string
}

func (e *ApartError) Error() string {
	return fmt.Sprintf("the copy of conversation %s at %s and the one at %s were continued apart, each with turns the other lacks, and neither is written over; pick the one to continue with 'claude-account resume %s --copy PATH' (a path of the two)", e.ID, e.Here, e.There, e.ID)
}
