package adopt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/shell"
)

// Rewrite is a string of an imported setting that named a path inside the
// source, changed to name the same path in the account: a hook run from
// ~/.claude/hooks would otherwise keep running the source's copy, and break
// once the source is gone.
type Rewrite struct {
	File string `json:"file"` // in the account: settings.json or .claude.json
	Key  string `json:"key"`  // where in it: hooks.PreToolUse[0].hooks[0].command
	From string `json:"from"` // the whole string, as the source has it
	To   string `json:"to"`   // as the account has it
}

// spelling is one way a string may name the source dir, and how the same
// string names the account dir.
type spelling struct{ from, to string }

// spellings are the ways a setting may name the source: absolute (as named
// and resolved), and under the home directory as ~/, $HOME/ and ${HOME}/.
// The account is named the same way when it is under the home directory
// too, else absolutely. $CLAUDE_CONFIG_DIR needs nothing: the launcher sets
// it to a config dir of the account.
func (w *walker) spellings() []spelling {
	var out []spelling
	add := func(from, to string) {
		for _, s := range out {
			if s.from == from {
				return
			}
		}
		out = append(out, spelling{from, to})
	}
	for _, d := range []string{w.src.Dir, w.src.Root} {
		add(d, w.p.Dest)
	}
	home := w.home
	if home == "" || home == "/" {
		return out
	}
	for _, d := range []string{w.src.Dir, w.src.Root} {
		r, err := filepath.Rel(home, d)
		if err != nil || !within(d, home) || r == "." {
			continue
		}
		to := func(prefix string) string { return w.p.Dest }
		if dr, err := filepath.Rel(home, w.p.Dest); err == nil && within(w.p.Dest, home) && dr != "." {
			to = func(prefix string) string { return prefix + dr }
		}
		for _, prefix := range []string{"~/", "$HOME/", "${HOME}/"} {
			add(prefix+r, to(prefix))
		}
	}
	return out
}

// isTerm ends a path inside a string: what separates words in a command, a
// list (PATH-like) or a permission rule such as Read(~/.claude/x).
func isTerm(c byte) bool {
	return strings.IndexByte(" \t\n\r\"'`;&|()<>,:=", c) >= 0
}

// scan calls decide for every path inside the source that s names, with the
// path relative to the source ("." for the source itself) and the spelling's
// replacement; it returns s with each path decide accepts named in the
// account instead.
func (w *walker) scan(s string, decide func(rel, found, to string) bool) string {
	sps := w.spellings()
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if i > 0 && !isTerm(s[i-1]) {
			continue
		}
		for _, sp := range sps {
			if !strings.HasPrefix(s[i:], sp.from) {
				continue
			}
			j := i + len(sp.from)
			if j < len(s) && s[j] != '/' && !isTerm(s[j]) {
				continue // ~/.claude.json, ~/.claude-old: another name
			}
			k := j
			for k < len(s) && !isTerm(s[k]) {
				k++
			}
			rel, ok := insideRel(s[j:k])
			if !ok {
				break
			}
			if decide(rel, s[i:k], sp.to+s[j:k]) {
				b.WriteString(s[last:i])
				b.WriteString(sp.to)
				last = j
			}
			i = k - 1
			break
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// insideRel reads the rest of a path after the source dir ("" or "/…") as a
// path inside it, cut before the first part with a glob character (a
// permission rule's hooks/**); false when it climbs out.
func insideRel(rest string) (string, bool) {
	var parts []string
	for _, p := range strings.Split(rest, "/") {
		if strings.ContainsAny(p, "*?[") {
			break
		}
		parts = append(parts, p)
	}
	r := filepath.Clean("./" + strings.Join(parts, "/"))
	if r == ".." || strings.HasPrefix(r, "../") {
		return "", false
	}
	return r, true
}

// nameFiles takes in each regular file of the source that a string of doc
// names and nothing else takes in (a status-line script beside
// settings.json): the setting then points at the account's copy.
func (w *walker) nameFiles(doc []byte) {
	if doc == nil {
		return
	}
	_ = eachString(doc, "", func(_, s string, _, _ int) {
		w.scan(s, func(rel, _, _ string) bool {
			if rel == "." || w.takenIn(rel) || linkInPath(w.src.Root, rel) != "" {
				return false // decide says why
			}
			if fi, err := os.Lstat(filepath.Join(w.src.Root, rel)); err == nil && fi.Mode().IsRegular() {
				if w.namedPart == nil {
					w.namedPart = &Part{Name: "named", From: w.src.Dir}
					w.add(w.namedPart)
				}
				_ = w.walk(w.namedPart, rel)
			}
			return false
		})
	})
}

// rebase rewrites every string value of doc that names a path inside the
// source taken in (or not there: nothing to copy) to name it in the
// account, and reports each; a path the account does not have is reported
// with the fix. Only the strings change: the rest of doc keeps its bytes.
func (w *walker) rebase(doc []byte, file, prefix string) ([]byte, error) {
	var out []byte
	last := 0
	err := eachString(doc, prefix, func(key, s string, start, end int) {
		n := w.scan(s, func(rel, found, to string) bool { return w.decide(file, key, rel, found, to) })
		if n == s {
			return
		}
		w.p.Rewrites = append(w.p.Rewrites, Rewrite{File: file, Key: key, From: s, To: n})
		out = append(out, doc[last:start]...)
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(n)
		out = append(out, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
		last = end
	})
	if err != nil || out == nil {
		return doc, err
	}
	return append(out, doc[last:]...), nil
}

// decide says whether the path rel inside the source, found in the setting
// key of file, is named in the account instead; when not, it says why and
// what to do. Pinned by testscripts/init-from-hooks-rewritten.txtar (a path
// not taken in) and init-from-link-in-path.txtar (a link on the way to it);
// an account dir that would need quoting, by no test.
func (w *walker) decide(file, key, rel, found, to string) bool {
	if shell.Quote(w.p.Dest) != w.p.Dest {
		w.warn(rel, fmt.Sprintf("named by %s %s, which still points into %s: %s would need quoting in a command; change the setting by hand", file, key, w.src.Dir, w.p.Dest))
		return false
	}
	if l := linkInPath(w.src.Root, rel); l != "" {
		w.warn(rel, fmt.Sprintf("named by %s %s but not taken in: its part %s is a link, which init --from does not follow, so that setting still points into %s; copy what it names into the account yourself if it belongs there, and write %s there instead",
			file, key, filepath.Join(w.src.Dir, l), w.src.Dir, to))
		return false
	}
	if rel == "." || w.takenIn(rel) {
		return true
	}
	fi, err := os.Lstat(filepath.Join(w.src.Root, rel))
	if errors.Is(err, fs.ErrNotExist) {
		return true // nothing to copy; the setting names the account's place for it
	}
	what := "an unreadable path"
	if err == nil {
		what = kindName(fi.Mode())
	}
	w.warn(rel, fmt.Sprintf("named by %s %s but not taken in (%s), so that setting still points into %s; copy it (cp -a %s %s) and write %s there instead",
		file, key, what, w.src.Dir, shell.Quote(filepath.Join(w.src.Dir, rel)), shell.Quote(filepath.Join(w.p.Dest, rel)), to))
	return false
}

func kindName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a link"
	case m.IsRegular():
		return "a file"
	}
	return "not a file"
}

// warn reports rel once for each reason.
func (w *walker) warn(rel, why string) {
	path := filepath.Join(w.src.Dir, rel)
	for _, s := range w.p.Skipped {
		if s.Path == path && s.Why == why {
			return
		}
	}
	w.p.Skipped = append(w.p.Skipped, Skip{Path: path, Why: why})
}

// rebaseKeys rebases each key's value; the keys are top-level ones of file.
func (w *walker) rebaseKeys(keys []coalesce.Key, file string) error {
	for i := range keys {
		raw, err := w.rebase(keys[i].Raw, file, keys[i].Name)
		if err != nil {
			return err
		}
		keys[i].Raw = raw
	}
	return nil
}

// eachString calls f for every string value of the JSON doc (object keys
// are not values), with its path (prefix, then .key and [index]) and its
// span in doc, quotes included.
func eachString(doc []byte, prefix string, f func(key, s string, start, end int)) error {
	type frame struct {
		obj     bool
		wantKey bool
		key     string
		idx     int
	}
	var stack []frame
	path := func() string {
		var b strings.Builder
		b.WriteString(prefix)
		for _, fr := range stack {
			if fr.obj {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(fr.key)
			} else {
				b.WriteString("[" + strconv.Itoa(fr.idx) + "]")
			}
		}
		return b.String()
	}
	ended := func() { // a value ended: the next is a key, or the next index
		if n := len(stack); n > 0 {
			if stack[n-1].obj {
				stack[n-1].wantKey = true
			} else {
				stack[n-1].idx++
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, frame{obj: true, wantKey: true})
			case '[':
				stack = append(stack, frame{})
			default:
				stack = stack[:len(stack)-1]
				ended()
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].obj && stack[n-1].wantKey {
				stack[n-1].key, stack[n-1].wantKey = t, false
				continue
			}
			start := before + bytes.IndexByte(doc[before:], '"')
			f(path(), t, start, int(dec.InputOffset()))
			ended()
		default:
			ended()
		}
	}
}

// claudeServers is the raw mcpServers of the source's .claude.json, nil
// when there is none or it does not parse (claudeJSON reports that).
func (w *walker) claudeServers() []byte {
	if w.src.ClaudeJSON == "" {
		return nil
	}
	data, _, err := readRegular(w.src.ClaudeJSON)
	if err != nil {
		return nil
	}
	raw, _, err := coalesce.Lookup(data, "mcpServers")
	if err != nil {
		return nil
	}
	return raw
}
