package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"

	"github.com/claude-account/claude-account/internal/doctor"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/tidwall/gjson"
)

// warnOnce prints each launch-time finding once per cause: a problem that
// stays is not repeated at every launch, one that goes away and comes back is
// reported again. The record is per config dir, in the state dir.
func warnOnce(d *Deps, configDir string, found []doctor.Finding) {
	path := filepath.Join(d.Env.StateHome(), "claude-account", "warned.json")
	seen := map[string][]string{}
	data, err := fsx.ReadFile(path)
	if len(found) == 0 && (err != nil || !gjson.GetBytes(data, gjson.Escape(configDir)).Exists()) {
		return // nothing to warn about and nothing recorded: the usual launch
	}
	if err == nil {
		_ = json.Unmarshal(data, &seen) // a damaged record only repeats warnings
	}
	var now []string
	for _, f := range found {
		now = append(now, f.Message)
		if !slices.Contains(seen[configDir], f.Message) {
			d.notef("warning: %s (see 'claude-account doctor')", f.Message)
		}
	}
	if slices.Equal(now, seen[configDir]) {
		return
	}
	if now == nil {
		delete(seen, configDir)
	} else {
		seen[configDir] = now
	}
	if data, err = json.Marshal(seen); err == nil && os.MkdirAll(filepath.Dir(path), 0o700) == nil {
		_ = fsx.WriteFile(path, data, 0o600)
	}
}
