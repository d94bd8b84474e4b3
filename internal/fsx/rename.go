package fsx

import (
	"os"
	"path/filepath"
)

// Rename moves from to to, as os.Rename does, and syncs the directories it
// changed, so that a crash after it returns neither loses the entry nor
// brings back the old one: a move aside, a transcript archived, a clone put
// in place. The error of the rename itself is os.Rename's, unwrapped, so
// callers still tell EXDEV and ENOTEMPTY apart; one of a sync after it
// says the move happened but may not outlive a crash.
func Rename(from, to string) error {
	if err := os.Rename(from, to); err != nil {
		return err
	}
	err := SyncDir(filepath.Dir(to))
	if d := filepath.Dir(from); d != filepath.Dir(to) {
		if e := SyncDir(d); err == nil {
			err = e
		}
	}
	return err
}
