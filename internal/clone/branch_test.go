package clone

import (
	"errors"
	"os/exec"
	"testing"
)

var branches = []struct {
	b  string
	ok bool
}{
	{"main", true}, {"feature", true}, {"fix/login", true}, {"me/topic/one", true},
	{"a+b", true}, {"v1.2", true}, {"UPPER_case-1", true}, {"naïve", true}, {"a@b", true},
	{"", false}, {"-f", false}, {"--orphan", false}, {"HEAD", false}, {"@", false},
	{"a..b", false}, {"a b", false}, {"a~1", false}, {"a^", false}, {"a:b", false},
	{"a?", false}, {"a*", false}, {"a[", false}, {`a\b`, false}, {"a\nb", false}, {"a\tb", false},
	{"a\x7f", false}, {"a@{1}", false}, {"a.", false}, {"a/", false}, {"/a", false},
	{"a//b", false}, {".a", false}, {"a/.b", false}, {"a.lock", false}, {"a/b.lock/c", false},
	{"\xff", false},
}

func TestValidBranch(t *testing.T) {
	for _, c := range branches {
		err := ValidBranch(c.b)
		if (err == nil) != c.ok {
			t.Errorf("ValidBranch(%q) = %v, want ok=%v", c.b, err, c.ok)
		}
		var be *BranchError
		if err != nil && !errors.As(err, &be) {
			t.Errorf("ValidBranch(%q) error %#v is not a *BranchError", c.b, err)
		}
	}
}

// TestValidBranchAgreesWithGit: what we accept, git accepts.
func TestValidBranchAgreesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for _, c := range branches {
		if !c.ok {
			continue
		}
		if out, err := exec.Command("git", "check-ref-format", "--branch", c.b).CombinedOutput(); err != nil {
			t.Errorf("git check-ref-format --branch %q: %v %s", c.b, err, out)
		}
	}
}

func TestFlatBranch(t *testing.T) {
	for in, want := range map[string]string{"main": "main", "fix/login": "fix+login", "a/b/c": "a+b+c", "a+b": "a+b"} {
		if got := FlatBranch(in); got != want {
			t.Errorf("FlatBranch(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBranchName(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"feat", "feat", ""},
		{"refs/heads/feat", "feat", ""},
		{"refs/heads/me/feat", "me/feat", ""},
		{"refs/tags/v1", "", "ref"},
		{"refs/remotes/origin/x", "", "ref"},
		{"refs/heads/", "", "branch"},
		{"refs/heads/refs/heads/x", "", "branch"},
		{"refs/heads/-x", "", "branch"},
		{"-x", "", "branch"},
	} {
		got, err := BranchName(c.in)
		var re *RefError
		var be *BranchError
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("BranchName(%q) = %q, %v; want %q", c.in, got, err, c.want)
		case c.err == "ref" && !errors.As(err, &re):
			t.Errorf("BranchName(%q) = %q, %v; want a *RefError", c.in, got, err)
		case c.err == "branch" && !errors.As(err, &be):
			t.Errorf("BranchName(%q) = %q, %v; want a *BranchError", c.in, got, err)
		}
	}
}
