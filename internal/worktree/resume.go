package worktree

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitctx"
)

// ResumeDir is the directory conversation conv continues in: where it ran,
// its worktree made again (Remake) when it was removed; else, when that is
// not known, here. notes say what was done, also when err is not nil. getenv
// and environ are the environment git runs with.
func ResumeDir(conv conversation.Conversation, here string, getenv func(string) string, environ []string) (string, []string, error) {
	if conv.Cwd != "" && isDir(conv.Cwd) && (conv.Worktree == "" || fsx.Within(conv.Cwd, conv.Worktree)) {
		return conv.Cwd, nil, nil
	}
	if conv.Worktree != "" && isDir(conv.Worktree) {
		return conv.Worktree, nil, nil
	}
	if conv.CommonDir == "" || !isDir(conv.CommonDir) {
		if dir, notes, ok, err := remakeClaudes(conv, getenv, environ); ok || err != nil {
			return dir, notes, err
		}
		return here, []string{fmt.Sprintf("the directory conversation %s ran in (%s) is gone; it continues in %s", conv.ID, conv.Cwd, here)}, nil
	}
	// Where the worktree was is vouched for only by the account's side:
	// the record of its runtime (conv.Vouched) or worktree rm's (Saved).
	rec := conversation.Removed{Path: conv.Worktree, Branch: conv.Branch, CommonDir: conv.CommonDir}
	vouched := conv.Vouched
	if conv.Saved != nil {
		rec, vouched = *conv.Saved, conv.Saved.Vouched
	}
	ctx, err := gitctx.Detect(conv.CommonDir, getenv)
	if err != nil {
		return "", nil, err
	}
	r, err := Open(ctx, "", environ)
	if err != nil {
		return "", nil, err
	}
	path, notes, err := r.Remake(rec, vouched)
	if err != nil {
		return "", notes, err
	}
	// The dir below the worktree it ran in, when it is there again.
	if rel, err := filepath.Rel(conv.Worktree, conv.Cwd); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && isDir(filepath.Join(path, rel)) {
		return filepath.Join(path, rel), notes, nil
	}
	return path, notes, nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
