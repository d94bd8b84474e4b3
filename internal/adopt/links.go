package adopt

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

type pendingLink struct {
	part   *Part
	rel    string // the link, relative to the source root
	target string // as read
	to     string // the target, relative to the source root ("" when outside)
	mode   fs.FileMode
}

// link records a symbolic link of the source: it is decided once every path
// taken in is known (resolveLinks).
func (w *walker) link(part *Part, rel string, mode fs.FileMode) error {
	target, err := os.Readlink(filepath.Join(w.src.Root, rel))
	if err != nil {
		return err
	}
	w.links = append(w.links, pendingLink{part: part, rel: rel, target: target, to: LinkTarget(w.src.Root, w.src.Dir, rel, target), mode: mode})
	// Reserve its place, so that the entry keeps its order.
	w.entry(Entry{Op: MakeLink, Rel: rel})
	return nil
}

// LinkTarget is where the link at rel (relative to the source root) with the
// given target points, relative to the source root, read lexically (no link
// is followed); "" when it points outside the source or at its root. An
// absolute target may name the source by its resolved root or by dir, the
// name the user gave it.
func LinkTarget(root, dir, rel, target string) string {
	var abs string
	switch {
	case target == "":
		return ""
	case filepath.IsAbs(target):
		abs = filepath.Clean(target)
		if within(abs, dir) && !within(abs, root) {
			r, _ := filepath.Rel(dir, abs)
			abs = filepath.Join(root, r)
		}
	default:
		abs = filepath.Join(root, filepath.Dir(rel), target)
	}
	if !within(abs, root) {
		return ""
	}
	r, err := filepath.Rel(root, abs)
	if err != nil || r == "." {
		return ""
	}
	return r
}

// resolveLinks turns each link into an entry, pointing at the same path in
// the account (always relative, so it never reaches back into the source),
// or leaves it out when it points outside the source or at something not
// taken in.
func (w *walker) resolveLinks() {
	keep := map[string]string{}
	for _, l := range w.links {
		switch {
		case l.to == "":
			w.skip(l.rel, fmt.Sprintf("a link to %s, outside %s; not followed (to keep it: ln -s '%s' '%s')", l.target, w.src.Dir, l.target, filepath.Join(w.p.Dest, l.rel)))
		case !w.takenIn(l.to):
			w.skip(l.rel, fmt.Sprintf("a link to %s, which is not taken in; left out", l.target))
		default:
			t, _ := filepath.Rel(filepath.Dir(l.rel), l.to)
			keep[l.rel] = t
			l.part.Files++
		}
	}
	out := w.p.Entries[:0]
	for _, e := range w.p.Entries {
		if e.Op == MakeLink && e.Link == "" {
			t, ok := keep[e.Rel]
			if !ok {
				continue
			}
			e.Link = t
		}
		out = append(out, e)
	}
	w.p.Entries = out
}

// takenIn reports whether the source path rel is taken in (or the account
// already has it). A link to a link counts: the second one is decided on its
// own.
func (w *walker) takenIn(rel string) bool {
	if w.copied[rel] {
		return true
	}
	for _, l := range w.links {
		if l.rel == rel && l.to != "" {
			return true
		}
	}
	return false
}
