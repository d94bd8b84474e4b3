package gitctx

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// Head reads gitDir/HEAD without a git process: the branch it points at
// ("main", "feature/x"), or for a detached HEAD the first 7 hex digits of the
// commit with detached set.
func Head(gitDir string) (name string, detached bool, err error) {
	b, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", false, err
	}
	b = bytes.TrimSpace(b)
	if ref, ok := bytes.CutPrefix(b, []byte("ref:")); ok {
		return strings.TrimPrefix(string(bytes.TrimSpace(ref)), "refs/heads/"), false, nil
	}
	if len(b) > 7 {
		b = b[:7]
	}
	return string(b), true, nil
}
