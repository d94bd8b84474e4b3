package gitcmd

import (
	"bytes"
	"strconv"
)

// This file is the one reading of git's porcelain output in the launcher:
// `git worktree list --porcelain` (worktree, clone) and `git status
// --porcelain=v2` (worktree list and rm, the status line; with -z
// --ignored=matching, what a session left in an ephemeral worktree that git
// ignores).

// Worktree is one entry of `git worktree list --porcelain`.
type Worktree struct {
	Path     string
	HEAD     string // its commit
	Branch   string // the ref its HEAD names, e.g. refs/heads/main; "" when detached or bare
	Bare     bool
	Detached bool
	Locked   bool
	Prunable bool
}

// ParseWorktrees reads `git worktree list --porcelain`: an entry for each
// "worktree" line, filled by the lines after it. Lines before the first
// entry, and lines it does not know, are skipped.
func ParseWorktrees(out []byte) []Worktree {
	var list []Worktree
	for _, line := range bytes.Split(out, []byte{'\n'}) {
		key, val, _ := bytes.Cut(line, []byte{' '})
		if string(key) == "worktree" {
			list = append(list, Worktree{Path: string(val)})
			continue
		}
		if len(list) == 0 {
			continue
		}
		cur := &list[len(list)-1]
		switch string(key) {
		case "HEAD":
			cur.HEAD = string(val)
		case "branch":
			cur.Branch = string(val)
		case "bare":
			cur.Bare = true
		case "detached":
			cur.Detached = true
		case "locked":
			cur.Locked = true
		case "prunable":
			cur.Prunable = true
		}
	}
	return list
}

// Status is what `git status --porcelain=v2` says of a worktree, and with
// --branch of its branch.
type Status struct {
	// Changed counts the entries: changed, unmerged and untracked files
	// (ignored ones only with --ignored).
	Changed int
	// Upstream: the branch has an upstream git compared it with (a
	// "# branch.ab" header, --branch only); Ahead and Behind are then the
	// commits on the branch and not on its upstream, and the other way.
	Upstream      bool
	Ahead, Behind int
}

// ParseStatus reads `git status --porcelain=v2`, lines ending in '\n' (not
// -z: a path with a newline in it is quoted there, so every entry is one
// line).
func ParseStatus(out []byte) Status {
	var st Status
	for _, l := range bytes.Split(out, []byte{'\n'}) {
		switch {
		case len(l) == 0:
		case l[0] != '#':
			st.Changed++
		default:
			ab, ok := bytes.CutPrefix(l, []byte("# branch.ab "))
			if !ok {
				continue
			}
			st.Upstream = true
			for _, f := range bytes.Fields(ab) {
				switch f[0] {
				case '+':
					st.Ahead = count(f[1:])
				case '-':
					st.Behind = count(f[1:])
				}
			}
		}
	}
	return st
}

// count is a count git printed: digits only, else 0.
func count(b []byte) int {
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0
		}
	}
	n, err := strconv.Atoi(string(b))
	if err != nil {
		return 0
	}
	return n
}

// ParseIgnored reads `git status --porcelain=v2 -z --ignored=matching`: the
// paths of the ignored entries ("! <path>"), in git's order, a directory's
// ending in '/'. -z, so that a path is as it is on disk, not quoted. A
// rename's record ("2 ...") is followed by a record of its old path, which
// is skipped; so are the other entries and anything it does not know.
func ParseIgnored(out []byte) []string {
	var paths []string
	recs := bytes.Split(out, []byte{0})
	for i := 0; i < len(recs); i++ {
		rec := recs[i]
		switch {
		case bytes.HasPrefix(rec, []byte("2 ")):
			i++ // its old path
		case bytes.HasPrefix(rec, []byte("! ")) && len(rec) > 2:
			paths = append(paths, string(rec[2:]))
		}
	}
	return paths
}
