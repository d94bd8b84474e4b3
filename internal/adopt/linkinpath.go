package adopt

import (
	"path/filepath"

	"github.com/claude-account/claude-account/internal/fsx"
)

// linkInPath is the first part of the source path rel above its last one
// (relative to root) that is a symbolic link, or "" (fsx.LinkIn): a setting
// naming ~/.claude/hooks/d/id_rsa, with hooks/d a link out of the source,
// would reach whatever it points at. The last part is the walk's to decide.
func linkInPath(root, rel string) string { return fsx.LinkIn(root, filepath.Dir(rel)) }
