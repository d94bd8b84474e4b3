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

// FlatBranch is the worktree directory name of branch b: '/' becomes '+'.
func FlatBranch(b string) string { return strings.ReplaceAll(b, "/", "+") }
