// Package env holds the process environment as a value, read once at start and
// passed down, so that tests can give each run its own HOME, XDG_* and GIT_*
// without touching the process (direnv does the same).
package env

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/claude-account/claude-account/internal/shell"
)

// Env is an environment: variable name to value.
type Env map[string]string

// FromOS reads the environment of this process.
func FromOS() Env { return FromList(os.Environ()) }

// FromList parses NAME=VALUE entries; later entries win, as in execve.
func FromList(list []string) Env {
	e := make(Env, len(list))
	for _, kv := range list {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			e[k] = v
		}
	}
	return e
}

// Get returns the value of name, or "" when unset.
func (e Env) Get(name string) string { return e[name] }

// With returns a copy of e with the given NAME, VALUE pairs set.
func (e Env) With(pairs ...string) Env {
	c := make(Env, len(e)+len(pairs)/2)
	for k, v := range e {
		c[k] = v
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		c[pairs[i]] = pairs[i+1]
	}
	return c
}

// List renders e as sorted NAME=VALUE entries for exec.
func (e Env) List() []string {
	l := make([]string, 0, len(e))
	for k, v := range e {
		l = append(l, k+"="+v)
	}
	sort.Strings(l)
	return l
}

// Home is $HOME, falling back to the user database only when HOME is unset.
func (e Env) Home() string {
	if h := e["HOME"]; h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// ExpandHome reads a leading "~" or "~/" as the home directory, as a shell
// would, in paths users write into config files; "~user" is left alone.
func (e Env) ExpandHome(p string) string {
	if p == "~" {
		return e.Home()
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(e.Home(), rest)
	}
	return p
}

// xdg returns the absolute value of an XDG variable or HOME/fallback: the
// XDG spec says relative values are invalid and must be ignored.
func (e Env) xdg(name, fallback string) string {
	if v := e[name]; filepath.IsAbs(v) {
		return v
	}
	return filepath.Join(e.Home(), fallback)
}

// StateHome is $XDG_STATE_HOME, else ~/.local/state.
func (e Env) StateHome() string { return e.xdg("XDG_STATE_HOME", ".local/state") }

// DataHome is $XDG_DATA_HOME, else ~/.local/share.
func (e Env) DataHome() string { return e.xdg("XDG_DATA_HOME", ".local/share") }

// CacheHome is $XDG_CACHE_HOME, else ~/.cache.
func (e Env) CacheHome() string { return e.xdg("XDG_CACHE_HOME", ".cache") }

// TildePath shortens a path under HOME to ~/… for messages.
func (e Env) TildePath(p string) string {
	h := e.Home()
	if h == "" || h == "/" {
		return p
	}
	if p == h {
		return "~"
	}
	if rest, ok := strings.CutPrefix(p, h+"/"); ok {
		return "~/" + rest
	}
	return p
}

// ShellPath is p as a command a message suggests should name it, ready to
// copy into a shell: TildePath's ~/ left bare (so the shell expands it), the
// rest a shell.Quote.
func (e Env) ShellPath(p string) string {
	p = e.TildePath(p)
	if p == "~" {
		return p
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return "~/" + shell.Quote(rest)
	}
	return shell.Quote(p)
}
