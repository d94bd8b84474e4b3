package worktree

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// FuzzCopiesDir: whatever paths the repository's git dirs have, the
// account's copies of a runtime's transcripts are kept inside its archive,
// in a kept-<fingerprint> dir.
func FuzzCopiesDir(f *testing.F) {
	for _, s := range [][2]string{
		{"/r/.git", "/r/.git/worktrees/feat/claude-runtime/max"},
		{"/r/.git", "/r/.git/claude-runtime/max"},
		{"/", "/"},
		{"..", "../../x"},
		{"/r.git", "/r.git/worktrees/../claude-runtime/max"},
		{"/r/.git", "/r/.git/worktrees/..\n/claude-runtime/max"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, common, runtime string) {
		account := "/home/u/.claude-max"
		got := CopiesDir(account, common, runtime)
		rel, err := filepath.Rel(filepath.Join(account, "archive"), got)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") || rel == "." {
			t.Fatalf("CopiesDir(%q, %q) = %q, outside the archive", common, runtime, got)
		}
		if b := filepath.Base(got); !strings.HasPrefix(b, KeptPrefix) || len(b) != len(KeptPrefix)+16 {
			t.Fatalf("CopiesDir(%q, %q) = %q, not a kept-<fingerprint> dir", common, runtime, got)
		}
	})
}

// FuzzHeadOf: a HEAD file's branch is a valid branch name that reads as no
// option, its commit a full id; never a control character.
func FuzzHeadOf(f *testing.F) {
	for _, s := range []string{"ref: refs/heads/main\n", "ref: refs/heads/-x", "0123456789012345678901234567890123456789\n", "ref: refs/heads/a\x1b[31m", "ref: refs/heads/a..b", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, oid := headOf(data)
		if b != "" && oid != "" {
			t.Fatalf("headOf(%q) = both %q and %q", data, b, oid)
		}
		if strings.HasPrefix(b, "-") || strings.ContainsFunc(b+oid, unicode.IsControl) {
			t.Fatalf("headOf(%q) = %q, %q", data, b, oid)
		}
		if oid != "" && !validOID(oid) {
			t.Fatalf("headOf(%q) = commit %q", data, oid)
		}
	})
}
