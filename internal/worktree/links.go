package worktree

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// LinkOutError is a symbolic link in a repository (tracked, or planted in
// its .git) that a step of worktree creation would follow out of the
// repository: writing through it would change another project's files.
type LinkOutError struct {
	Link   string // the link
	Target string // where it leads; "" when it leads nowhere
}

func (e *LinkOutError) Error() string {
	target := e.Target
	if target == "" {
		target = "a path that does not exist"
	}
	return fmt.Sprintf("%s is a link to %s, out of the repository; nothing was written through it: replace the link with a real directory, or start from a commit without it", e.Link, target)
}

// inside is where a link found under root may lead: root itself or below.
func inside(root, target string) bool {
	return target == root || strings.HasPrefix(target, root+string(filepath.Separator))
}

// noLinkOut checks every existing component of rel below root: none may be
// a link that resolves outside root (or resolves nowhere). The first
// missing component ends the walk: what does not exist yet will be made as
// a real directory. A link that stays inside root is followed as git would.
func noLinkOut(root, rel string) error {
	croot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	rel = filepath.Clean(rel)
	if rel == "." || filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	cur := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		target, err := filepath.EvalSymlinks(cur)
		if err != nil || !inside(croot, target) {
			if err != nil {
				target = ""
			}
			return &LinkOutError{Link: cur, Target: target}
		}
	}
	return nil
}

// noLinkOutParents is noLinkOut for the directories above rel: rel itself
// may be anything (it is replaced, or left alone when it exists).
func noLinkOutParents(root, rel string) error {
	dir := filepath.Dir(filepath.Clean(rel))
	if dir == "." {
		return nil
	}
	return noLinkOut(root, dir)
}
