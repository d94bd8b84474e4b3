package configdir

import (
	"bytes"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/gitctx"
)

// RepositoryRoot is the path Claude keys a repository's trust and memory by:
// the main worktree's root, for the main worktree and every linked one.
func RepositoryRoot(ctx gitctx.Context) string {
	if ctx.Kind == gitctx.Linked && filepath.Base(ctx.CommonDir) == ".git" {
		return filepath.Dir(ctx.CommonDir)
	}
	return ctx.Toplevel
}

// trustPaths are the project paths under which the Claude in use looks up
// the trust dialog's answer: the repository's root from 2.1.63
// (claudever.TrustPerRepository), each worktree's own before; both for a
// release nothing could tell (an entry the other releases do not read is
// harmless). The ledger records it per repository (RepositoryRoot) either way.
func trustPaths(in Input) []string { return trustPathsOf(in.Context, in.Claude) }

func trustPathsOf(ctx gitctx.Context, claude claudever.Binary) []string {
	root := RepositoryRoot(ctx)
	switch {
	case !claude.Known && root != ctx.Toplevel:
		return []string{root, ctx.Toplevel}
	case claude.Has(claudever.TrustPerRepository):
		return []string{root}
	}
	return []string{ctx.Toplevel}
}

// trustKey is the "projects" key to splice into a config dir's .claude.json
// (cur) so that it holds the repository's trust under each of paths, the
// project paths the Claude in use looks it up under; nil when it already
// does. The repository owns its trust, as Claude keeps it for every worktree
// of one config dir. Only those entries change; "projects" (often most of a
// large file) is scanned and copied once per runtime, never decoded.
func trustKey(cur []byte, paths []string) (*coalesce.Key, error) {
	projects, _, err := coalesce.Lookup(cur, "projects")
	if err != nil {
		return nil, err
	}
	changed := false
	for _, root := range paths {
		if v, ok, err := coalesce.Path(cur, "projects", root, "hasTrustDialogAccepted"); err != nil {
			return nil, err
		} else if ok && string(v) == "true" {
			continue
		}
		entry, _, err := coalesce.Lookup(projects, root)
		if err != nil {
			entry = nil // not an object: Claude's entry is replaced by a sound one
		}
		if len(bytes.TrimSpace(entry)) == 0 || entry[0] != '{' {
			entry = []byte("{}")
		}
		if entry, _, err = coalesce.Splice(entry, []coalesce.Key{{Name: "hasTrustDialogAccepted", Raw: []byte("true")}}); err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(projects)) == 0 || projects[0] != '{' {
			projects = []byte("{}")
		}
		if projects, _, err = coalesce.Splice(projects, []coalesce.Key{{Name: root, Raw: entry}}); err != nil {
			return nil, err
		}
		changed = true
	}
	if !changed {
		return nil, nil
	}
	return &coalesce.Key{Name: "projects", Raw: projects}, nil
}
