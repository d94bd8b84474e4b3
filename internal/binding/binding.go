// Package binding binds directories to accounts: "in ~/work use the work
// account". Bindings live in two small files under
// $XDG_CONFIG_HOME/claude-account/:
//
//   - bindings: written by `claude-account bind` and `unbind`;
//   - bindings.declared: written by the Nix module (a read-only store link),
//     never by the launcher.
//
// Both have one format: one binding a line, the directory and the account as
// JSON strings around "=", '#' starting a comment line:
//
//	"/home/me/work" = "work"
//
// A directory may start with "~/" (the home directory). The launcher reads the
// files only when no account was named, so a named launch pays nothing.
package binding

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/lock"
)

// File names under Dir.
const (
	FileName     = "bindings"
	DeclaredName = "bindings.declared"
)

// Binding is one directory bound to one account.
type Binding struct {
	Dir      string // as written in the file (absolute, or ~/…)
	Account  string
	Declared bool // from bindings.declared (Nix): bind and unbind leave it alone
	Line     int  // 1-based line in its file
}

// Dir is $XDG_CONFIG_HOME/claude-account, else ~/.config/claude-account.
func Dir(e env.Env) string {
	if v := e.Get("XDG_CONFIG_HOME"); filepath.IsAbs(v) {
		return filepath.Join(v, "claude-account")
	}
	return filepath.Join(e.Home(), ".config", "claude-account")
}

// Path is the file bind and unbind write.
func Path(e env.Env) string { return filepath.Join(Dir(e), FileName) }

// DeclaredPath is the file the Nix module writes.
func DeclaredPath(e env.Env) string { return filepath.Join(Dir(e), DeclaredName) }

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

// Read parses one bindings file; a missing file holds no bindings.
func Read(path string) ([]Binding, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// ReadAll reads both files: the declared bindings first.
func ReadAll(e env.Env) ([]Binding, error) {
	decl, err := Read(DeclaredPath(e))
	if err != nil {
		return nil, fromNix(err)
	}
	for i := range decl {
		decl[i].Declared = true
	}
	own, err := Read(Path(e))
	if err != nil {
		return nil, err
	}
	return append(decl, own...), nil
}

// Expand turns a written directory into a clean one with "~/" as the home
// directory (env.ExpandHome).
func Expand(e env.Env, d string) string { return filepath.Clean(e.ExpandHome(d)) }

// Canonical resolves symlinks in an absolute path; a path that does not
// exist (yet) is kept clean as it is.
func Canonical(p string) string {
	if c, err := filepath.EvalSymlinks(p); err == nil {
		return c
	}
	return filepath.Clean(p)
}

// Within reports whether dir is root or lies below it; both clean and absolute.
func Within(dir, root string) bool {
	if root == "/" {
		return strings.HasPrefix(dir, "/")
	}
	return dir == root || strings.HasPrefix(dir, root) && dir[len(root)] == '/'
}

// Match returns the binding whose canonical directory is the longest prefix
// of dir (canonical). canon maps a binding's directory to its canonical form.
// On equal directories a declared binding wins: Nix owns what it declares.
func Match(bs []Binding, dir string, canon func(string) string) (Binding, bool) {
	best, bestLen, found := Binding{}, -1, false
	for _, b := range bs {
		root := canon(b.Dir)
		if !Within(dir, root) {
			continue
		}
		if n := len(root); n > bestLen || n == bestLen && b.Declared && !best.Declared {
			best, bestLen, found = b, n, true
		}
	}
	return best, found
}

// Lookup finds the account bound to dir (absolute), symlinks resolved on
// both sides.
func Lookup(e env.Env, dir string) (Binding, bool, error) {
	return LookupWorktree(e, dir, "", "")
}

// LookupWorktree is Lookup for dir in a linked worktree whose own top level
// is toplevel and whose repository's main worktree is mainRoot (both
// canonical; "" outside a linked worktree). A worktree of a bound repository
// has the repository's account wherever it lives (git worktree add ../x,
// [worktree] dir = "../{repo}.worktrees"): the binding of mainRoot wins over
// one of the worktree's surroundings that does not also hold the repository.
// Only a binding of the worktree itself, or of a directory in it, wins over
// the repository's.
func LookupWorktree(e env.Env, dir, toplevel, mainRoot string) (Binding, bool, error) {
	bs, err := ReadAll(e)
	if err != nil || len(bs) == 0 {
		return Binding{}, false, err
	}
	canon := func(d string) string { return Canonical(Expand(e, d)) }
	own, ok := Match(bs, Canonical(dir), canon)
	if mainRoot == "" || toplevel == "" || ok && Within(canon(own.Dir), toplevel) {
		return own, ok, nil
	}
	// A binding that holds the worktree too was already weighed against the
	// worktree's own, deeper ones by Match.
	if repo, found := Match(bs, mainRoot, canon); found && !Within(toplevel, canon(repo.Dir)) {
		return repo, true, nil
	}
	return own, ok, nil
}

// ConflictError says a directory is already bound by Nix.
type ConflictError struct {
	Dir     string
	Binding Binding
	File    string
}

func (c *ConflictError) Error() string {
	return fmt.Sprintf("%s is bound to account %q by %s (Nix); change programs.claude-code.accounts.%s.directories instead",
		c.Dir, c.Binding.Account, c.File, c.Binding.Account)
}

// Accounts is every account bound to the directory b binds, b's own first,
// then the others in the files' order (declared first): a directory may be
// bound to several, among which a launch picks by headroom.
func Accounts(e env.Env, b Binding) ([]string, error) {
	bs, err := ReadAll(e)
	if err != nil {
		return nil, err
	}
	root := Canonical(Expand(e, b.Dir))
	out := []string{b.Account}
	for _, o := range bs {
		if !slices.Contains(out, o.Account) && Canonical(Expand(e, o.Dir)) == root {
			out = append(out, o.Account)
		}
	}
	return out, nil
}

// Also binds dir (canonical, absolute) to account beside the accounts it is
// bound to already, Nix's included; added is false when it was one of them.
func Also(e env.Env, dir, acct string) (added bool, err error) {
	if err := validName(acct); err != nil {
		return false, err
	}
	release, err := lock.Wait(lock.Dir(e), "bindings.state")
	if err != nil {
		return false, err
	}
	defer release()
	decl, own, err := readSplit(e)
	if err != nil {
		return false, err
	}
	for _, b := range append(decl, own...) {
		if b.Account == acct && Canonical(Expand(e, b.Dir)) == dir {
			return false, nil
		}
	}
	return true, write(e, append(own, Binding{Dir: dir, Account: acct}))
}

// Bind binds dir (canonical, absolute) to account alone in the bindings file
// and returns the accounts it was bound to before, comma-separated ("" if
// none).
func Bind(e env.Env, dir, acct string) (string, error) {
	if err := validName(acct); err != nil {
		return "", err
	}
	release, err := lock.Wait(lock.Dir(e), "bindings.state")
	if err != nil {
		return "", err
	}
	defer release()
	decl, own, err := readSplit(e)
	if err != nil {
		return "", err
	}
	for _, b := range decl {
		if Canonical(Expand(e, b.Dir)) == dir {
			return "", &ConflictError{Dir: dir, Binding: b, File: DeclaredPath(e)}
		}
	}
	// Every account dir was bound to (bind --also makes several) gives
	// way to acct.
	var was []string
	kept := own[:0]
	for _, b := range own {
		if Canonical(Expand(e, b.Dir)) == dir {
			was = append(was, b.Account)
			continue
		}
		kept = append(kept, b)
	}
	prev := strings.Join(was, ", ")
	if prev == acct {
		return prev, nil
	}
	kept = append(kept, Binding{Dir: dir, Account: acct})
	return prev, write(e, kept)
}

// Unbind removes dir's own bindings and returns the accounts they named,
// comma-separated; ok is false when dir had none in the bindings file.
func Unbind(e env.Env, dir string) (string, bool, error) {
	// Two binds at once must not lose one: read-modify-write in turns.
	release, err := lock.Wait(lock.Dir(e), "bindings.state")
	if err != nil {
		return "", false, err
	}
	defer release()
	decl, own, err := readSplit(e)
	if err != nil {
		return "", false, err
	}
	kept := own[:0]
	var was []string
	for _, b := range own {
		if Canonical(Expand(e, b.Dir)) == dir {
			was = append(was, b.Account)
			continue
		}
		kept = append(kept, b)
	}
	acct, found := strings.Join(was, ", "), len(was) > 0
	if !found {
		for _, b := range decl {
			if Canonical(Expand(e, b.Dir)) == dir {
				return "", false, &ConflictError{Dir: dir, Binding: b, File: DeclaredPath(e)}
			}
		}
		return "", false, nil
	}
	return acct, true, write(e, kept)
}

func readSplit(e env.Env) (decl, own []Binding, err error) {
	if decl, err = Read(DeclaredPath(e)); err != nil {
		return nil, nil, fromNix(err)
	}
	for i := range decl {
		decl[i].Declared = true
	}
	own, err = Read(Path(e))
	return decl, own, err
}

// write replaces the bindings file atomically; an existing file keeps its
// mode. The caller holds the bindings lock, so a temporary file of ours
// there is one a killed bind left: it goes first.
func write(e env.Env, bs []Binding) error {
	if err := os.MkdirAll(Dir(e), 0o755); err != nil {
		return err
	}
	for _, t := range Temps(e) {
		_ = os.Remove(t)
	}
	return fsx.WriteFile(Path(e), Format(bs), 0o644)
}

// Temps lists the temporary copies of the bindings file a killed bind or
// unbind left ("." + bindings + digits).
func Temps(e env.Env) []string {
	des, err := os.ReadDir(Dir(e))
	if err != nil {
		return nil
	}
	var out []string
	for _, de := range des {
		if de.Type().IsRegular() && fsx.IsTemp(de.Name(), FileName) {
			out = append(out, filepath.Join(Dir(e), de.Name()))
		}
	}
	return out
}

// SweepTemps removes Temps, taking the bindings lock so that no bind is
// writing one now.
func SweepTemps(e env.Env) error {
	release, err := lock.Wait(lock.Dir(e), "bindings.state")
	if err != nil {
		return err
	}
	defer release()
	for _, t := range Temps(e) {
		if err := os.Remove(t); err != nil {
			return err
		}
	}
	return nil
}
