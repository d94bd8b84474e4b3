package clone

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// BranchError is a --branch that git would refuse, or take for an option.
type BranchError struct{ Branch string }

func (e *BranchError) Error() string {
	return fmt.Sprintf("clone: --branch %q is not a valid git branch name", e.Branch)
}

// ValidBranch checks b by the rules of git check-ref-format --branch, and
// refuses a leading '-' (an option to git) and HEAD.
func ValidBranch(b string) error {
	if !validBranch(b) {
		return &BranchError{Branch: b}
	}
	return nil
}

func validBranch(b string) bool {
	if b == "" || b == "@" || b == "HEAD" || b[0] == '-' || !utf8.ValidString(b) ||
		strings.HasSuffix(b, ".") || strings.Contains(b, "..") || strings.Contains(b, "@{") {
		return false
	}
	if strings.ContainsAny(b, " ~^:?*[\\\x7f") {
		return false
	}
	for i := 0; i < len(b); i++ {
		if b[i] < 0x20 {
			return false
		}
	}
	for _, c := range strings.Split(b, "/") {
		if c == "" || c[0] == '.' || strings.HasSuffix(c, ".lock") {
			return false
		}
	}
	return true
}

// RefError is a --branch that names a full ref other than a branch
// (refs/tags/v1, refs/remotes/origin/x): made into a branch as it is, it
// would become refs/heads/refs/….
type RefError struct{ Branch string }

func (e *RefError) Error() string {
	return fmt.Sprintf("clone: --branch %q is a ref, not a branch name; give a branch such as feat (or refs/heads/feat)", e.Branch)
}

// BranchName reads --branch: a branch name, or its full ref refs/heads/B,
// which means B. Any other full ref is a *RefError; an invalid name a
// *BranchError.
func BranchName(b string) (string, error) {
	if rest, ok := strings.CutPrefix(b, "refs/heads/"); ok {
		if err := ValidBranch(rest); err != nil || strings.HasPrefix(rest, "refs/") {
			return "", &BranchError{Branch: b}
		}
		return rest, nil
	}
	if strings.HasPrefix(b, "refs/") {
		return "", &RefError{Branch: b}
	}
	if err := ValidBranch(b); err != nil {
		return "", err
	}
	return b, nil
}

// FlatBranch is the worktree directory name of branch b: '/' becomes '+'.
func FlatBranch(b string) string { return strings.ReplaceAll(b, "/", "+") }
