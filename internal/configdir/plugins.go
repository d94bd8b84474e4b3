package configdir

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/claude-account/claude-account/internal/runtimes"
)

// Plugins an earlier version let Claude install into one runtime (before the
// account's plugins dir was shared through CLAUDE_CODE_PLUGIN_CACHE_DIR) are
// moved to the account when the account has none yet: one rename of the whole
// directory, then Claude's records, which name the directory by its absolute
// path, are rewritten to the new place. Anything else (the account already has
// plugins, another file system, records that do not parse) is left for the
// user, and doctor says why.

// pluginsMove says whether a runtime's plugins dir can move to the account:
// records are the rewritten records by path (relative to the plugins dir),
// why is the reason it cannot ("" when it can).
func pluginsMove(runtimeDir, accountDir string) (from, to string, records map[string][]byte, why string) {
	from = filepath.Join(runtimeDir, "plugins")
	to = filepath.Join(accountDir, "plugins")
	fi, err := os.Lstat(from)
	if err != nil || !fi.IsDir() {
		return from, to, nil, "none" // nothing to move (a link or nothing)
	}
	if des, err := os.ReadDir(to); err == nil && len(des) > 0 {
		return from, to, nil, "the account has plugins of its own; installing these again there merges them"
	} else if err != nil && !os.IsNotExist(err) {
		return from, to, nil, err.Error()
	}
	if !sameDevice(from, accountDir) {
		return from, to, nil, "it is on another file system than the account"
	}
	records = map[string][]byte{}
	jsons, _ := filepath.Glob(filepath.Join(from, "*.json"))
	for _, path := range jsons {
		data, err := os.ReadFile(path)
		if err != nil {
			return from, to, nil, err.Error()
		}
		out, err := Rebase(data, from, to)
		if err != nil {
			return from, to, nil, fmt.Sprintf("%s does not parse (%v)", path, err)
		}
		if !bytes.Equal(out, data) {
			records[filepath.Base(path)] = out
		}
	}
	return from, to, records, ""
}

// treeChangedSince names a file under root that changed after quiet
// (runtimes.ChangedSince), or "".
func treeChangedSince(root string, quiet int64) string {
	if quiet == 0 {
		return ""
	}
	found := ""
	_ = filepath.WalkDir(root, func(path string, _ fs.DirEntry, err error) error {
		if err == nil && runtimes.ChangedSince(path, quiet) {
			found = path
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// Untouched reports whether nothing in the runtime dir that a launch may
// take into the account (its login, settings.json, .claude.json, the
// launcher's record, plugins and memory: every path the plan checks with
// untouched or treeChangedSince) changed after quiet (Unix nanoseconds; 0
// says nothing is known, and so is not untouched).
func Untouched(dir string, quiet int64) bool {
	if quiet == 0 {
		return false
	}
	// The account's entries too (link decides by their change time): a
	// session in which Claude made one (agents/ where the account has none)
	// moves the quiet time on, so that the next launch does not take
	// Claude's own work for something that came with the repository. Not
	// projects/ and its keys, which change with every new conversation: the
	// record would be written after most sessions, and the stray links of a
	// key dir changed since are looked for at the next launch anyway.
	// The dir itself too: a session that made or removed an entry in it
	// moves the quiet time on, so that the dir has not changed since, which
	// is what proves it the launcher's when its repository is moved whole
	// (runtimes.Record.moved).
	if runtimes.ChangedSince(dir, quiet) {
		return false
	}
	for _, name := range append([]string{Credentials, "settings.json", ".claude.json", ManagedFile}, Linked...) {
		if runtimes.ChangedSince(filepath.Join(dir, name), quiet) {
			return false
		}
	}
	for _, t := range append(memoryDirs(dir), filepath.Join(dir, "plugins")) {
		if treeChangedSince(t, quiet) != "" {
			return false
		}
	}
	return true
}

// migratePlugins plans the move (pluginsMove).
func (p *Plan) migratePlugins(in Input) {
	from, to, records, why := pluginsMove(p.ConfigDir, in.Account.Dir)
	if why != "" {
		return
	}
	if changed := treeChangedSince(from, p.quiet); changed != "" {
		// Set aside, not left: left, the next launch would find it older
		// than the session between and move it to the account.
		aside := freeAside(from, in.Now)
		p.Steps = append(p.Steps, Step{Op: Move, Path: from, Target: aside, Why: "changed while no Claude ran here"})
		p.Notes = append(p.Notes, fmt.Sprintf("%s changed while no Claude ran in this worktree (it came with the repository?); kept the plugins there as %s, not moved to %s", changed, aside, to))
		return
	}
	if exists(to) {
		p.Steps = append(p.Steps, Step{Op: Unlink, Path: to, Why: "an empty plugins dir, replaced by the one below"})
	}
	p.Steps = append(p.Steps, Step{Op: Move, Path: from, Target: to, Why: "plugins are the account's"})
	for _, name := range slices.Sorted(maps.Keys(records)) {
		path := filepath.Join(to, name)
		mode := os.FileMode(0o600)
		if fi, err := os.Stat(filepath.Join(from, name)); err == nil {
			mode = fi.Mode().Perm()
		}
		p.Steps = append(p.Steps, Step{Op: Write, Path: path, Data: records[name], Mode: mode, Why: "Claude's plugin records, pointed at the new place"})
	}
	p.Notes = append(p.Notes, fmt.Sprintf("moved the plugins an older Claude Code (before 2.1.42) installed in this worktree from %s to %s, where every worktree of the account finds them", from, to))
}

// Rebase rewrites every JSON string that is the path from, or under it, to
// the same path under to. Claude's records are plain JSON it rewrites itself,
// so they are re-encoded as it writes them (two-space indent).
func Rebase(data []byte, from, to string) ([]byte, error) {
	if !bytes.Contains(data, []byte(from)) {
		return data, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	v = rebaseValue(v, from, to)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func rebaseValue(v any, from, to string) any {
	switch x := v.(type) {
	case string:
		if x == from {
			return to
		}
		if rest, ok := strings.CutPrefix(x, from+string(filepath.Separator)); ok {
			return filepath.Join(to, rest)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = rebaseValue(e, from, to)
		}
	case []any:
		for i, e := range x {
			x[i] = rebaseValue(e, from, to)
		}
	}
	return v
}

func sameDevice(a, b string) bool {
	var sa, sb syscall.Stat_t
	if syscall.Stat(a, &sa) != nil || syscall.Stat(b, &sb) != nil {
		return false
	}
	return sa.Dev == sb.Dev
}
