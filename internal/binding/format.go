package binding

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

// SyntaxError is a line of a bindings file that does not parse. The file is
// never rewritten while it holds one.
type SyntaxError struct {
	Path      string
	Line, Col int
	Msg       string
	Fix       string // "": fix or delete that line
}

func (e *SyntaxError) Error() string {
	fix := e.Fix
	if fix == "" {
		fix = "fix or delete that line (the file is left as it is)"
	}
	return fmt.Sprintf("%s:%d:%d: %s; %s", e.Path, e.Line, e.Col, e.Msg, fix)
}

// fromNix makes a syntax error in a file the Nix module writes name its fix:
// the file is a read-only link into the store.
func fromNix(err error) error {
	var se *SyntaxError
	if errors.As(err, &se) {
		se.Fix = "the file is written by home-manager: run 'home-manager switch'"
	}
	return err
}

// Parse reads a bindings file's content; path only names it in errors.
func Parse(data []byte, path string) ([]Binding, error) {
	var out []Binding
	err := parsePairs(data, path, "the directory", "the account", func(line, _ int, dir string, col int, acct string) error {
		if err := validDir(dir); err != nil {
			return &SyntaxError{Path: path, Line: line, Col: 1, Msg: err.Error()}
		}
		if err := validName(acct); err != nil {
			return &SyntaxError{Path: path, Line: line, Col: col, Msg: err.Error()}
		}
		out = append(out, Binding{Dir: dir, Account: acct, Line: line})
		return nil
	})
	return out, err
}

// parsePairs reads the lines `"<key>" = "<value>"` of data, handing each to
// pair with its line and the columns of key and value; '#' starts a comment
// line. key and value name the two strings in errors.
func parsePairs(data []byte, path, key, value string, pair func(line, keyCol int, k string, valueCol int, v string) error) error {
	line := 0
	for len(data) > 0 {
		line++
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		l = bytes.TrimSuffix(l, []byte{'\r'})
		fail := func(col int, format string, args ...any) error {
			return &SyntaxError{Path: path, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
		}
		if !utf8.Valid(l) {
			return fail(1, "not UTF-8")
		}
		col := skipSpace(l, 0)
		if col == len(l) || l[col] == '#' {
			continue
		}
		keyCol := col + 1
		k, next, err := quoted(l, col)
		if err != nil {
			return fail(col+1, "%s: %v", key, err)
		}
		col = skipSpace(l, next)
		if col == len(l) || l[col] != '=' {
			return fail(col+1, `expected "=" after %s`, key)
		}
		col = skipSpace(l, col+1)
		v, next, err := quoted(l, col)
		if err != nil {
			return fail(col+1, "%s: %v", value, err)
		}
		if rest := skipSpace(l, next); rest != len(l) {
			return fail(rest+1, "unexpected text after %s", value)
		}
		if err := pair(line, keyCol, k, col+1, v); err != nil {
			return err
		}
	}
	return nil
}

func skipSpace(l []byte, i int) int {
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	return i
}

// quoted reads the JSON string that starts at l[i].
func quoted(l []byte, i int) (string, int, error) {
	if i >= len(l) || l[i] != '"' {
		return "", i, errors.New(`expected a string in double quotes`)
	}
	j := i + 1
	for ; j < len(l); j++ {
		if l[j] == '\\' {
			j++
			continue
		}
		if l[j] == '"' {
			break
		}
	}
	if j >= len(l) {
		return "", i, errors.New("the string has no closing quote")
	}
	var s string
	if err := json.Unmarshal(l[i:j+1], &s); err != nil {
		return "", i, errors.New("not a valid JSON string")
	}
	return s, j + 1, nil
}

func validDir(d string) error {
	switch {
	case d == "":
		return errors.New("the directory is empty")
	case strings.ContainsRune(d, 0):
		return errors.New("the directory holds a NUL byte")
	case !filepath.IsAbs(d) && d != "~" && !strings.HasPrefix(d, "~/"):
		return fmt.Errorf("directory %q is not absolute (nor ~/…)", d)
	}
	return nil
}

// validName is account.ValidateName, repeated so that this package stays a
// leaf: [a-z0-9][a-z0-9_-]*, at most maxNameLen characters.
func validName(name string) error {
	if name == "" {
		return errors.New("the account name is empty")
	}
	for i, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || i > 0 && (r == '-' || r == '_')) {
			return fmt.Errorf("account name %q is not valid: use lower-case letters, digits, '-' and '_'", name)
		}
	}
	if len(name) > maxNameLen {
		return fmt.Errorf("account name %q is %d characters long; the limit is %d", name, len(name), maxNameLen)
	}
	return nil
}

// maxNameLen is account.MaxNameLen (a test keeps them equal).
const maxNameLen = 180

// Format lays bindings out as a bindings file, sorted by directory.
func Format(bs []Binding) []byte {
	bs = append([]Binding(nil), bs...)
	sort.Slice(bs, func(i, j int) bool { return bs[i].Dir < bs[j].Dir })
	var b bytes.Buffer
	b.WriteString("# claude-account bindings: \"DIRECTORY\" = \"ACCOUNT\", one a line.\n")
	b.WriteString("# Written by 'claude-account bind' and 'unbind'.\n")
	for _, x := range bs {
		d, _ := json.Marshal(x.Dir)
		a, _ := json.Marshal(x.Account)
		fmt.Fprintf(&b, "%s = %s\n", d, a)
	}
	return b.Bytes()
}
