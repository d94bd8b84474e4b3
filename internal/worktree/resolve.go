package worktree

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/fsx"
)

// ErrEmptyName is a worktree name that is empty or blank: it names none.
var ErrEmptyName = errors.New("the name is empty; give a worktree's name, path or branch ('claude-account worktree list' shows them)")

// Resolve finds a worktree by slug, path or branch, else by the name of its
// directory (a worktree made with plain git: git worktree add ../app-wt-a).
func (r *Repo) Resolve(name string) (*Entry, error) {
	if strings.TrimSpace(name) == "" {
		return nil, ErrEmptyName
	}
	entries, err := r.Entries()
	if err != nil {
		return nil, err
	}
	cands := []string{name}
	if ValidateSlug(name) == nil {
		cands = append(cands, r.PathFor(name))
	}
	for i := range entries {
		e := &entries[i]
		for _, c := range cands {
			if fsx.SamePath(e.Path, c) || filepath.IsAbs(c) && e.Path == c {
				return e, nil
			}
		}
		if e.Branch != "" && (e.Branch == name || e.Branch == Branch(name)) {
			return e, nil
		}
	}
	if !strings.ContainsRune(name, filepath.Separator) {
		var found []*Entry
		for i := range entries {
			e := &entries[i]
			if !e.Bare && !r.isMain(e) && filepath.Base(e.Path) == name {
				found = append(found, e)
			}
		}
		switch len(found) {
		case 1:
			return found[0], nil
		case 0:
		default:
			paths := make([]string, len(found))
			for i, e := range found {
				paths[i] = e.Path
			}
			return nil, fmt.Errorf("%s names %d worktrees (%s); give the path of the one to remove", name, len(found), strings.Join(paths, ", "))
		}
	}
	return nil, fmt.Errorf("no worktree %q in this repository; 'claude-account worktree list' shows them", name)
}

func (r *Repo) isMain(e *Entry) bool {
	return !r.Bare && fsx.SamePath(e.Path, r.Root)
}
