package doctor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"

	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/tidwall/gjson"
)

// Group is the findings of one cause (a config dir, a Claude release), as
// Unwarned keeps them.
type Group struct {
	Key   string
	Found []Finding
}

// Unwarned returns, for each group, the launch-time findings not yet shown
// for its key, and records them in the file at path (warned.json in the
// state dir), so that a problem that stays is not repeated at every launch
// and one that goes away and comes back is reported again. Concurrent
// launches take turns (a lock in lockDir): each read-modify-write keeps the
// others' entries. The file is read once for every group.
func Unwarned(path, lockDir string, groups ...Group) [][]Finding {
	out := make([][]Finding, len(groups))
	data, err := fsx.ReadFile(path)
	quiet := true // nothing to warn about and nothing recorded: the usual launch
	for _, g := range groups {
		quiet = quiet && len(g.Found) == 0 && (err != nil || !gjson.GetBytes(data, gjson.Escape(g.Key)).Exists())
	}
	if quiet {
		return out
	}
	release, lerr := lock.Wait(lockDir, "warned.state")
	if lerr == nil {
		defer release()
		data, err = fsx.ReadFile(path) // as the last holder left it
	}
	seen := map[string][]string{}
	if err == nil {
		_ = json.Unmarshal(data, &seen) // a damaged record only repeats warnings
	}
	changed := false
	for i, g := range groups {
		var now []string
		for _, f := range g.Found {
			now = append(now, f.Message)
			if !slices.Contains(seen[g.Key], f.Message) {
				out[i] = append(out[i], f)
			}
		}
		if slices.Equal(now, seen[g.Key]) {
			continue
		}
		changed = true
		if now == nil {
			delete(seen, g.Key)
		} else {
			seen[g.Key] = now
		}
	}
	if !changed {
		return out
	}
	if data, err = json.Marshal(seen); err == nil && os.MkdirAll(filepath.Dir(path), 0o700) == nil {
		_ = fsx.WriteFile(path, data, 0o600)
	}
	return out
}
