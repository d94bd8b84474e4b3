// Package claudever says which release of Claude Code a binary is, without
// starting it on every launch: Claude Code ships almost daily, Nix users run
// releases weeks or months old (nixpkgs wraps it with the auto-updater off),
// and what the launcher can share between worktrees depends on the release
// (see Rows).
//
// A version is read, in order, from the path (a Nix store path names its
// package and version; the native installer keeps versions/X.Y.Z), from the
// npm package's package.json beside the binary, and only then from
// `claude --version`, run once and cached by the binary's path, size, mtime
// and inode.
package claudever

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/tidwall/gjson"
)

// Version is a release of Claude Code: major.minor.patch.
type Version struct{ Major, Minor, Patch int }

// V is a Version literal.
func V(major, minor, patch int) Version { return Version{major, minor, patch} }

func (v Version) String() string {
	return strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor) + "." + strconv.Itoa(v.Patch)
}

// Less reports whether v is an older release than w.
func (v Version) Less(w Version) bool {
	if v.Major != w.Major {
		return v.Major < w.Major
	}
	if v.Minor != w.Minor {
		return v.Minor < w.Minor
	}
	return v.Patch < w.Patch
}

// AtLeast reports whether v is w or newer.
func (v Version) AtLeast(w Version) bool { return !v.Less(w) }

// Parse reads the first X.Y.Z in s ("2.1.90", "2.1.90 (Claude Code)",
// "v2.1.90", "2.1.90-beta"), as Claude prints it and as paths name it.
func Parse(s string) (Version, bool) {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) || i > 0 && isDigit(s[i-1]) || i > 1 && s[i-1] == '.' && isDigit(s[i-2]) {
			continue // not the start of a number, or the middle of a longer one
		}
		var parts [3]int
		j, n := i, 0
		for n < 3 {
			k := j
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			if k == j || k-j > 6 {
				break
			}
			parts[n], _ = strconv.Atoi(s[j:k])
			n++
			j = k
			if n < 3 {
				if j >= len(s) || s[j] != '.' {
					break
				}
				j++
			}
		}
		if n == 3 && (j >= len(s) || !isDigit(s[j]) && s[j] != '.') {
			return Version{parts[0], parts[1], parts[2]}, true
		}
	}
	return Version{}, false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Binary is a Claude Code binary and what is known of its release.
type Binary struct {
	Path    string  `json:"path"`              // as found (PATH, account.toml)
	Version Version `json:"-"`                 // valid when Known
	Known   bool    `json:"-"`                 // false: no source said
	From    string  `json:"versionFrom"`       // where the version was read
	Problem string  `json:"problem,omitempty"` // why it is not known
}

// MarshalJSON adds "version" ("" when unknown).
func (b Binary) MarshalJSON() ([]byte, error) {
	type plain Binary
	v := ""
	if b.Known {
		v = b.Version.String()
	}
	return json.Marshal(struct {
		plain
		Version string `json:"version"`
	}{plain(b), v})
}

// Describe is "2.1.90 (from package.json)" or "unknown (why)".
func (b Binary) Describe() string {
	if !b.Known {
		return "unknown (" + b.Problem + ")"
	}
	return b.Version.String() + " (from " + b.From + ")"
}

// Identify says which release the binary at path is. cacheFile keeps the
// answers of `claude --version` ("" to never run it); env is the environment
// it runs with.
func Identify(path, cacheFile string, env []string) Binary {
	b := Binary{Path: path}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path
	}
	for _, p := range []string{path, real} {
		if v, ok := fromStorePath(p); ok {
			b.Version, b.Known, b.From = v, true, "the Nix store path"
			return b
		}
		if v, ok := fromVersionsDir(p); ok {
			b.Version, b.Known, b.From = v, true, "the installer's versions dir"
			return b
		}
	}
	if v, ok := fromPackageJSON(real); ok {
		b.Version, b.Known, b.From = v, true, "package.json"
		return b
	}
	if cacheFile == "" {
		b.Problem = "no version in its path or package"
		return b
	}
	v, err := fromVersionFlag(real, cacheFile, env)
	if err != nil {
		b.Problem = err.Error()
		return b
	}
	b.Version, b.Known, b.From = v, true, "claude --version"
	return b
}

// fromStorePath reads /nix/store/<hash>-claude-code-<version>/… (also
// claude-code-bin-<version>): nixpkgs names every package by its version.
func fromStorePath(p string) (Version, bool) {
	rest, ok := strings.CutPrefix(p, "/nix/store/")
	if !ok {
		return Version{}, false
	}
	name, _, _ := strings.Cut(rest, "/")
	_, name, ok = strings.Cut(name, "-") // the hash
	if !ok {
		return Version{}, false
	}
	for _, pkg := range []string{"claude-code-bin-", "claude-code-"} {
		if ver, ok := strings.CutPrefix(name, pkg); ok {
			return Parse(ver)
		}
	}
	return Version{}, false
}

// fromVersionsDir reads the native installer's layout: the binary is
// …/claude/versions/<version>.
func fromVersionsDir(p string) (Version, bool) {
	if filepath.Base(filepath.Dir(p)) != "versions" {
		return Version{}, false
	}
	v, ok := Parse(filepath.Base(p))
	if !ok || v.String() != filepath.Base(p) {
		return Version{}, false
	}
	return v, true
}

// fromPackageJSON finds the npm package the binary belongs to (cli.js at its
// root, bin/claude.exe one below) and reads its version.
func fromPackageJSON(real string) (Version, bool) {
	dir := filepath.Dir(real)
	for i := 0; i < 3; i++ {
		data, err := fsx.ReadFile(filepath.Join(dir, "package.json"))
		if err == nil && len(data) < 1<<20 {
			if gjson.GetBytes(data, "name").Str == "@anthropic-ai/claude-code" {
				return Parse(gjson.GetBytes(data, "version").Str)
			}
		}
		dir = filepath.Dir(dir)
	}
	return Version{}, false
}

// cacheEntry is one binary as `claude --version` described it.
type cacheEntry struct {
	Size    int64  `json:"size"`
	MtimeNs int64  `json:"mtimeNs"`
	Ino     uint64 `json:"ino"`
	Version string `json:"version,omitempty"`
	Problem string `json:"problem,omitempty"` // with no version: why
}

// fromVersionFlag runs `claude --version` once per binary: the answer is
// kept by path, size, mtime and inode, so a new binary at the same path
// (an update) is asked again.
func fromVersionFlag(real, cacheFile string, env []string) (Version, error) {
	fi, err := os.Stat(real)
	if err != nil {
		return Version{}, err
	}
	key := cacheEntry{Size: fi.Size(), MtimeNs: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		key.Ino = uint64(st.Ino)
	}
	cache := map[string]cacheEntry{}
	if data, err := fsx.ReadFile(cacheFile); err == nil {
		_ = json.Unmarshal(data, &cache)
	}
	if c, ok := cache[real]; ok && c.Size == key.Size && c.MtimeNs == key.MtimeNs && c.Ino == key.Ino {
		if v, ok := Parse(c.Version); ok {
			return v, nil
		}
		// Asked before, with no answer: not asked again until it changes.
		return Version{}, errors.New(c.Problem)
	}
	v, err := askVersion(real, env)
	if err != nil {
		key.Problem = err.Error()
	} else {
		key.Version = v.String()
	}
	cache[real] = key
	if data, err := json.MarshalIndent(cache, "", "  "); err == nil {
		if err := os.MkdirAll(filepath.Dir(cacheFile), 0o700); err == nil || errors.Is(err, fs.ErrExist) {
			_ = fsx.WriteFile(cacheFile, append(data, '\n'), 0o600)
		}
	}
	return v, err
}

// askVersion runs `claude --version`.
func askVersion(real string, env []string) (Version, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, real, "--version")
	cmd.Env = env
	// Never in the repository: a version manager's shim (asdf, mise) picks
	// the release from files up the directory tree, so the answer, cached
	// for every repository, would be the first repository's to give.
	cmd.Dir = "/"
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return Version{}, errors.New("'" + real + " --version' failed: " + err.Error())
	}
	line, _, _ := strings.Cut(out.String(), "\n")
	v, ok := Parse(line)
	if !ok || !strings.Contains(out.String(), "Claude Code") {
		return Version{}, errors.New("'" + real + " --version' did not print a Claude Code version")
	}
	return v, nil
}
