package worktree

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/gitcmd"
)

// Remake makes again the worktree rm removed (its record, rec): at the same
// path, on its branch when that still exists, else on a new branch of that
// name at the commit it was on; and puts back the uncommitted work rm saved
// (rec.Saved) as uncommitted changes. A worktree of this repository already
// there is reused as it is. It returns the worktree's path and notes.
//
// vouched says the account's side names rec.Path (worktree rm's record in
// the account's archive, the record of the runtimes the launcher made):
// linked worktrees live anywhere. A path only the repository's own files
// name (git's admin files, a transcript) is made only inside the
// repository: a planted one could name any dir of the user's.
func (r *Repo) Remake(rec conversation.Removed, vouched bool) (string, []string, error) {
	path := filepath.Clean(rec.Path)
	if !filepath.IsAbs(path) {
		return "", nil, fmt.Errorf("the worktree %q cannot be made again: its path is not absolute; continue the conversation in another worktree with --here", rec.Path)
	}
	if rel, err := filepath.Rel(r.Root, path); !vouched && (r.Bare || err != nil || rel == ".." || strings.HasPrefix(rel, "../")) {
		return "", nil, fmt.Errorf("the worktree %s is gone, and nothing on claude-account's side records it there (only git's files or the transcript name it); continue the conversation in another worktree with --here", path)
	}
	unlock, err := r.lock()
	if err != nil {
		return "", nil, err
	}
	defer unlock()
	if exists(path) {
		e, err := r.Find(path)
		if err != nil {
			return "", nil, err
		}
		if e == nil {
			return "", nil, fmt.Errorf("%s, where the worktree was, is something else now; move it away, or continue the conversation in another worktree with --here", path)
		}
		return path, []string{"reusing the existing worktree " + path}, nil
	}
	if rel, err := filepath.Rel(r.Root, path); err == nil && !strings.HasPrefix(rel, "..") && !r.Bare {
		// A path inside the repository: nothing on the way may be a link
		// out of it (a planted .claude/worktrees).
		if err := noLinkOut(r.Root, filepath.Dir(rel)); err != nil {
			return "", nil, err
		}
	}
	var add []string
	var notes []string
	madeBranch := false
	switch {
	case rec.Branch != "" && gitcmd.CheckRefName("refs/heads/"+rec.Branch) == nil && r.hasRef("refs/heads/"+rec.Branch):
		add = []string{"worktree", "add", "--quiet", "--", path, rec.Branch}
		notes = append(notes, fmt.Sprintf("made the worktree %s again on its branch %s", path, rec.Branch))
	case rec.Head != "" && validOID(rec.Head):
		if rec.Branch != "" && !strings.HasPrefix(rec.Branch, "-") && gitcmd.CheckRefName("refs/heads/"+rec.Branch) == nil {
			add = []string{"worktree", "add", "--quiet", "-b", rec.Branch, "--", path, rec.Head}
			madeBranch = true
			notes = append(notes, fmt.Sprintf("made the worktree %s again, on a new branch %s at the commit it was on (%s)", path, rec.Branch, rec.Head[:min(12, len(rec.Head))]))
		} else {
			add = []string{"worktree", "add", "--quiet", "--detach", "--", path, rec.Head}
			notes = append(notes, fmt.Sprintf("made the worktree %s again at the commit it was on (%s)", path, rec.Head[:min(12, len(rec.Head))]))
		}
	default:
		return "", nil, fmt.Errorf("the worktree %s cannot be made again: its branch %q is gone and its commit is not known; continue the conversation in another worktree with --here", path, rec.Branch)
	}
	if _, err := r.Git.Run(add...); err != nil {
		return "", nil, err
	}
	if err := r.recordRemade(path, rec, madeBranch); err != nil {
		notes = append(notes, fmt.Sprintf("the worktree %s is not recorded as claude-account's (%v): worktree rm will keep its branch", path, err))
	}
	if rec.Saved != "" && strings.HasPrefix(rec.Saved, wipPrefix) && r.hasRef(rec.Saved) {
		// The work rm saved, back as uncommitted changes (nothing staged),
		// and its ref dropped, as worktree new does: a worktree made with
		// the name later must not get it a second time.
		oid, err := r.Git.Run("rev-parse", "--verify", "--end-of-options", rec.Saved+"^{commit}")
		if err == nil {
			err = r.putBack(path, Saved{Ref: rec.Saved, OID: oid})
		}
		if err != nil {
			return path, notes, fmt.Errorf("the worktree %s is made again, but its saved work could not be put back: %w; it stays in %s", path, err, rec.Saved)
		}
		notes = append(notes, fmt.Sprintf("put back the uncommitted work saved in %s", rec.Saved))
	}
	return path, notes, nil
}

// recordRemade writes the record (Meta) of a worktree Remake has just made
// at path, as New writes it: its name is the one New gives that dir
// (SlugOfDir), and the branch Remake made for it, when it is the one New
// makes for that name, is recorded as made, so that the next rm deletes it
// when merged, as it does the branch New made, instead of leaving one more
// at each rm and resume. A branch of another name is the user's, put back:
// rm keeps it. A dir whose name is no slug gets no record: rm keeps its
// branch, as that of a worktree made with plain git.
func (r *Repo) recordRemade(path string, rec conversation.Removed, madeBranch bool) error {
	slug := SlugOfDir(filepath.Base(path))
	if slug == "" {
		return nil
	}
	gitDir, err := GitDir(path)
	if err != nil {
		return err
	}
	head := r.headOID(gitDir)
	if !validOID(head) {
		head = ""
	}
	base := rec.Base
	if strings.HasPrefix(base, "-") || strings.ContainsFunc(base, unicode.IsControl) {
		base = "" // as ReadMeta reads it: the default base applies
	}
	// Created is now: the age worktree gc and list measure starts again.
	return writeMeta(gitDir, Meta{Slug: slug, Ephemeral: IsEphemeralSlug(slug), Base: base, BaseOID: head,
		Created: time.Now().UTC(), MadeBranch: madeBranch && rec.Branch == Branch(slug)})
}

// validOID reports whether s is a full commit id.
func validOID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	return !strings.ContainsFunc(s, func(r rune) bool { return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') })
}
