package configdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/fsx"
)

// fileError names the file and says what to do, for invalid JSON in a file
// the user or Claude owns: nothing is written when this happens.
func fileError(path string, err error, fix string) error {
	var se *coalesce.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s:%d:%d: %s; %s (nothing was changed)", path, se.Line, se.Column, se.Msg, fix)
	}
	return fmt.Errorf("%s: %v; %s (nothing was changed)", path, err, fix)
}

// mapOptional maps (or reads, when small) a file that may be missing.
func mapOptional(path string) ([]byte, func(), error) {
	data, release, err := fsx.Map(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, release, nil
	}
	return data, release, err
}

// readOptional reads a file that may be missing (nil, nil).
func readOptional(path string) ([]byte, error) {
	data, err := fsx.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if errors.Is(err, syscall.EISDIR) {
		return nil, fmt.Errorf("%s is a directory; remove it (a file belongs there)", path)
	}
	return data, err
}

// dedupe keeps the first key of each name: managed values win over seeds.
func dedupe(keys []coalesce.Key) []coalesce.Key {
	seen := make(map[string]bool, len(keys))
	out := keys[:0:0]
	for _, k := range keys {
		if !seen[k.Name] {
			seen[k.Name] = true
			out = append(out, k)
		}
	}
	return out
}

func isSymlink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// describe says what kind of file path is, for messages: "a symbolic link
// to X", "a directory", "a FIFO".
func describe(path string, fi fs.FileInfo) string {
	if fi.Mode()&fs.ModeSymlink != 0 {
		if t, err := os.Readlink(path); err == nil {
			return "a symbolic link to " + t
		}
	}
	return fsx.Kind(fi.Mode())
}
