package clone

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		arg, url, name, host, path string
	}{
		{"owner/repo", "https://github.com/owner/repo.git", "owner__repo", "github.com", "owner/repo"},
		{"owner/repo.git", "https://github.com/owner/repo.git", "owner__repo", "github.com", "owner/repo"},
		{"Owner/Repo", "https://github.com/Owner/Repo.git", "Owner__Repo", "github.com", "Owner/Repo"},
		{"o.x/r_y-z", "https://github.com/o.x/r_y-z.git", "o.x__r_y-z", "github.com", "o.x/r_y-z"},
		{"owner/.github", "https://github.com/owner/.github.git", "owner__.github", "github.com", "owner/.github"},
		{"https://github.com/owner/repo", "https://github.com/owner/repo", "owner__repo", "github.com", "owner/repo"},
		{"https://github.com/owner/repo.git", "https://github.com/owner/repo.git", "owner__repo", "github.com", "owner/repo"},
		{"https://github.com/owner/repo/", "https://github.com/owner/repo/", "owner__repo", "github.com", "owner/repo"},
		{"https://GitHub.com:443/owner/repo", "https://GitHub.com:443/owner/repo", "owner__repo", "github.com", "owner/repo"},
		{"https://me@gitlab.com/group/sub/repo", "https://me@gitlab.com/group/sub/repo", "sub__repo", "gitlab.com", "group/sub/repo"},
		{"ssh://git@github.com/owner/repo.git", "ssh://git@github.com/owner/repo.git", "owner__repo", "github.com", "owner/repo"},
		{"ssh://host:2222/a/b/c", "ssh://host:2222/a/b/c", "b__c", "host", "a/b/c"},
		{"git@github.com:owner/repo", "git@github.com:owner/repo", "owner__repo", "github.com", "owner/repo"},
		{"git@github.com:owner/repo.git", "git@github.com:owner/repo.git", "owner__repo", "github.com", "owner/repo"},
		{"me@host:/srv/git/owner/repo.git", "me@host:/srv/git/owner/repo.git", "owner__repo", "host", "srv/git/owner/repo"},
		{"file:///tmp/x/owner/repo", "file:///tmp/x/owner/repo", "owner__repo", "", "/tmp/x/owner/repo"},
		{"file:///owner/repo.git", "file:///owner/repo.git", "owner__repo", "", "/owner/repo"},
		{"repo.git.git/x.git.git", "https://github.com/repo.git.git/x.git.git", "repo.git.git__x.git", "github.com", "repo.git.git/x.git"},
	} {
		got, err := Parse(c.arg)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.arg, err)
			continue
		}
		want := Source{URL: c.url, Name: c.name, Host: c.host, Path: c.path}
		if got != want {
			t.Errorf("Parse(%q) = %+v, want %+v", c.arg, got, want)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for _, arg := range []string{
		"", "owner", "owner/", "/repo", "owner/repo/extra", "owner//repo", "owner/repo/",
		"../x", "x/..", "./x", "x/.", "owner/.git", "owner/..git", "owner/...git",
		"-rf", "-o/repo", "owner/-repo", "--upload-pack=x/y",
		"a;b/c", "a|b/c", "a&b/c", "a$b/c", "a`b`/c", "a<b/c", "a>b/c", "a'b/c", `a"b/c`, `a\b/c`,
		"owner/re po", " owner/repo", "owner/repo ", "owner/repo\n", "owner/repo\nx", "owner/\trepo",
		"owner/repo\x00", "owner/rep\x7fo", "own\u00e9r/repo", "owner/repo?x=1", "owner/repo#frag",
		"owner/re%20po", "owner/re*po", "~/repo", "owner/repo~",
		"http://github.com/owner/repo", "git://github.com/owner/repo", "ext::sh -c touch% /tmp/x",
		"HTTPS://github.com/owner/repo", "https://", "https://github.com", "https://github.com/",
		"https://github.com/repo", "https://github.com/owner/repo//", "https://github.com//owner/repo",
		"https://-oProxy/owner/repo", "https://.host/owner/repo", "https://user:pass@host/owner/repo",
		"https://@host/owner/repo", "https://host:/owner/repo", "https://host:123456/owner/repo",
		"https://host:x/owner/repo", "https://[::1]/owner/repo", "https://host/owner/../repo",
		"https://host/owner/repo?x", "ssh://-oProxyCommand=touch:x/owner/repo", "ssh://host",
		"ssh://git@-host/owner/repo", "ssh://-user@host/owner/repo",
		"git@host", "git@host:", "git@host:repo", "git@:owner/repo", "@host:owner/repo",
		"host:owner/repo", "-git@host:owner/repo", "git@-host:owner/repo", "git@host:owner/repo:x",
		"git@host:owner/../repo", "git@host://owner/repo",
		"file://", "file:///", "file:///repo", "file://host/owner/repo", "file://owner/repo",
		"file:////owner/repo", "file:///a/../repo", "file:///a/b c/owner/repo",
		strings.Repeat("a", 150) + "/" + strings.Repeat("b", 150),
	} {
		got, err := Parse(arg)
		if err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", arg, got)
			continue
		}
		var se *SourceError
		if !errors.As(err, &se) || se.Arg != arg {
			t.Errorf("Parse(%q) error %#v is not a *SourceError for it", arg, err)
		}
		if got != (Source{}) {
			t.Errorf("Parse(%q) returned %+v with its error", arg, got)
		}
	}
}

func TestParseError(t *testing.T) {
	_, err := Parse("a;b\n/c")
	const want = `clone: "a;b\n/c" is not owner/repo or a git URL (https://, ssh://, git@host:owner/repo, file://)`
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
}

func TestSame(t *testing.T) {
	same := [][2]string{
		{"owner/repo", "https://github.com/owner/repo"},
		{"owner/repo", "git@github.com:owner/repo.git"},
		{"owner/repo", "ssh://git@GitHub.com:22/owner/repo/"},
		{"file:///x/owner/repo", "file:///x/owner/repo.git"},
	}
	differ := [][2]string{
		{"owner/repo", "Owner/repo"},
		{"owner/repo", "https://gitlab.com/owner/repo"},
		{"https://gitlab.com/a/sub/repo", "https://gitlab.com/b/sub/repo"},
		{"file:///a/owner/repo", "file:///b/owner/repo"},
		{"file:///github.com/owner/repo", "https://github.com/owner/repo"},
	}
	for _, want := range []bool{true, false} {
		pairs := same
		if !want {
			pairs = differ
		}
		for _, p := range pairs {
			a, err := Parse(p[0])
			if err != nil {
				t.Fatal(err)
			}
			b, err := Parse(p[1])
			if err != nil {
				t.Fatal(err)
			}
			if a.Same(b) != want || b.Same(a) != want {
				t.Errorf("Same(%s, %s) = %v, want %v", p[0], p[1], !want, want)
			}
		}
	}
}
