package configdir

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/coalesce"
)

// withoutLauncherEntries removes from settings what an earlier version of
// the launcher wrote there for itself, and nothing else: a statusLine whose
// command is '<path>/claude…' statusline, and the WorktreeCreate and
// WorktreeRemove hooks whose command is '<path>/claude…' hook
// worktree-create|worktree-remove …. removed names what went ("" for none).
// Every other key and hook is kept as it is, byte for byte.
func withoutLauncherEntries(settings []byte) (out []byte, removed string, err error) {
	if len(bytes.TrimSpace(settings)) == 0 {
		return settings, "", nil
	}
	var keys []coalesce.Key
	var what []string
	if raw, ok, err := coalesce.Lookup(settings, "statusLine"); err != nil {
		return nil, "", err
	} else if ok {
		var line struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(raw, &line) == nil && launcherCommand(line.Command, "statusline") {
			keys = append(keys, coalesce.Key{Name: "statusLine"})
			what = append(what, "status line")
		}
	}
	if raw, ok, err := coalesce.Lookup(settings, "hooks"); err != nil {
		return nil, "", err
	} else if ok && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		hooks, changed, err := withoutLauncherHooks(raw)
		if err != nil {
			return nil, "", err
		}
		if changed {
			if isEmptyObject(hooks) {
				hooks = nil // there were only ours
			}
			keys = append(keys, coalesce.Key{Name: "hooks", Raw: hooks})
			what = append(what, "worktree hooks")
		}
	}
	if len(keys) == 0 {
		return settings, "", nil
	}
	out, _, err = coalesce.Splice(settings, keys)
	return out, strings.Join(what, " and "), err
}

// withoutLauncherHooks removes the launcher's own WorktreeCreate and
// WorktreeRemove hooks from a hooks object, keeping every other byte.
func withoutLauncherHooks(hooks []byte) ([]byte, bool, error) {
	var keys []coalesce.Key
	for event, verb := range map[string]string{"WorktreeCreate": "hook worktree-create", "WorktreeRemove": "hook worktree-remove"} {
		raw, ok, err := coalesce.Lookup(hooks, event)
		if err != nil || !ok {
			continue
		}
		var groups []map[string]json.RawMessage
		if json.Unmarshal(raw, &groups) != nil {
			continue // not the shape we wrote: not ours
		}
		var kept []map[string]json.RawMessage
		dropped := false
		for _, g := range groups {
			var entries []json.RawMessage
			if json.Unmarshal(g["hooks"], &entries) != nil {
				kept = append(kept, g)
				continue
			}
			var left []json.RawMessage
			for _, e := range entries {
				var h struct {
					Command string `json:"command"`
				}
				if json.Unmarshal(e, &h) == nil && launcherCommand(h.Command, verb) {
					dropped = true
					continue
				}
				left = append(left, e)
			}
			if len(left) == 0 && len(entries) > 0 {
				continue
			}
			if len(left) != len(entries) {
				g["hooks"], _ = json.Marshal(left)
			}
			kept = append(kept, g)
		}
		if !dropped {
			continue
		}
		var v []byte
		if len(kept) > 0 {
			v, _ = json.Marshal(kept)
		}
		keys = append(keys, coalesce.Key{Name: event, Raw: v})
	}
	if len(keys) == 0 {
		return hooks, false, nil
	}
	out, _, err := coalesce.Splice(hooks, keys)
	return out, true, err
}

// isEmptyObject reports whether raw is {} (spaces aside).
func isEmptyObject(raw []byte) bool {
	t := bytes.TrimSpace(raw)
	return len(t) >= 2 && t[0] == '{' && len(bytes.TrimSpace(t[1:len(t)-1])) == 0
}

// launcherCommand reports whether command is '<absolute path>' verb… as an
// earlier launcher wrote it: its own path, single-quoted for sh, to a binary
// named claude-account or claude<name>, then verb, then nothing or arguments.
func launcherCommand(command, verb string) bool {
	path, rest, ok := unquote(command)
	if !ok || !filepath.IsAbs(path) || !strings.HasPrefix(filepath.Base(path), "claude") {
		return false
	}
	rest, ok = strings.CutPrefix(rest, " "+verb)
	return ok && (rest == "" || strings.HasPrefix(rest, " "))
}

// unquote reads one sh word quoted as the launcher quoted its path (in
// single quotes, each quote inside written as quote, backslash-quote, quote)
// from the start of s.
func unquote(s string) (word, rest string, ok bool) {
	if !strings.HasPrefix(s, "'") {
		return "", "", false
	}
	var b strings.Builder
	s = s[1:]
	for {
		i := strings.IndexByte(s, '\'')
		if i < 0 {
			return "", "", false
		}
		b.WriteString(s[:i])
		s = s[i+1:]
		if !strings.HasPrefix(s, `\''`) {
			return b.String(), s, true
		}
		b.WriteByte('\'')
		s = s[3:]
	}
}
