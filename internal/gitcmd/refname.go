package gitcmd

import (
	"fmt"
	"strings"
)

// CheckRefName checks a full ref name read from a repository (a symbolic
// ref's target such as refs/remotes/origin/main) by git's rules
// (refs.c, check_refname_format, without flags): at least two
// components separated by '/', none empty, none starting with '.' or
// ending with ".lock"; no "..", "@{", control character, space, ':', '?',
// '[', '\', '^', '~' or '*' anywhere; not ending with '.'; not "@". A NUL,
// which would cut the name short in git, is refused too.
//
// A valid name may still read as an option once its prefix is taken off
// (refs/remotes/--output=x): see ShortRef.
func CheckRefName(name string) error {
	bad := func(why string) error { return fmt.Errorf("%q is not a ref name: %s", name, why) }
	if name == "@" {
		return bad("it is @")
	}
	comps := strings.Split(name, "/")
	if len(comps) < 2 {
		return bad("it has one component")
	}
	for _, c := range comps {
		if c == "" {
			return bad("it has an empty component")
		}
		if c[0] == '.' {
			return bad("a component starts with '.'")
		}
		if strings.HasSuffix(c, ".lock") {
			return bad("a component ends with .lock")
		}
	}
	if strings.HasSuffix(name, ".") {
		return bad("it ends with '.'")
	}
	if strings.Contains(name, "..") {
		return bad("it holds ..")
	}
	if strings.Contains(name, "@{") {
		return bad("it holds @{")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte(" :?[\\^~*", c) >= 0 {
			return bad(fmt.Sprintf("it holds %q", c))
		}
	}
	return nil
}

// ShortRef is a full ref name without prefix (refs/remotes/origin/main
// without refs/remotes/ is origin/main), as worktree list shows a base;
// the full name when the short one would read as an option to git (it
// starts with '-') or when name lacks the prefix.
func ShortRef(name, prefix string) string {
	short, ok := strings.CutPrefix(name, prefix)
	if !ok || short == "" || short[0] == '-' {
		return name
	}
	return short
}
