package worktree

import (
	"strings"
)

// contained reports whether merging head into base would change nothing:
// head is an ancestor of base, or its changes are already there (a squash
// merge or cherry-picks). Every path head changed since its merge base
// with base must be, in base, exactly as in head (same blob, same mode).
// This asks nothing of the repository's attributes: a merge driver such as
// merge=union (in .gitattributes or .git/info/attributes, files of the
// repository) can make a merge's tree equal base's while base lacks the
// change, and what is not in base is lost with the branch. When in doubt
// (several merge bases, none, git failing) it says no: the branch stays.
func contained(g Git, base, head string) (bool, error) {
	out, err := g.Run("merge-base", "--all", "--end-of-options", base, head)
	bases := strings.Fields(out)
	if err != nil || len(bases) != 1 {
		return false, nil // unrelated histories, or a criss-cross: keep
	}
	// head is its merge base with base: an ancestor of base, merged. Every
	// caller gives a commit id (a name would need rev-parse first).
	if head == bases[0] {
		return true, nil
	}
	if !isOID(head) {
		id, err := g.Run("rev-parse", "--verify", "--end-of-options", head+"^{commit}")
		if err != nil || id == bases[0] {
			return err == nil, err
		}
	}
	changed, err := g.run(nil, append(namesArgs, bases[0], head)...)
	if err != nil {
		return false, err
	}
	differ, err := g.run(nil, append(namesArgs, base, head)...)
	if err != nil {
		return false, err
	}
	return disjoint(changed, differ), nil
}

// namesArgs lists the paths two commits differ in, whatever the
// repository's configuration says: every rename as a deletion and an
// addition (diff.renames), every path however deep the current directory
// (diff.relative), submodules too (diff.ignoreSubmodules).
var namesArgs = []string{"diff", "--no-ext-diff", "--no-textconv", "--name-only", "-z", "--no-renames",
	"--no-relative", "--ignore-submodules=none", "--end-of-options"}

// disjoint reports whether two NUL-separated path lists (diff-tree -z
// --name-only) share no path: no path head changed differs in base.
func disjoint(a, b string) bool {
	in := map[string]bool{}
	for _, p := range strings.Split(a, "\x00") {
		if p != "" {
			in[p] = true
		}
	}
	for _, p := range strings.Split(b, "\x00") {
		if in[p] {
			return false
		}
	}
	return true
}
