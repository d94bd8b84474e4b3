// Package clone keeps bare clones of remote repositories and worktrees of
// them under one base directory:
//
//	BASE/repos/OWNER__REPO.git        a bare clone with remote-tracking branches
//	BASE/worktrees/OWNER__REPO/BRANCH one worktree per branch ('/' → '+')
//
// Parse turns what a user typed into a Source without touching anything;
// EnsureRepo and EnsureWorktree run git.
package clone

import (
	"fmt"
	"strings"
)

// Source is a repository to clone.
type Source struct {
	URL  string // what git clones, e.g. https://github.com/owner/repo.git
	Name string // the directory name: OWNER__REPO, matching ^[A-Za-z0-9._-]+__[A-Za-z0-9._-]+$
	Host string // lower-cased host without user or port; "" for file://
	Path string // the repository's path on Host, without a trailing .git
}

// Same reports whether s and o are the same repository reached perhaps by
// another transport: git@github.com:o/r and https://github.com/o/r.git are.
func (s Source) Same(o Source) bool { return s.Host == o.Host && s.Path == o.Path }

// SourceError is an argument that is neither owner/repo nor a git URL.
type SourceError struct{ Arg string }

func (e *SourceError) Error() string {
	return fmt.Sprintf("clone: %q is not owner/repo or a git URL (https://, ssh://, git@host:owner/repo, file://)", e.Arg)
}

const (
	maxArg  = 4096
	maxName = 200 // leaves room for ".git" and a temporary suffix in a 255-byte file name
)

// Parse reads OWNER/REPO (a GitHub repository), https://HOST/…/OWNER/REPO,
// ssh://[USER@]HOST/…/OWNER/REPO, USER@HOST:…/OWNER/REPO or
// file:///…/OWNER/REPO, each with an optional .git, into a Source. The name is
// always the last two path segments. Every path segment, user and host is
// limited to letters, digits, '.', '_' and '-', may not start with '-' (git
// would take it for an option) and may not be '.' or '..'; so whitespace,
// control characters, quotes, shell metacharacters and percent-escapes are all
// refused. Nothing is lower-cased.
func Parse(arg string) (Source, error) {
	s, ok := parse(arg)
	if !ok {
		return Source{}, &SourceError{Arg: arg}
	}
	return s, nil
}

func parse(arg string) (Source, bool) {
	if arg == "" || len(arg) > maxArg {
		return Source{}, false
	}
	var host, path string
	short := false
	switch {
	case strings.HasPrefix(arg, "https://"):
		auth, p, ok := strings.Cut(strings.TrimPrefix(arg, "https://"), "/")
		if !ok {
			return Source{}, false
		}
		if host, ok = authority(auth); !ok {
			return Source{}, false
		}
		path = strings.TrimSuffix(p, "/")
	case strings.HasPrefix(arg, "ssh://"):
		auth, p, ok := strings.Cut(strings.TrimPrefix(arg, "ssh://"), "/")
		if !ok {
			return Source{}, false
		}
		if host, ok = authority(auth); !ok {
			return Source{}, false
		}
		path = strings.TrimSuffix(p, "/")
	case strings.HasPrefix(arg, "file://"):
		p, ok := strings.CutPrefix(arg, "file:///") // no host: file://HOST/… is not local
		if !ok {
			return Source{}, false
		}
		path = strings.TrimSuffix(p, "/")
	case strings.Contains(arg, "://"):
		return Source{}, false // http://, git://, ext::… and the like
	case strings.Contains(arg, ":"):
		// scp-like: USER@HOST:PATH. The user is required, so that a bare
		// word with a colon is never taken for a host.
		auth, p, _ := strings.Cut(arg, ":")
		user, h, ok := strings.Cut(auth, "@")
		if !ok || !segment(user) || !hostname(h) {
			return Source{}, false
		}
		host = strings.ToLower(h)
		path = strings.TrimSuffix(strings.TrimPrefix(p, "/"), "/")
	default:
		// OWNER/REPO on GitHub: exactly two parts.
		if strings.Count(arg, "/") != 1 {
			return Source{}, false
		}
		host, path, short = "github.com", arg, true
	}
	segs := strings.Split(path, "/")
	if len(segs) < 2 {
		return Source{}, false
	}
	last := len(segs) - 1
	segs[last] = strings.TrimSuffix(segs[last], ".git")
	for _, s := range segs {
		if !segment(s) {
			return Source{}, false
		}
	}
	src := Source{
		URL:  arg,
		Name: segs[last-1] + "__" + segs[last],
		Host: host,
		Path: strings.Join(segs, "/"),
	}
	if len(src.Name) > maxName {
		return Source{}, false
	}
	// "__" joins owner and repository in the directory name: a part that
	// ends or starts with dots next to it ("..__x") would read as a ".."
	// piece of that name, so it is refused.
	for _, piece := range strings.Split(src.Name, "__") {
		if piece == "." || piece == ".." {
			return Source{}, false
		}
	}
	if short {
		src.URL = "https://github.com/" + src.Path + ".git"
	}
	if strings.HasPrefix(arg, "file://") {
		src.Path = "/" + src.Path
	}
	return src, true
}

// authority checks [USER@]HOST[:PORT] of a URL and returns the lower-cased host.
// A password is refused: it would be printed and stored in the clone's config.
func authority(a string) (string, bool) {
	if user, rest, ok := strings.Cut(a, "@"); ok {
		if !segment(user) {
			return "", false
		}
		a = rest
	}
	host, port, hasPort := strings.Cut(a, ":")
	if hasPort && (port == "" || len(port) > 5 || strings.Trim(port, "0123456789") != "") {
		return "", false
	}
	if !hostname(host) {
		return "", false
	}
	return strings.ToLower(host), true
}

// hostname: letters, digits, '.' and '-', not starting with '-' or '.'
// (ssh would take "-oProxyCommand=…" for an option).
func hostname(h string) bool {
	if h == "" || h[0] == '-' || h[0] == '.' || len(h) > 253 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// segment: one path part, user name, owner or repository name.
func segment(s string) bool {
	if s == "" || s == "." || s == ".." || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
