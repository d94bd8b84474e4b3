package worktree

import (
	"strings"
	"testing"
)

// FuzzParseMergeTree: whatever merge-tree prints, the tree is what comes
// before the first NUL and each conflicting file is named once, never empty.
func FuzzParseMergeTree(f *testing.F) {
	f.Add("d42f6e61ad4e0d57aafb840bff3a24b687535dec\x00f\x00g\x00")
	f.Add("d42f6e61ad4e0d57aafb840bff3a24b687535dec\n")
	f.Add("t\x00a b\x00a b\x00\x00x")
	f.Fuzz(func(t *testing.T, out string) {
		tree, files := parseMergeTree(out)
		if want, _, _ := strings.Cut(out, "\x00"); tree != want {
			t.Fatalf("tree %q of %q", tree, out)
		}
		seen := map[string]bool{}
		for _, p := range files {
			if p == "" || seen[p] || strings.Contains(p, "\x00") {
				t.Fatalf("files %q of %q", files, out)
			}
			seen[p] = true
		}
	})
}

// FuzzParseNumstat: what parseNumstat accepts gives one file for each
// record, with its path as git printed it and counts never negative.
func FuzzParseNumstat(f *testing.F) {
	f.Add("1\t0\ta\x002\t3\tdir/b c\x00-\t-\tbin\x00")
	f.Add("")
	f.Add("1\t2\t\x00")
	f.Add("-1\t2\tx\x00")
	f.Fuzz(func(t *testing.T, out string) {
		files, err := parseNumstat(out)
		if err != nil {
			return
		}
		var recs []string
		for _, r := range strings.Split(out, "\x00") {
			if r != "" {
				recs = append(recs, r)
			}
		}
		if len(files) != len(recs) {
			t.Fatalf("%q gave %d files for %d records", out, len(files), len(recs))
		}
		for i, f := range files {
			if f.Added < 0 || f.Deleted < 0 || f.Path == "" || !strings.HasSuffix(recs[i], "\t"+f.Path) {
				t.Fatalf("%+v from %q", f, recs[i])
			}
		}
	})
}
