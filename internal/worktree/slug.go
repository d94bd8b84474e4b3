package worktree

import (
	"fmt"
	"strings"
)

// MaxPathLen is the longest path a new worktree may have: Claude Code
// keeps a session's transcripts in projects/<its working dir, every
// character but letters and digits made '-'>, one file name of at most 255
// bytes; 2.0.77 does not shorten it and fails (ENAMETOOLONG, measured),
// later releases shorten it (2.1.90: past 200 characters, with a hash).
const MaxPathLen = 255

// MaxSlugLen is the longest worktree name: its branch, worktree-<name>, and
// its directory stay well within a file name's 255 bytes.
const MaxSlugLen = 200

// reservedParts are names no part of a slug may have, compared as Claude
// Code compares them (lower case, trailing dots dropped): git's own
// directory, and the config folders Claude Code protects, which it refuses
// as names of its own worktrees (2.1.331) and guards in every path that
// holds them — each edit in such a worktree would ask for permission.
var reservedParts = map[string]bool{".git": true, ".claude": true, ".vscode": true, ".idea": true,
	".husky": true, ".cargo": true, ".devcontainer": true, ".yarn": true, ".mvn": true, ".config": true}

// isGitName reports the names git gives its own refs and files in a git
// dir: HEAD, the pseudo-refs FETCH_HEAD, ORIG_HEAD, MERGE_HEAD … (git's
// pseudo-ref syntax, upper case, '_' and '-', ending in _HEAD), AUTO_MERGE. A worktree's id is its directory's name,
// which names its refs (worktrees/<id>/HEAD), and a worktree called HEAD
// reads as git's HEAD wherever a name, path or branch is taken ('worktree rm
// HEAD').
func isGitName(slug string) bool {
	if slug == "HEAD" || slug == "AUTO_MERGE" {
		return true
	}
	return strings.HasSuffix(slug, "_HEAD") && strings.Trim(slug, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_-") == ""
}

// ValidateSlug accepts names like fix-login or user/feature: letters,
// digits, '.', '_', '-' and '/' between parts, at most MaxSlugLen. No part
// may be empty, "." or "..", none may start with '-' (a slug can neither
// climb out of the worktrees dir nor be read by git as an option), none may
// be .git or a folder Claude Code protects (reservedParts), and no slug may
// be a name of git's own (isGitName).
func ValidateSlug(slug string) error {
	bad := func(why string) error {
		return fmt.Errorf("worktree name %q %s; use letters, digits, '.', '_', '-' and '/', e.g. fix-login or me/feature", slug, why)
	}
	if slug == "" {
		return bad("is empty")
	}
	if len(slug) > MaxSlugLen {
		return fmt.Errorf("worktree name %q is %d characters long; the limit is %d", slug, len(slug), MaxSlugLen)
	}
	if isGitName(slug) {
		return bad("is a name git gives its own refs")
	}
	for _, r := range slug {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/", r)) {
			return bad(fmt.Sprintf("has the character %q", r))
		}
	}
	for _, part := range strings.Split(slug, "/") {
		switch {
		case part == "":
			return bad("has an empty part")
		case part == "." || part == "..":
			return bad("has a '" + part + "' part")
		case part[0] == '-':
			return bad("has a part starting with '-'")
		case strings.HasSuffix(part, ".lock") || strings.HasSuffix(part, "."):
			return bad("has a part git cannot use as a branch name")
		case reservedParts[strings.ToLower(part)]:
			return bad("has a part " + part + ", which git or Claude Code keeps for itself")
		}
	}
	if strings.Contains(slug, "..") {
		return bad("contains '..'")
	}
	return nil
}

// Flatten turns a slug into one path segment: '/' becomes '+', so
// user/feature and user never collide as directory and file (Claude Code
// names its worktrees the same way).
func Flatten(slug string) string { return strings.ReplaceAll(slug, "/", "+") }

// SlugOfDir is the slug whose worktree dir is named name (Flatten's
// inverse: no slug has a '+'), "" when no valid slug's is (a name with a
// '/' is no dir's).
func SlugOfDir(name string) string {
	if strings.Contains(name, "/") {
		return ""
	}
	slug := strings.ReplaceAll(name, "+", "/")
	if ValidateSlug(slug) != nil {
		return ""
	}
	return slug
}

// Branch is the branch a slug's worktree is on.
func Branch(slug string) string { return "worktree-" + Flatten(slug) }

// IsEphemeralSlug reports slugs Claude Code gives its agents' worktrees:
// agent-a followed by 7 hex digits (2.1.90), or by 16 (2.1.330 names them
// so, and still matches both: /^agent-a[0-9a-f]{7}$/ and {16}, read in its
// binary). Such worktrees are removed after use when they hold no work.
func IsEphemeralSlug(slug string) bool {
	rest, ok := strings.CutPrefix(slug, "agent-a")
	if !ok || len(rest) != 7 && len(rest) != 16 {
		return false
	}
	for _, r := range rest {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}
