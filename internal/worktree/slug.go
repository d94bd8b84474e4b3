package worktree

import (
	"fmt"
	"strings"
)

// ValidateSlug accepts names like fix-login or user/feature: letters,
// digits, '.', '_', '-' and '/' between parts. No part may be empty, "." or
// "..", and none may start with '-', so a slug can neither climb out of the
// worktrees dir nor be read by git as an option.
func ValidateSlug(slug string) error {
	bad := func(why string) error {
		return fmt.Errorf("worktree name %q %s; use letters, digits, '.', '_', '-' and '/', e.g. fix-login or me/feature", slug, why)
	}
	if slug == "" {
		return bad("is empty")
	}
	if len(slug) > 200 {
		return bad("is too long")
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

// Branch is the branch a slug's worktree is on.
func Branch(slug string) string { return "worktree-" + Flatten(slug) }

// IsEphemeralSlug reports slugs Claude Code gives its agents' worktrees:
// agent-a followed by 7 hex digits. Such worktrees are removed after use
// when they hold no work.
func IsEphemeralSlug(slug string) bool {
	rest, ok := strings.CutPrefix(slug, "agent-a")
	if !ok || len(rest) != 7 {
		return false
	}
	for _, r := range rest {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}
