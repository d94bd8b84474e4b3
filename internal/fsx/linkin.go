package fsx

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// LinkIn is the first part of rel (relative to root, the last part
// included) that is a symbolic link, or "". A path whose parts are walked
// with Lstat one by one reaches nothing through a link: Lstat or Glob of
// the whole path follows every link but the last (a planted projects ->
// another account's dir, hooks/d -> ../../secrets). A missing part ends the
// search: nothing is reached through it.
func LinkIn(root, rel string) string {
	rel = filepath.Clean(rel)
	if rel == "." {
		return ""
	}
	parts := strings.Split(rel, string(filepath.Separator))
	for i := 1; i <= len(parts); i++ {
		p := filepath.Join(parts[:i]...)
		fi, err := os.Lstat(filepath.Join(root, p))
		if err != nil {
			return ""
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return p
		}
	}
	return ""
}
