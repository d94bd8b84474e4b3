package configdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/runtimes"
)

// Apply carries out the steps in order. Large writes are staged first: each
// is written to its temporary file while its input is validated on another
// core, and only when every check has passed is anything changed, so a
// broken input still leaves everything as it was.
func (p *Plan) Apply() error {
	staged, err := p.stage()
	if err != nil {
		return err
	}
	for i, s := range p.Steps {
		var err error
		switch {
		case staged[i] != nil:
			err = staged[i].Commit()
			staged[i] = nil
		case s.Op == Mkdir:
			err = os.MkdirAll(s.Path, s.Mode)
		case s.Op == Link && s.Replace:
			err = fsx.ReplaceWithSymlink(s.Target, s.Path)
		case s.Op == Link:
			_, err = fsx.Symlink(s.Target, s.Path)
		case s.Op == Unlink:
			err = os.Remove(s.Path)
		case s.Op == Write && s.Pieces != nil:
			err = fsx.WriteSecretPieces(s.Path, s.Pieces)
		case s.Op == Write && s.Secret:
			err = fsx.WriteSecret(s.Path, s.Data)
		case s.Op == Write:
			err = fsx.WriteFile(s.Path, s.Data, s.Mode)
		case s.Op == Move:
			err = move(s.Path, s.Target)
		case s.Op == Copy:
			err = fsx.CopyFile(s.Path, s.Target)
		case s.Op == Register:
			err = runtimes.Register(s.Target, s.Path, s.Place)
		}
		if err != nil {
			discard(staged)
			return applyError(s, err)
		}
	}
	return nil
}

// Verify runs every step's check, for --dry-run and doctor: what Apply
// would refuse, they report.
func (p *Plan) Verify() error {
	for _, s := range p.Steps {
		if s.Check != nil {
			if err := s.Check(); err != nil {
				return err
			}
		}
	}
	return nil
}

// stage writes the checked steps to temporary files while their checks run.
// A step after one that makes or moves directories (a fresh runtime, whose
// input is empty anyway) is only checked here and written in its turn.
func (p *Plan) stage() (map[int]*fsx.Staged, error) {
	staged := map[int]*fsx.Staged{}
	checks := map[int]chan error{}
	reshaped := false // an earlier step makes or moves directories
	for i, s := range p.Steps {
		reshaped = reshaped || s.Op == Mkdir || s.Op == Move
		if s.Check == nil {
			continue
		}
		if reshaped {
			if err := s.Check(); err != nil {
				return nil, err
			}
			continue
		}
		ch := make(chan error, 1)
		go func(check func() error) { ch <- check() }(s.Check)
		checks[i] = ch
		st, err := fsx.StageSecret(s.Path, s.Pieces)
		if err != nil {
			for _, c := range checks {
				<-c
			}
			discard(staged)
			return nil, applyError(s, err)
		}
		staged[i] = st
	}
	var first error
	for _, ch := range checks {
		if err := <-ch; err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		discard(staged)
		return nil, first
	}
	return staged, nil
}

func discard(staged map[int]*fsx.Staged) {
	for _, st := range staged {
		if st != nil {
			st.Discard()
		}
	}
}

// applyError names the file a step was about (not renameio's temporary file)
// and, for a full disk, the fix.
func applyError(s Step, err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		switch errno {
		case syscall.ENOSPC, syscall.EDQUOT, syscall.EFBIG:
			return fmt.Errorf("writing %s: %v; free some disk space and run again (the file was not changed)", s.Path, errno)
		case syscall.EACCES, syscall.EPERM, syscall.EROFS:
			return fmt.Errorf("%s %s: %v; check that %s is yours and writable", s.Op, s.Path, errno, filepath.Dir(s.Path))
		case syscall.EISDIR:
			return fmt.Errorf("%s %s: it is a directory; remove it (claude-account writes a file there)", s.Op, s.Path)
		}
		return fmt.Errorf("%s %s: %v", s.Op, s.Path, errno)
	}
	return fmt.Errorf("%s %s: %w", s.Op, s.Path, err)
}

// move renames a file or directory; a file that must cross file systems (a
// runtime in the git dir, the account in HOME) is copied, synced, and removed.
func move(from, to string) error {
	err := fsx.Rename(from, to)
	if !errors.Is(err, syscall.EXDEV) {
		return err
	}
	fi, err := os.Lstat(from)
	if err != nil || !fi.Mode().IsRegular() {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EXDEV}
	}
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := fsx.WriteFile(to, data, fi.Mode().Perm()); err != nil {
		return err
	}
	return os.Remove(from)
}
