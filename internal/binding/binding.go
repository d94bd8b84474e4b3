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
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/env"
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
