// Package trust records which project MCP overlays the user approved, the way
// direnv records allowed .envrc files: the key is the SHA-256 of the overlay's
// absolute path and its content, so any edit revokes the approval by itself.
package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/claude-account/claude-account/internal/fsx"
)

// MaxOverlaySize bounds what is read from a repository: an overlay is a few
// server entries, and a huge file must not be read into memory.
const MaxOverlaySize = 1 << 20

// Store is a trust store: one file per approved (path, content) pair, whose
// body is the path, so stale entries can be listed and pruned.
type Store struct{ Dir string }

// Key is the trust key of content at the absolute path.
func Key(path string, content []byte) string {
	h := sha256.New()
	h.Write([]byte(path + "\n"))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// State is what the store says of an overlay.
type State int

const (
	Untrusted State = iota // never approved
	Changed                // approved once, edited since
	Trusted
)

// Check reports whether content at path is trusted. It reads one file on the
// hot path; only a miss scans the store, to tell "changed" from "never".
func (s Store) Check(path string, content []byte) (State, error) {
	if err := s.checkDir(); err != nil {
		return Untrusted, err
	}
	fi, err := os.Lstat(filepath.Join(s.Dir, Key(path, content)))
	if err == nil && fi.Mode().IsRegular() {
		return Trusted, nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Untrusted, err
	}
	entries, err := s.List()
	if err != nil {
		return Untrusted, err
	}
	for _, e := range entries {
		if e.Path == path {
			return Changed, nil
		}
	}
	return Untrusted, nil
}

// checkDir refuses a store that is not a private directory of ours: a store
// planted as a symlink would let anyone who controls its target approve
// servers (and make untrust delete files there). A missing store is empty.
func (s Store) checkDir() error {
	fi, err := os.Lstat(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	st, _ := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("trust store %s is not a directory (a symlink?); remove it and trust your overlays again", s.Dir)
	case st != nil && int(st.Uid) != os.Getuid():
		return fmt.Errorf("trust store %s belongs to uid %d, not to you; remove it and trust your overlays again", s.Dir, st.Uid)
	}
	return nil
}

// Allow approves content at path.
func (s Store) Allow(path string, content []byte) error {
	if err := s.mkdir(); err != nil {
		return err
	}
	_, err := fsx.WriteIfChanged(filepath.Join(s.Dir, Key(path, content)), []byte(path+"\n"), 0o600)
	return err
}

// Revoke removes every approval of path, whatever content it had; it reports
// how many it removed.
func (s Store) Revoke(path string) (int, error) {
	if err := s.checkDir(); err != nil {
		return 0, err
	}
	entries, err := s.List()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if e.Path == path {
			if err := os.Remove(filepath.Join(s.Dir, e.Key)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// Entry is one approval.
type Entry struct {
	Key  string `json:"key"`
	Path string `json:"path"`
}

// List returns every approval, sorted by path.
func (s Store) List() ([]Entry, error) {
	if err := s.checkDir(); err != nil {
		return nil, err
	}
	des, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, de := range des {
		if !de.Type().IsRegular() || len(de.Name()) != 64 {
			continue // a planted link or stray file is not an approval
		}
		body, err := readEntry(filepath.Join(s.Dir, de.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, Entry{Key: de.Name(), Path: strings.TrimSuffix(string(body), "\n")})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Path < out[j].Path || out[i].Path == out[j].Path && out[i].Key < out[j].Key
	})
	return out, nil
}

// mkdir makes the store private; a store dir that is a symlink is refused, so
// approvals are never written somewhere else.
func (s Store) mkdir() error {
	if err := os.MkdirAll(filepath.Dir(s.Dir), 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(s.Dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return s.checkDir()
}

// readEntry reads an approval without following a link (an entry is a
// small file whose body is a path).
func readEntry(path string) ([]byte, error) {
	data, err := fsx.ReadFileNoFollow(path, 64<<10)
	if len(data) > 64<<10 {
		data = data[:64<<10]
	}
	return data, err
}

// ReadOverlay reads a project overlay safely: it must be a regular file (not
// a symlink out of the repository, not a FIFO that would block the launch) of
// at most MaxOverlaySize bytes. A missing overlay is (nil, nil).
func ReadOverlay(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s); replace it with a plain file to use it", path, fsx.Kind(fi.Mode()))
	}
	if fi.Size() > MaxOverlaySize {
		return nil, fmt.Errorf("%s is %d bytes, over the %d-byte limit for an MCP overlay; shrink it", path, fi.Size(), MaxOverlaySize)
	}
	// Read with plain system calls: os.OpenFile would start the runtime's
	// poller for this one file (four more system calls, and a poll at
	// every later scheduling point of the launch).
	data, err := fsx.ReadFileNoFollow(path, MaxOverlaySize)
	if err != nil {
		return nil, err
	}
	if len(data) > MaxOverlaySize {
		return nil, fmt.Errorf("%s grew over the %d-byte limit for an MCP overlay; shrink it", path, MaxOverlaySize)
	}
	return data, nil
}
