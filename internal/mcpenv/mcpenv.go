// Package mcpenv is `claude-account mcp-env VAR=FILE… -- COMMAND ARGS…`: the
// command an MCP server declared with `env.VAR.file` (home-manager's file
// reference, for sops-nix and agenix secrets) runs as. Claude starts it; it
// reads each file when the server starts, exports its content as VAR, and
// execs the server. The secret so never enters the store, the account's
// generated files or a runtime's .claude.json (which archives of .git carry):
// only the file's path does.
package mcpenv

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/claude-account/claude-account/internal/fsx"
)

// Ref is one VAR=FILE argument: the variable to export and the file whose
// content it takes.
type Ref struct {
	Var, File string
}

// Usage is the command's shape, for errors.
const Usage = "claude-account mcp-env VAR=FILE… -- COMMAND ARGS…"

// MaxEntry is the longest environment string "VAR=secret" with its NUL
// that a program can be started with: Linux's MAX_ARG_STRLEN, 32 pages, on
// its smallest pages (4 KiB; macOS has no such limit, only the total).
// Longer, exec fails with E2BIG, which would blame the server's command.
const MaxEntry = 128 << 10

// Parse splits the arguments into the file references before "--" and the
// server's command line after it. Every reference is VAR=FILE with a
// variable name that is not empty and holds no NUL, and an absolute FILE
// (Claude starts the server in the project, so a relative path would name a
// different file in each); the command is not empty.
func Parse(args []string) ([]Ref, []string, error) {
	if !slices.Contains(args, "--") {
		return nil, nil, fmt.Errorf("no -- before the MCP server's command; run %s", Usage)
	}
	var refs []Ref
	for i, a := range args {
		if a == "--" {
			command := args[i+1:]
			if len(command) == 0 || command[0] == "" {
				return nil, nil, fmt.Errorf("no command after --; give the MCP server's command line: %s", Usage)
			}
			return refs, command, nil
		}
		v, file, ok := strings.Cut(a, "=")
		switch {
		case !ok || v == "" || strings.ContainsRune(a, 0):
			return nil, nil, fmt.Errorf("%q is not VAR=FILE; write each secret as the variable's name, '=' and the file's path: %s", a, Usage)
		case !filepath.IsAbs(file):
			return nil, nil, fmt.Errorf("the file of %s, %q, is not an absolute path; give the secret's absolute path (as sops-nix and agenix name it)", v, file)
		}
		refs = append(refs, Ref{Var: v, File: file})
	}
	return nil, nil, fmt.Errorf("no -- before the MCP server's command; run %s", Usage)
}

// Value is a secret's content as `$(cat FILE)` gives it, which home-manager's
// own wrapper uses: trailing newlines removed. It refuses a NUL, which no
// environment variable can hold, and a secret that with "VAR=" and its NUL
// is longer than MaxEntry.
func Value(ref Ref, data []byte) (string, error) {
	data = bytes.TrimRight(data, "\n")
	if bytes.IndexByte(data, 0) >= 0 {
		return "", fmt.Errorf("the file of %s, %s, holds a NUL byte, which no environment variable can carry; store the secret as text", ref.Var, ref.File)
	}
	if len(ref.Var)+len("=")+len(data)+len("\x00") > MaxEntry {
		return "", tooLong(ref)
	}
	return string(data), nil
}

func tooLong(ref Ref) error {
	return fmt.Errorf("the file of %s, %s, is too long for an environment variable: the system takes at most %d KiB for %s=, the secret and a NUL; shorten the secret, or pass the server the file's path instead", ref.Var, ref.File, MaxEntry>>10, ref.Var)
}

// Read reads one secret; its errors name the variable and the file, never
// the content. Only a regular file (or a link to one, as sops-nix makes)
// is read: a FIFO or a tty would hold the server's start for ever, opened
// non-blocking so that a FIFO without a writer is refused, not waited on.
func Read(ref Ref) (string, error) {
	f, err := os.OpenFile(ref.File, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", readError(ref, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", readError(ref, err)
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("the file of %s, %s, is %s, not a regular file; give the path of the secret's file (sops-nix and agenix deploy regular files, or links to them)", ref.Var, ref.File, fsx.Kind(st.Mode()))
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxEntry+1))
	if err != nil {
		return "", readError(ref, err)
	}
	if len(data) > MaxEntry {
		// Only trailing newlines could bring it under: none is that long.
		return "", tooLong(ref)
	}
	return Value(ref, data)
}

func readError(ref Ref, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	fix := "check that the secret is deployed (sops-nix, agenix) and readable by this user, or correct env." + ref.Var + ".file"
	if errors.Is(err, os.ErrNotExist) {
		fix = "deploy the secret there (sops-nix, agenix activate it at boot or login), or correct env." + ref.Var + ".file"
	}
	return fmt.Errorf("cannot read the file of %s, %s: %v; %s", ref.Var, ref.File, err, fix)
}

// Environ returns environ with each reference's secret set, later ones
// winning, in environ's order with new variables appended.
func Environ(environ []string, refs []Ref, read func(Ref) (string, error)) ([]string, error) {
	out := append([]string(nil), environ...)
	for _, ref := range refs {
		value, err := read(ref)
		if err != nil {
			return nil, err
		}
		entry := ref.Var + "=" + value
		replaced := false
		for i, kv := range out {
			if strings.HasPrefix(kv, ref.Var+"=") {
				out[i], replaced = entry, true
			}
		}
		if !replaced {
			out = append(out, entry)
		}
	}
	return out, nil
}

// Exec replaces this process with the server's command, found on the PATH
// of environ as Claude would find it, with environ, which holds the secrets
// of refs. It returns only on failure.
func Exec(command, environ []string, refs []Ref) error {
	path := command[0]
	if !strings.Contains(path, "/") {
		found, err := lookPath(path, environ)
		if err != nil {
			return fmt.Errorf("cannot find the MCP server's command %q on PATH; give its absolute path (in Nix: \"${pkgs.…}/bin/…\")", path)
		}
		path = found
	}
	err := syscall.Exec(path, command, environ)
	if errors.Is(err, syscall.E2BIG) {
		return tooBig(path, environ, refs)
	}
	return fmt.Errorf("cannot run the MCP server's command %s: %v; check that it exists and is executable", path, err)
}

// tooBig explains an E2BIG: each secret fits (Value), so the whole
// environment and argument list is over what the system starts a program
// with (a quarter of the stack limit on Linux, at least 128 KiB). The
// secrets are named with their sizes, as they are what mcp-env added.
func tooBig(path string, environ []string, refs []Ref) error {
	var sizes []string
	seen := map[string]bool{}
	for _, ref := range refs {
		if seen[ref.Var] {
			continue
		}
		seen[ref.Var] = true
		for _, kv := range environ {
			if value, ok := strings.CutPrefix(kv, ref.Var+"="); ok {
				sizes = append(sizes, fmt.Sprintf("%s (%d KiB)", ref.Var, (len(value)+1023)>>10))
			}
		}
	}
	if len(sizes) == 0 {
		return fmt.Errorf("cannot start the MCP server's command %s: its arguments and environment are more than the system starts a program with; shorten them", path)
	}
	return fmt.Errorf("cannot start the MCP server's command %s: its arguments and environment, with the secrets %s, are more than the system starts a program with; shorten the secrets, or pass the server their files' paths instead", path, and(sizes))
}

// and joins words as a sentence lists them: "A", "A and B", "A, B and C".
func and(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// lookPath is exec.LookPath on the PATH of environ rather than of this
// process (the same here: Claude hands the server its own environment).
func lookPath(name string, environ []string) (string, error) {
	for _, kv := range environ {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, dir := range filepath.SplitList(p) {
				if dir == "" {
					dir = "."
				}
				candidate := filepath.Join(dir, name)
				if st, err := os.Stat(candidate); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
					return candidate, nil
				}
			}
			return "", exec.ErrNotFound
		}
	}
	return "", exec.ErrNotFound
}
