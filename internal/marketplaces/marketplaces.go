// Package marketplaces makes the plugin marketplaces an account declares
// known to Claude before its first session. Claude Code registers a
// marketplace of the settings' extraKnownMarketplaces only when a session
// starts; until then 'claude plugin marketplace list' and 'plugin install
// x@m' do not know it. home-manager's own module links
// plugins/known_marketplaces.json read-only, which stops Claude's own
// '/plugin marketplace add'. Here the declared entries are merged into the
// file Claude keeps: every other entry stays, and a file that does not parse
// is left as it is.
package marketplaces

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/fsx"
)

// File is Claude's record of the marketplaces it knows, below the plugins
// dir (the account's: CLAUDE_CODE_PLUGIN_CACHE_DIR from 2.1.42, and the
// config dir outside git).
const File = "known_marketplaces.json"

// Declared is one marketplace the account declares: a directory source.
type Declared struct {
	Name   string
	Source json.RawMessage // {"source": "directory", "path": Path}, as declared
	Path   string
}

// FromSettings reads the directory marketplaces of a settings.json's
// extraKnownMarketplaces (where 'claude-account generate' puts the Nix
// module's marketplaces), sorted by name. Other sources (github, git, url)
// are Claude's to fetch at the first session: a record of them would name a
// clone that does not exist.
func FromSettings(settings []byte) []Declared {
	var out []Declared
	gjson.GetBytes(settings, "extraKnownMarketplaces").ForEach(func(k, v gjson.Result) bool {
		src := v.Get("source")
		path := src.Get("path")
		if k.Type == gjson.String && k.String() != "" && src.IsObject() && src.Get("source").String() == "directory" &&
			path.Type == gjson.String && filepath.IsAbs(path.String()) && utf8.ValidString(path.String()) {
			out = append(out, Declared{Name: k.String(), Source: json.RawMessage(src.Raw), Path: path.String()})
		}
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ErrNotObject is a file that parses but is not a JSON object.
var ErrNotObject = errors.New("is not a JSON object")

// Merge adds each declared marketplace to data (the file's content; nil
// when there is none) in the shape Claude writes for a directory source
// (measured with 'claude plugin marketplace add DIR' on 2.0.77, 2.1.90 and
// 2.1.332): {"source": …, "installLocation": DIR, "lastUpdated": now}. An
// entry that already has the declared source and location is left as it is
// (Claude updates lastUpdated), one with another source is replaced, and
// every other entry is kept. changed is false when nothing needs writing. A
// file that does not parse as a JSON object is an error, and nothing is
// merged.
func Merge(data []byte, declared []Declared, now time.Time) (out []byte, changed bool, err error) {
	entries := map[string]json.RawMessage{}
	if data != nil {
		if err := json.Unmarshal(data, &entries); err != nil {
			var typeErr *json.UnmarshalTypeError
			if errors.As(err, &typeErr) && typeErr.Field == "" {
				return nil, false, ErrNotObject
			}
			return nil, false, err
		}
		if entries == nil { // the file says null
			return nil, false, ErrNotObject
		}
	}
	stamp := now.UTC().Format("2006-01-02T15:04:05.000Z")
	for _, d := range declared {
		if current(entries[d.Name], d) {
			continue
		}
		entry, err := json.Marshal(struct {
			Source          json.RawMessage `json:"source"`
			InstallLocation string          `json:"installLocation"`
			LastUpdated     string          `json:"lastUpdated"`
		}{d.Source, d.Path, stamp})
		if err != nil {
			return nil, false, fmt.Errorf("marketplace %q: %w", d.Name, err)
		}
		entries[d.Name] = entry
		changed = true
	}
	if !changed {
		return data, false, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(entries); err != nil {
		return nil, false, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), true, nil
}

// current reports whether entry (Claude's record of one marketplace) is
// already d: the same source, installed where it lies.
func current(entry json.RawMessage, d Declared) bool {
	if entry == nil {
		return false
	}
	var have struct {
		Source          any    `json:"source"`
		InstallLocation string `json:"installLocation"`
	}
	if json.Unmarshal(entry, &have) != nil || have.InstallLocation != d.Path {
		return false
	}
	var want any
	if json.Unmarshal(d.Source, &want) != nil {
		return false
	}
	return reflect.DeepEqual(have.Source, want)
}

// Sync merges the directory marketplaces of settingsFile (the account's
// declared settings.json) into pluginsDir's known_marketplaces.json,
// writing only when an entry is missing or stale: a launch with nothing to
// add reads two small files and writes nothing. The write is atomic and
// keeps the file's mode. problem is one sentence, with the fix, when the
// file is left alone: it does not parse, or it is not a plain file (a link:
// home-manager's own module links it read-only into the store).
func Sync(settingsFile, pluginsDir string, now time.Time) (problem string, err error) {
	settings, err := fsx.ReadFile(settingsFile)
	if err != nil {
		return "", nil // no declared settings: nothing declared
	}
	declared := FromSettings(settings)
	if len(declared) == 0 {
		return "", nil
	}
	names := make([]string, len(declared))
	for i, d := range declared {
		names[i] = d.Name
	}
	path := filepath.Join(pluginsDir, File)
	var data []byte
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return "", err
	case !fi.Mode().IsRegular():
		return fmt.Sprintf("%s is %s, so the marketplaces the account declares (%s) are not added to it; remove it for the next launch to write a file that Claude can change too",
			path, fsx.Kind(fi.Mode()), strings.Join(names, ", ")), nil
	default:
		if data, err = fsx.ReadFile(path); err != nil {
			return "", err
		}
	}
	out, changed, err := Merge(data, declared, now)
	if err != nil {
		return fmt.Sprintf("%s does not parse (%v), so the marketplaces the account declares (%s) are not added to it and Claude knows them only once a session starts; fix the file, or move it aside for the next launch to write a new one",
			path, err, strings.Join(names, ", ")), nil
	}
	if !changed {
		return "", nil
	}
	if err := os.MkdirAll(pluginsDir, 0o755); err != nil {
		return "", err
	}
	return "", fsx.WriteFile(path, out, 0o644)
}
