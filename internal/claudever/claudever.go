// Package claudever says which release of Claude Code a binary is, without
// starting it on every launch: Claude Code ships almost daily, Nix users run
// releases weeks or months old (nixpkgs wraps it with the auto-updater off),
// and what the launcher can share between worktrees depends on the release
// (see Rows).
//
// A release is read, in order: from the files (a Nix store path names its
// package and version; the native installer keeps versions/X.Y.Z; npm's
// package.json sits beside the binary), also behind a wrapper script, whose
// exec lines are read and followed (readFiles); then from what the launcher
// saw running in the same directory behind the very same files (Learn); then
// from `claude --version`, run once per set of files and kept only when it
// answered. A release nothing tells is unknown, never taken for the newest:
// Binary.Has is false for it, and the launcher then uses what works on every
// release.
package claudever

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

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
	Path string `json:"path"` // as found (PATH, account.toml)
	// Target is the file behind a wrapper script at Path where the release
	// was read ("" when Path itself told it).
	Target  string  `json:"target,omitempty"`
	Version Version `json:"-"`                 // valid when Known
	Known   bool    `json:"-"`                 // false: no source said
	From    string  `json:"versionFrom"`       // where the version was read
	Problem string  `json:"problem,omitempty"` // why it is not known
	// StartProblem (doctor only, Options.Probe): why Claude cannot start.
	StartProblem string `json:"startProblem,omitempty"`
	// Says (doctor only): what `claude --version` answered when that is not
	// the release the files told.
	Says string `json:"versionSays,omitempty"`
	// chain is every file the release was read through: the cache key.
	chain []fileID
	// OS is the system it runs on (GOOS: linux, darwin), which decides where
	// Claude keeps its login: a file on Linux, the keychain on macOS.
	// Identify and Missing set Host; a test sets the OS it decides for.
	OS string `json:"-"`
}

// Host is the system this program runs on, and so the Claude it starts.
const Host = runtime.GOOS

// Missing is the Claude of a command that found none: problem says why.
func Missing(problem string) Binary { return Binary{Problem: problem, OS: Host} }

// Keychain reports whether Claude keeps its login in the macOS keychain
// (an item named for a hash of a dir's path) rather than in a file.
func (b Binary) Keychain() bool { return b.OS == "darwin" }

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

// Label names the release in a sentence: "Claude Code 2.1.90", or "Claude
// Code of an unknown release".
func (b Binary) Label() string {
	if !b.Known {
		return "Claude Code of an unknown release"
	}
	return "Claude Code " + b.Version.String()
}

// FromRunning is Binary.From for a release seen running (Learn).
const FromRunning = "the Claude that ran here"

// FromVersionFlag is Binary.From for `claude --version`'s answer.
const FromVersionFlag = "claude --version"

// Options says where Identify may look beyond the files.
type Options struct {
	Cache string   // the file of what was learned (claude-versions.json); "" reads the files only
	Env   []string // the environment `claude --version` runs with
	// Dir is where this Claude is about to run: a release seen running
	// there behind the same files (Learn) is the answer.
	Dir string
	// Probe runs `claude --version` once even when the release is known
	// (doctor): it shows whether Claude starts at all (StartProblem) and
	// whether it agrees with the files (Says).
	Probe bool
	// NoAsk never runs `claude --version`: what the files and the cache
	// tell, or unknown (a listing of every account, which must stay cheap).
	NoAsk bool
}

// Identify says which release the binary at path is, from its files, what
// cacheFile learned, and as a last resort `claude --version` (run with env).
func Identify(path, cacheFile string, env []string) Binary {
	return IdentifyWith(path, Options{Cache: cacheFile, Env: env})
}

// IdentifyWith is Identify with every option. `claude --version` runs at
// most once per call: only when nothing else tells (or to Probe), and its
// answer is kept only when it gave one, keyed by every file the release
// depends on (the wrapper and what it leads to), so a change to any of them
// asks again. A failure — a timeout on a loaded machine, a wrapper that
// cannot start — is an unknown release this time, and asked again next time.
func IdentifyWith(path string, o Options) Binary {
	r := readFiles(path)
	b := Binary{Path: path, Target: r.target, chain: r.chain, OS: Host}
	if r.known {
		b.Version, b.Known, b.From = r.version, true, r.from
	} else {
		b.Problem = r.problem
	}
	if o.Cache == "" || r.known && !o.Probe {
		return b // the files tell: nothing more is read on the launch path
	}
	var e *cacheEntry
	if !r.known {
		e = readEntry(o.Cache, path, r.chain)
	}
	if e != nil && o.Dir != "" {
		if ran, ok := e.Ran[o.Dir]; ok {
			if v, ok := Parse(ran.Version); ok {
				b.Version, b.Known, b.From, b.Target, b.Problem = v, true, FromRunning, "", ""
			}
		}
	}
	cached := false
	if !b.Known && e != nil {
		if v, ok := Parse(e.Version); ok {
			b.Version, b.Known, b.From, b.Problem = v, true, FromVersionFlag, ""
			cached = true
		}
	}
	if b.Known && !o.Probe || o.NoAsk {
		return b
	}
	v, err := askVersion(path, o.Env)
	var start *StartError
	switch {
	case errors.As(err, &start):
		b.StartProblem = start.Msg
	case err == nil && b.Known && v != b.Version && !cached && b.From != FromRunning:
		b.Says = v.String()
	}
	if err != nil {
		if !b.Known {
			b.Problem = err.Error()
		}
		return b
	}
	if !b.Known || cached {
		b.Version, b.Known, b.From, b.Problem = v, true, FromVersionFlag, ""
		if e == nil || e.Version != v.String() {
			c := loadCache(o.Cache)
			c.put(path, r.chain, func(e *cacheEntry) { e.Version = v.String() })
			c.save(o.Cache)
		}
	}
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
