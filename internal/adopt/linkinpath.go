package adopt

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// linkInPath is the first part of the source path rel above its last one
// (relative to root) that is a symbolic link, or "". Lstat of rel itself
// would follow such a link: a setting naming ~/.claude/hooks/d/id_rsa, with
// hooks/d a link out of the source, would reach whatever it points at. A
// missing part ends the search: nothing is reached through it.
func linkInPath(root, rel string) string {
	parts := strings.Split(filepath.Clean(rel), string(filepath.Separator))
	for i := 1; i < len(parts); i++ {
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
