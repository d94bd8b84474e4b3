package clone

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

var nameRE = regexp.MustCompile(`^[A-Za-z0-9._-]+__[A-Za-z0-9._-]+$`)

// FuzzParse: Parse never panics; what it accepts is safe to put in a path and
// to give to git, and parses again to the same repository; what it refuses is
// a one-line *SourceError.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"owner/repo", "https://github.com/owner/repo.git", "git@github.com:owner/repo",
		"ssh://git@host:22/a/b/c", "file:///tmp/owner/repo", "../x", "-rf", "a;b/c", "owner/repo\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		s, err := Parse(arg)
		if err != nil {
			var se *SourceError
			if !errors.As(err, &se) || se.Arg != arg {
				t.Fatalf("Parse(%q): error %#v is not a *SourceError for it", arg, err)
			}
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") || !strings.HasPrefix(msg, "clone: ") {
				t.Fatalf("Parse(%q): error %q is not one line starting with clone:", arg, msg)
			}
			return
		}
		if !nameRE.MatchString(s.Name) {
			t.Fatalf("Parse(%q): name %q does not match %s", arg, s.Name, nameRE)
		}
		for _, seg := range append(strings.Split(s.Name, "/"), strings.Split(s.Name, "__")...) {
			if seg == ".." || seg == "." {
				t.Fatalf("Parse(%q): name %q has a %q segment", arg, s.Name, seg)
			}
		}
		for _, seg := range strings.Split(strings.Trim(s.Path, "/"), "/") {
			if seg == "" || seg == ".." || seg == "." || seg[0] == '-' {
				t.Fatalf("Parse(%q): path %q has a bad segment %q", arg, s.Path, seg)
			}
		}
		if s.URL == "" || s.URL[0] == '-' || strings.ContainsAny(s.URL, " \t\r\n\x00;|&$`<>'\"\\") {
			t.Fatalf("Parse(%q): URL %q is unsafe", arg, s.URL)
		}
		again, err := Parse(s.URL)
		if err != nil || again.Name != s.Name || !again.Same(s) {
			t.Fatalf("Parse(%q) = %+v, but its URL parses to %+v, %v", arg, s, again, err)
		}
	})
}

// FuzzBranchName: what BranchName accepts is a valid branch that is no full
// ref (so git never makes refs/heads/refs/…); what it refuses is a one-line
// error starting with clone:.
func FuzzBranchName(f *testing.F) {
	for _, s := range []string{"feat", "refs/heads/feat", "refs/tags/v1", "refs/heads/", "refs/heads/refs/heads/x", "-x", "refs/", "heads/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		b, err := BranchName(arg)
		if err != nil {
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") || !strings.HasPrefix(msg, "clone: ") {
				t.Fatalf("BranchName(%q): error %q is not one line starting with clone:", arg, msg)
			}
			return
		}
		if strings.HasPrefix(b, "refs/") || ValidBranch(b) != nil {
			t.Fatalf("BranchName(%q) = %q: a full ref, or not a valid branch", arg, b)
		}
	})
}
