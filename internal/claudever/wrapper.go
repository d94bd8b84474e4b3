package claudever

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxWrapper is the largest file read as a wrapper script: a Nix makeWrapper
// script is a few KiB, a hand-written one a few lines; Claude itself (a
// native binary, or npm's cli.js) is megabytes and is never read.
const maxWrapper = 64 << 10

// maxHops bounds how many wrappers are followed, one inside the other.
const maxHops = 8

// fileID is one file a release was read through, as the cache keys it: a
// new file at the same path (an upgrade, a rollback) has another inode,
// size or mtime.
type fileID struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"` // -1: the file is missing
	MtimeNs int64  `json:"mtimeNs"`
	Ino     uint64 `json:"ino"`
}

func idOf(path string, fi fs.FileInfo) fileID {
	id := fileID{Path: path, Size: fi.Size(), MtimeNs: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		id.Ino = uint64(st.Ino)
	}
	return id
}

// reading is what the files alone say of a binary's release.
type reading struct {
	version Version
	known   bool
	from    string   // where it was read: "the Nix store path", "package.json" …
	target  string   // the file behind a wrapper it was read from; "" for the binary itself
	chain   []fileID // every file followed: the release depends on each
	problem string   // with !known: why the files do not say
}

// readFiles reads the release from the files: the binary's path (a Nix store
// path, the installer's versions dir), npm's package.json beside it, and —
// when the binary is a small script — the same of every absolute path its
// exec lines name, followed up to maxHops deep. The script is read, never
// run: `exec -a "$0" "/nix/store/…-claude-code-2.1.90/bin/.claude-wrapped" "$@"`
// (Nix's makeWrapper), `exec /opt/claude/bin/claude "$@"`, `exec env X=1
// /usr/bin/node /…/cli.js "$@"`. A path that needs the shell to expand
// ("$basedir/claude") is not followed. Exec lines that lead to two releases
// are no answer.
func readFiles(path string) reading {
	var r reading
	type hit struct {
		v            Version
		from, target string
	}
	var hits []hit
	seen := map[string]bool{}
	var visit func(p string, depth int)
	visit = func(p string, depth int) {
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			r.chain = append(r.chain, fileID{Path: p, Size: -1})
			return
		}
		if seen[real] {
			return
		}
		seen[real] = true
		fi, err := os.Stat(real)
		if err != nil {
			r.chain = append(r.chain, fileID{Path: real, Size: -1})
			return
		}
		r.chain = append(r.chain, idOf(real, fi))
		target := ""
		if depth > 0 {
			target = p
		}
		for _, q := range []string{p, real} {
			if v, ok := fromStorePath(q); ok {
				hits = append(hits, hit{v, "the Nix store path", target})
				return
			}
			if v, ok := fromVersionsDir(q); ok {
				hits = append(hits, hit{v, "the installer's versions dir", target})
				return
			}
		}
		if v, ok := fromPackageJSON(real); ok {
			hits = append(hits, hit{v, "package.json", target})
			return
		}
		if depth >= maxHops {
			return
		}
		for _, t := range execTargets(real, fi) {
			visit(t, depth+1)
		}
	}
	visit(path, 0)
	for _, h := range hits {
		if h.v != hits[0].v {
			r.problem = "its wrapper leads to more than one release (" + hits[0].v.String() + " in " + hits[0].target + ", " + h.v.String() + " in " + h.target + ")"
			return r
		}
	}
	if len(hits) > 0 {
		r.version, r.known, r.from, r.target = hits[0].v, true, hits[0].from, hits[0].target
		return r
	}
	r.problem = "no version in its path or package"
	if len(r.chain) > 1 {
		r.problem = "no version in its path or package, nor in what its wrapper runs"
	}
	return r
}

// execTargets are the absolute paths the exec commands of the script at
// path name (execCandidates), or none when it is not a small script.
func execTargets(path string, fi fs.FileInfo) []string {
	if !fi.Mode().IsRegular() || fi.Size() < 3 || fi.Size() > maxWrapper {
		return nil
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxWrapper))
	if err != nil || !strings.HasPrefix(string(data), "#!") {
		return nil
	}
	return ExecCandidates(string(data))
}

// word is one shell word of a script; literal is false when the shell would
// expand it ($, `, a glob), so its text is not what runs.
type word struct {
	text    string
	literal bool
}

// ExecCandidates reads a shell script (its first line, the #! line, is
// skipped) and returns, in order, the literal absolute paths of each exec
// command: the command itself and its arguments (`exec node /…/cli.js`),
// after exec's own options (-a NAME, -c, -l) and an env(1) with its
// assignments. It is a reader for what wrappers look like, not a shell: a
// word it cannot read literally is skipped, never guessed.
func ExecCandidates(script string) []string {
	if strings.HasPrefix(script, "#!") {
		_, script, _ = strings.Cut(script, "\n")
	}
	var out []string
	for _, cmd := range commands(script) {
		out = append(out, execPaths(cmd)...)
	}
	return out
}

// keywords may come before a command without being one.
var keywords = map[string]bool{"if": true, "then": true, "else": true, "elif": true, "do": true,
	"while": true, "until": true, "!": true, "{": true, "}": true, "time": true}

// execPaths is ExecCandidates for one simple command.
func execPaths(cmd []word) []string {
	i := 0
	for i < len(cmd) && cmd[i].literal && (keywords[cmd[i].text] || isAssignment(cmd[i].text)) {
		i++
	}
	if i >= len(cmd) || !cmd[i].literal || cmd[i].text != "exec" {
		return nil
	}
	i++
	for i < len(cmd) && cmd[i].literal && strings.HasPrefix(cmd[i].text, "-") {
		opt := cmd[i].text
		i++
		if opt == "--" {
			break
		}
		if opt == "-a" {
			i++ // its value, the name the command sees as $0
		}
	}
	if i < len(cmd) && cmd[i].literal && (cmd[i].text == "env" || strings.HasSuffix(cmd[i].text, "/env")) {
		i++
		for i < len(cmd) && cmd[i].literal && (strings.HasPrefix(cmd[i].text, "-") || isAssignment(cmd[i].text)) {
			if cmd[i].text == "-u" {
				i++
			}
			i++
		}
	}
	var out []string
	for ; i < len(cmd); i++ {
		if w := cmd[i]; w.literal && filepath.IsAbs(w.text) && !strings.ContainsRune(w.text, 0) {
			out = append(out, filepath.Clean(w.text))
		}
	}
	return out
}

// isAssignment reports a NAME=value word.
func isAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// commands splits a script into simple commands of words: newlines, ';',
// '&', '|', '(' and ')' end a command; quotes and backslashes are read as
// the shell reads them; '#' at a word's start comments out the line.
func commands(s string) [][]word {
	var cmds [][]word
	var cur []word
	var b strings.Builder
	inWord, literal := false, true
	endWord := func() {
		if inWord {
			cur = append(cur, word{b.String(), literal})
		}
		b.Reset()
		inWord, literal = false, true
	}
	endCmd := func() {
		endWord()
		if len(cur) > 0 {
			cmds = append(cmds, cur)
		}
		cur = nil
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					b.WriteByte(s[i])
					inWord = true
				}
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				literal, i = false, len(s)
				break
			}
			b.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			inWord = true
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				switch s[j] {
				case '\\':
					if j+1 < len(s) && strings.IndexByte("\"\\$`\n", s[j+1]) >= 0 {
						j++
						if s[j] != '\n' {
							b.WriteByte(s[j])
						}
						continue
					}
				case '$', '`':
					literal = false
				}
				b.WriteByte(s[j])
			}
			if j >= len(s) {
				literal = false
			}
			i = j
		case c == '$' || c == '`' || c == '*' || c == '?' || c == '[' || c == '~' && !inWord:
			literal, inWord = false, true
			b.WriteByte(c)
		case c == '#' && !inWord:
			for i+1 < len(s) && s[i+1] != '\n' {
				i++
			}
		case c == ' ' || c == '\t' || c == '\r':
			endWord()
		case c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')':
			endCmd()
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	endCmd()
	return cmds
}
