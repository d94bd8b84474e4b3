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

// Unwarned returns the launch-time findings not yet shown for configDir, and
// records them in the file at path (warned.json in the state dir), so that a
// problem that stays is not repeated at every launch and one that goes away
// and comes back is reported again. Concurrent launches take turns (a lock in
// lockDir): each read-modify-write keeps the others' entries.
func Unwarned(path, lockDir, configDir string, found []Finding) []Finding {
	data, err := fsx.ReadFile(path)
	if len(found) == 0 && (err != nil || !gjson.GetBytes(data, gjson.Escape(configDir)).Exists()) {
		return nil // nothing to warn about and nothing recorded: the usual launch
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
	var now []string
	var out []Finding
	for _, f := range found {
		now = append(now, f.Message)
		if !slices.Contains(seen[configDir], f.Message) {
			out = append(out, f)
		}
	}
	if slices.Equal(now, seen[configDir]) {
		return out
	}
	if now == nil {
		delete(seen, configDir)
	} else {
		seen[configDir] = now
	}
	if data, err = json.Marshal(seen); err == nil && os.MkdirAll(filepath.Dir(path), 0o700) == nil {
		_ = fsx.WriteFile(path, data, 0o600)
	}
	return out
}
