package gitcmd

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/claude-account/claude-account/internal/gitctx"
)

// listCache keeps each repository's listing for the life of the process,
// keyed by its configuration files as they were (see repo.key).
var listCache sync.Map

// repo is a git dir and the configuration files of its local and worktree
// scopes, as git reads them.
type repo struct {
	gitDir  string
	files   []string
	modules []repo // the submodule git dirs git may enter from it
	sig     string // the files' identity and size, for the cache key
	listed  bool   // a file names a setting of the package comment, or is unreadable
}

// locate finds the repository git will use for g, as git does (gitctx
// mirrors git's discovery), and scans its configuration. known is false
// when it cannot tell (GIT_COMMON_DIR set, discovery failed): then git is
// asked.
func locate(g Git) (loc repo, known bool) {
	if _, ok := Getenv(g.Env, "GIT_COMMON_DIR"); ok {
		return repo{}, false
	}
	var gitDir, common string
	if g.GitDir != "" {
		gitDir = g.GitDir
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(g.Dir, gitDir)
		}
		common = commonDir(gitDir)
	} else {
		ctx, err := gitctx.Detect(g.Dir, func(name string) string { v, _ := Getenv(g.Env, name); return v })
		if err != nil {
			return repo{}, false
		}
		if ctx.Kind == gitctx.NotGit {
			return repo{}, true // no repository: only the user's configuration
		}
		gitDir, common = ctx.GitDir, ctx.CommonDir
	}
	loc = scan(gitDir, common)
	seen := map[string]bool{}
	for _, dir := range []string{gitDir, common} {
		for _, m := range submoduleGitDirs(filepath.Join(dir, "modules")) {
			if !seen[m] {
				seen[m] = true
				loc.modules = append(loc.modules, scan(m, commonDir(m)))
			}
		}
	}
	return loc, true
}

// commonDir is the common dir of a git dir: where its commondir file
// points, else itself.
func commonDir(gitDir string) string {
	data, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	c := strings.TrimRight(string(data), "\r\n")
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	return filepath.Clean(c)
}

// scan reads the configuration files of the local and worktree scopes of a
// git dir: <common>/config, and config.worktree in the git dir and the
// common dir (git reads one of them, and only under
// extensions.worktreeConfig: reading both is never less).
func scan(gitDir, common string) repo {
	r := repo{gitDir: gitDir}
	files := []string{filepath.Join(common, "config"), filepath.Join(common, "config.worktree")}
	if filepath.Clean(gitDir) != filepath.Clean(common) {
		files = append(files, filepath.Join(gitDir, "config.worktree"))
	}
	var sig strings.Builder
	for _, f := range files {
		data, fi, err := readConfig(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		r.files = append(r.files, f)
		if err != nil {
			r.listed = true // git may read what we cannot: ask it
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			fmt.Fprintf(&sig, "%s\x00%d:%d:%d:%d\x00", f, st.Dev, st.Ino, fi.Size(), fi.ModTime().UnixNano())
		}
		r.listed = r.listed || Names(data)
	}
	r.sig = sig.String()
	return r
}

// readConfig reads a configuration file as git would (following a link).
func readConfig(path string) ([]byte, fs.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fi, errors.New(path + " is not a regular file")
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fi, err
	}
	return data, fi, nil
}

// needsList reports whether git must be asked for the configuration of r or
// of a repository git may enter from it.
func (r repo) needsList() bool {
	if r.listed {
		return true
	}
	for _, m := range r.modules {
		if m.listed {
			return true
		}
	}
	return false
}

// key is the cache key of r's listing in the environment environ; ""
// (no caching) when unknown.
func (r repo) key(known bool, environ []string) string {
	if !known || r.sig == "" {
		return ""
	}
	return r.gitDir + "\x00" + r.sig + "\x00" + strings.Join(environ, "\x00")
}

// submoduleGitDirs lists the git dirs under a modules dir: a submodule named
// a/b lives in modules/a/b, and its own submodules in modules/a/b/modules.
// A git dir is a directory with a HEAD file and a config file.
func submoduleGitDirs(modules string) []string {
	var out []string
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if depth > 32 {
			return
		}
		des, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, de := range des {
			if !de.IsDir() {
				continue // a link is not followed: git makes these dirs itself
			}
			p := filepath.Join(dir, de.Name())
			if isFile(filepath.Join(p, "HEAD")) && isFile(filepath.Join(p, "config")) {
				out = append(out, p)
				walk(filepath.Join(p, "modules"), depth+1)
				continue
			}
			walk(p, depth+1)
		}
	}
	walk(modules, 0)
	return out
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// names are the words whose absence from a configuration file proves that
// it sets nothing Neutralise changes: the last part of each such key (a
// key's name is a word of letters, digits and '-' that git never splits
// or escapes), "hook" for hook.<name>.*, and the include sections, whose
// files only git reads.
var names = map[string]bool{
	"clean": true, "smudge": true, "process": true, "required": true, // filter.<x>.*
	"driver": true, "textconv": true, "command": true, "external": true, // merge, diff
	"hook": true, "helper": true, "sshcommand": true, "askpass": true, "gitproxy": true,
	"alternaterefscommand": true, "uploadpack": true, "receivepack": true, "vcs": true,
	"allow": true, "update": true, "include": true, "includeif": true,
}

// Names reports whether a configuration file's text holds one of names as
// a word (a run of letters, digits and '-', compared without case). It may
// say yes for a file that sets none (the word in a value or a comment);
// never no for one that does.
func Names(data []byte) bool {
	var w []byte
	for i := 0; i <= len(data); i++ {
		if i < len(data) {
			c := data[i]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' {
				w = append(w, c)
				continue
			}
		}
		if len(w) > 0 && names[string(w)] {
			return true
		}
		w = w[:0]
	}
	return false
}
