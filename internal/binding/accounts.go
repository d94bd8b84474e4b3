package binding

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/claude-account/claude-account/internal/env"
)

// AccountsName is the file, beside the bindings, where the Nix module names
// the dir of each account it keeps outside the default ~/.claude-<name>
// (configDir): a launch that found its account by directory, or by --account
// alone, has no CLAUDE_ACCOUNT_DIR to say where it is. One line an account:
//
//	"work" = "/home/me/.config/claude-work"
const AccountsName = "accounts.declared"

// AccountsPath is the file the Nix module writes.
func AccountsPath(e env.Env) string { return filepath.Join(Dir(e), AccountsName) }

// DeclaredAccountDir is the dir the Nix module declared for the account
// name, "" when it declared none (the account is in its default place).
func DeclaredAccountDir(e env.Env, name string) (string, error) {
	dirs, err := declaredAccounts(e)
	return dirs[name], err
}

// declaredAccounts reads accounts.declared: account → dir, ~ expanded.
func declaredAccounts(e env.Env) (map[string]string, error) {
	path := AccountsPath(e)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	dirs := map[string]string{}
	err = parsePairs(data, path, "the account", "its directory", func(line, keyCol int, acct string, col int, dir string) error {
		if err := validName(acct); err != nil {
			return &SyntaxError{Path: path, Line: line, Col: keyCol, Msg: err.Error()}
		}
		if err := validDir(dir); err != nil {
			return &SyntaxError{Path: path, Line: line, Col: col, Msg: err.Error()}
		}
		dirs[acct] = Expand(e, dir)
		return nil
	})
	if err != nil {
		return nil, fromNix(err)
	}
	return dirs, nil
}

// AccountDir is where the account name lives: the dir the Nix module
// declared for it, else ~/.claude-<name> (account.DefaultDir, repeated so
// that this package stays a leaf).
func AccountDir(e env.Env, name string) (string, error) {
	dir, err := DeclaredAccountDir(e, name)
	if dir == "" && err == nil {
		dir = filepath.Join(e.Home(), ".claude-"+name)
	}
	return dir, err
}

// accountFile is account.FileName, repeated so that this package stays a
// leaf (TestAccountFileName keeps the two the same).
const accountFile = "account.toml"

// Skipped is a ~/.claude-* directory that is not taken for an account, and
// why: a backup, or another tool's (claude-code-router keeps
// ~/.claude-code-router).
type Skipped struct {
	Dir    string
	Name   string // the account it would be
	Reason string // NoAccountFile or BadName
}

// Reasons a directory is skipped.
const (
	NoAccountFile = "no account.toml"
	BadName       = "not a valid account name"
)

// FindAccounts is the one place the launcher finds the accounts it was not
// told: the directories ~/.claude-<name> that hold an account.toml (init
// writes one; home-manager's is a link into the Nix store: the link counts,
// whatever it points at), and the
// accounts of accounts.declared whose directory exists (home-manager named
// them). Any other ~/.claude-* directory is skipped, with why: a backup of
// an account, or another tool's, is no account to list, search, or pick
// for headroom (its unknown usage counted as half used, and won over real
// accounts at 70%). Names are sorted; a file that cannot be read adds
// nothing. An account named outright (--account NAME) still loads without
// an account.toml: only guessing needs one.
func FindAccounts(e env.Env) (names []string, skipped []Skipped) {
	seen := map[string]bool{}
	if entries, err := os.ReadDir(e.Home()); err == nil {
		for _, de := range entries {
			name, ok := strings.CutPrefix(de.Name(), ".claude-")
			dir := filepath.Join(e.Home(), de.Name())
			if !ok || !isDir(dir) {
				continue
			}
			_, err := os.Lstat(filepath.Join(dir, accountFile))
			switch {
			case validName(name) != nil:
				skipped = append(skipped, Skipped{Dir: dir, Name: name, Reason: BadName})
			case err != nil:
				skipped = append(skipped, Skipped{Dir: dir, Name: name, Reason: NoAccountFile})
			default:
				seen[name] = true
			}
		}
	}
	dirs, _ := declaredAccounts(e)
	for name, dir := range dirs {
		if isDir(dir) {
			seen[name] = true
		}
	}
	names = make([]string, 0, len(seen))
	for name := range seen {
		names = append(names, name)
	}
	sort.Strings(names)
	// A directory accounts.declared names is home-manager's account,
	// account.toml or not.
	skipped = slices.DeleteFunc(skipped, func(s Skipped) bool { return dirs[s.Name] == s.Dir })
	return names, skipped
}

// KnownAccounts is the names FindAccounts finds.
func KnownAccounts(e env.Env) []string {
	names, _ := FindAccounts(e)
	return names
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// Nearest is the known account a mistyped name most likely meant: the same
// name in lower case (names are lower case: --account Max means max), else
// the one fewest edits away (a letter added, dropped, changed, or two
// swapped), at most one edit for names of up to four letters and two for
// longer ones; "" when none is that close. Ties go to the first in known.
// It is the one place the launcher guesses an account name.
func Nearest(name string, known []string) string {
	if lower := strings.ToLower(name); lower != name {
		for _, k := range known {
			if k == lower {
				return k
			}
		}
		name = lower // and a near miss in any case: Wrok means work
	}
	limit := 1
	if len(name) > 4 {
		limit = 2
	}
	best, bestDist := "", limit+1
	for _, k := range known {
		if k == name {
			continue
		}
		if d := editDistance(name, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and swaps of neighbours each cost one.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
