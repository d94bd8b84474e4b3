package conversation

import (
	"bytes"
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
// (left by an earlier handoff) is kept aside as <id>.jsonl.replaced-<time>,
// and a newer one is resumed as it is.
//
// A transcript older than Claude keeps untouched ones (keep, as Keep reads
// it; Due) would be deleted by Claude's cleanup as it starts: the copy gets
// the time now, and the source stays even with move, so that it is never
// the only copy.
func Place(c Conversation, configDir, key string, move bool, now time.Time, keep time.Duration) (Placed, error) {
	dir := filepath.Join(configDir, "projects", key)
	dst := filepath.Join(dir, c.ID+".jsonl")
	if same(c.Transcript, dst) {
		return Placed{Path: dst, Already: true}, Refresh(dst, now, keep)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Placed{}, err
	}
	p := Placed{Path: dst}
	if fi, err := os.Lstat(dst); err == nil {
		src, err := os.Stat(c.Transcript)
		if err != nil {
			return Placed{}, err
		}
		if !fi.Mode().IsRegular() {
			return Placed{}, fmt.Errorf("%s is %s, not a transcript; remove it and resume again", dst, fsx.Kind(fi.Mode()))
		}
		if equalFiles(c.Transcript, dst) || !src.ModTime().After(fi.ModTime()) {
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

// same reports whether a and b are one file.
func same(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// equalFiles reports whether a and b hold the same bytes.
func equalFiles(a, b string) bool {
	x, err := os.ReadFile(a)
	if err != nil {
		return false
	}
	y, err := os.ReadFile(b)
	return err == nil && bytes.Equal(x, y)
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
