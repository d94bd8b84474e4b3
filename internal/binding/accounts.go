package binding

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

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
	path := AccountsPath(e)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	found := ""
	err = parsePairs(data, path, "the account", "its directory", func(line, keyCol int, acct string, col int, dir string) error {
		if err := validName(acct); err != nil {
			return &SyntaxError{Path: path, Line: line, Col: keyCol, Msg: err.Error()}
		}
		if err := validDir(dir); err != nil {
			return &SyntaxError{Path: path, Line: line, Col: col, Msg: err.Error()}
		}
		if acct == name {
			found = Expand(e, dir)
		}
		return nil
	})
	if err != nil {
		return "", fromNix(err)
	}
	return found, nil
}
