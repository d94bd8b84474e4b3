package worktree

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitcmd"
	"github.com/claude-account/claude-account/internal/gitctx"
)

// claudeWorktrees is where Claude Code makes a background session's (and an
// agent's) worktree, under the repository's main worktree: the place New
// uses too (DESIGN.md fact 20).
var claudeWorktrees = string(filepath.Separator) + filepath.Join(".claude", "worktrees") + string(filepath.Separator)

// claudeWorktreeOf splits a directory a conversation ran in into the
// repository root and the name of the Claude-made worktree it lies in
// (<root>/.claude/worktrees/NAME[/…]); ok false when it lies in none.
func claudeWorktreeOf(cwd string) (root, name string, ok bool) {
	cwd = filepath.Clean(cwd)
	if !filepath.IsAbs(cwd) {
		return "", "", false
	}
	i := strings.LastIndex(cwd+string(filepath.Separator), claudeWorktrees)
	if i <= 0 {
		return "", "", false
	}
	root = cwd[:i]
	rest := strings.TrimPrefix(cwd[i:], claudeWorktrees)
	name, _, _ = strings.Cut(rest, string(filepath.Separator))
	if name == "" || name == "." || name == ".." || SlugOfDir(name) == "" {
		return "", "", false
	}
	return root, name, true
}

// remakeClaudes continues a conversation whose worktree was one Claude
// Code made (a background session's, in the account dir where the fleet
// keeps its transcripts: no runtime, so no record of worktree rm's names
// it) and is gone: made again where it was, inside the repository only
// (Remake, unvouched), on Claude's branch of it (worktree-NAME), with the work rm --force saved of it when that work was
// saved on the commit the worktree is made on. ok false: the conversation
// ran in no such worktree of a repository that is there.
func remakeClaudes(conv conversation.Conversation, getenv func(string) string, environ []string) (string, []string, bool, error) {
	root, name, ok := claudeWorktreeOf(conv.Cwd)
	if !ok || !isDir(root) {
		return "", nil, false, nil
	}
	ctx, err := gitctx.Detect(root, getenv)
	if err != nil || ctx.Toplevel == "" || !fsx.SamePath(ctx.Toplevel, root) {
		return "", nil, false, nil
	}
	r, err := Open(ctx, "", environ)
	if err != nil || r.Bare {
		return "", nil, false, nil
	}
	path := filepath.Join(r.Root, ".claude", "worktrees", name)
	// Claude's branch of it, whatever the transcript says: its first lines
	// may name the branch the session started on (2.1.197 records main).
	branch := "worktree-" + name
	if gitcmd.CheckRefName("refs/heads/"+branch) != nil {
		return "", nil, false, nil
	}
	rec := conversation.Removed{Path: path, Branch: branch, CommonDir: ctx.CommonDir, Root: r.Root}
	tip, _ := r.Git.Run("rev-parse", "--verify", "--quiet", "--end-of-options", "refs/heads/"+branch+"^{commit}")
	saved := newestSaved(r.Git, wipPrefix+name)
	switch {
	case saved.ref == "":
	case tip != "" && saved.parent == tip:
		rec.Saved = saved.ref
	case tip == "" && validOID(saved.parent):
		// Its branch is gone: made again at the commit the work was saved on.
		rec.Head, rec.Saved = saved.parent, saved.ref
	}
	dir, notes, err := r.Remake(rec, false)
	if err == nil && rec.Saved == "" && saved.ref != "" {
		notes = append(notes, fmt.Sprintf("%s holds work saved on another commit than %s's; it stays there", saved.ref, branch))
	}
	if err != nil {
		return "", notes, true, err
	}
	if rel, err := filepath.Rel(path, filepath.Clean(conv.Cwd)); err == nil && rel != "." && !strings.HasPrefix(rel, "..") && isDir(filepath.Join(dir, rel)) {
		return filepath.Join(dir, rel), notes, true, nil
	}
	return dir, notes, true, nil
}
