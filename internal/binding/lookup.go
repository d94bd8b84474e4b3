package binding

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/claude-account/claude-account/internal/env"
)

// Expand turns a written directory into a clean one with "~/" as the home
// directory (env.ExpandHome).
func Expand(e env.Env, d string) string { return filepath.Clean(e.ExpandHome(d)) }

// Canonical resolves symlinks in an absolute path; a path that does not
// exist (yet) is kept clean as it is.
func Canonical(p string) string {
	if c, err := filepath.EvalSymlinks(p); err == nil {
		return c
	}
	return filepath.Clean(p)
}

// Within reports whether dir is root or lies below it; both clean and absolute.
func Within(dir, root string) bool {
	if root == "/" {
		return strings.HasPrefix(dir, "/")
	}
	return dir == root || strings.HasPrefix(dir, root) && dir[len(root)] == '/'
}

// Match returns the binding whose canonical directory is the longest prefix
// of dir (canonical). canon maps a binding's directory to its canonical form.
// On equal directories a declared binding wins: Nix owns what it declares.
func Match(bs []Binding, dir string, canon func(string) string) (Binding, bool) {
	best, bestLen, found := Binding{}, -1, false
	for _, b := range bs {
		root := canon(b.Dir)
		if !Within(dir, root) {
			continue
		}
		if n := len(root); n > bestLen || n == bestLen && b.Declared && !best.Declared {
			best, bestLen, found = b, n, true
		}
	}
	return best, found
}

// Lookup finds the account bound to dir (absolute), symlinks resolved on
// both sides.
func Lookup(e env.Env, dir string) (Binding, bool, error) {
	return LookupWorktree(e, dir, "", "")
}

// LookupWorktree is Lookup for dir in a linked worktree whose own top level
// is toplevel and whose repository's main worktree is mainRoot (both
// canonical; "" outside a linked worktree). A worktree of a bound repository
// has the repository's account wherever it lives (git worktree add ../x,
// [worktree] dir = "../{repo}.worktrees"): the binding of mainRoot wins over
// one of the worktree's surroundings that does not also hold the repository.
// Only a binding of the worktree itself, or of a directory in it, wins over
// the repository's.
func LookupWorktree(e env.Env, dir, toplevel, mainRoot string) (Binding, bool, error) {
	bs, err := ReadAll(e)
	if err != nil || len(bs) == 0 {
		return Binding{}, false, err
	}
	canon := func(d string) string { return Canonical(Expand(e, d)) }
	own, ok := Match(bs, Canonical(dir), canon)
	if mainRoot == "" || toplevel == "" || ok && Within(canon(own.Dir), toplevel) {
		return own, ok, nil
	}
	// A binding that holds the worktree too was already weighed against the
	// worktree's own, deeper ones by Match.
	if repo, found := Match(bs, mainRoot, canon); found && !Within(toplevel, canon(repo.Dir)) {
		return repo, true, nil
	}
	return own, ok, nil
}

// Accounts is every account bound to the directory b binds, b's own first,
// then the others in the files' order (declared first): a directory may be
// bound to several, among which a launch picks by headroom.
func Accounts(e env.Env, b Binding) ([]string, error) {
	bs, err := ReadAll(e)
	if err != nil {
		return nil, err
	}
	root := Canonical(Expand(e, b.Dir))
	out := []string{b.Account}
	for _, o := range bs {
		if !slices.Contains(out, o.Account) && Canonical(Expand(e, o.Dir)) == root {
			out = append(out, o.Account)
		}
	}
	return out, nil
}
