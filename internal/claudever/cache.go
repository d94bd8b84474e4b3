package claudever

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/tidwall/gjson"
)

// maxRan bounds the directories one binary keeps a release seen running
// for: the oldest go first.
const maxRan = 32

// cacheEntry is what the launcher learned of one binary (by the path it
// runs) beyond its files, valid while every file of Chain is unchanged.
type cacheEntry struct {
	Chain []fileID `json:"chain"`
	// Version is what `claude --version` answered (asked in /). Only an
	// answer is kept: a failure never is.
	Version string `json:"version,omitempty"`
	// Ran is, by directory, the release seen running there (Learn): a
	// version manager's shim picks the release by directory and
	// environment, which no file of Chain shows.
	Ran map[string]ranEntry `json:"ran,omitempty"`
}

type ranEntry struct {
	Version string    `json:"version"`
	At      time.Time `json:"at"`
}

// cache is claude-versions.json: entries by the binary's path.
type cache map[string]*cacheEntry

// loadCache reads the cache; a missing or damaged one is empty (it only
// ever saves asking again). Entries of older launchers have no chain and
// match nothing.
func loadCache(file string) cache {
	c := cache{}
	if data, err := fsx.ReadFile(file); err == nil {
		if json.Unmarshal(data, &c) != nil {
			c = cache{}
		}
	}
	for k, e := range c {
		if e == nil {
			delete(c, k)
		}
	}
	return c
}

// readEntry is path's entry in the cache file when it was learned behind
// exactly these files; only that entry is decoded (a launch reads it).
func readEntry(file, path string, chain []fileID) *cacheEntry {
	data, err := fsx.ReadFile(file)
	if err != nil {
		return nil
	}
	raw := gjson.GetBytes(data, gjson.Escape(path))
	if !raw.IsObject() {
		return nil
	}
	var e cacheEntry
	if json.Unmarshal([]byte(raw.Raw), &e) != nil {
		return nil
	}
	return cache{path: &e}.entry(path, chain)
}

// entry is path's entry when it was learned behind exactly these files.
func (c cache) entry(path string, chain []fileID) *cacheEntry {
	e := c[path]
	if e == nil || len(chain) == 0 || !slices.Equal(e.Chain, chain) {
		return nil
	}
	return e
}

// put changes path's entry for these files, starting afresh when the files
// changed.
func (c cache) put(path string, chain []fileID, change func(*cacheEntry)) {
	e := c.entry(path, chain)
	if e == nil {
		e = &cacheEntry{Chain: chain}
		c[path] = e
	}
	change(e)
}

// save writes the cache atomically, private to the user. Two launches that
// save at once may lose one's entry: it is learned again.
func (c cache) save(file string) {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err == nil || errors.Is(err, fs.ErrExist) {
		_ = fsx.WriteFile(file, append(data, '\n'), 0o600)
	}
}

// Learn records that the Claude started from b (a launch's Binary, as
// Identify gave it) in dir was release ran, when that is not what b said:
// the next Identify for dir behind the same files answers ran. It reports
// whether it recorded anything.
//
// A release the files told is not learned over: a launch does not read what
// was learned when the files tell (doctor's --version catches a wrapper
// whose files mislead: claude-release-differs).
//
// A cached `claude --version` answer that is not the release seen running
// is dropped: behind a wrapper that picks its Claude when it runs (reads a
// file, asks a version manager), an upgrade leaves every file the answer is
// keyed by unchanged, so it would be taken in every directory where nothing
// ran yet. The next launch there asks again, once (a version manager's
// shim, whose answer in / is right for most directories, is asked again
// after each directory it pins otherwise is first seen).
func Learn(cacheFile string, b Binary, dir string, ran Version) bool {
	if cacheFile == "" || dir == "" || len(b.chain) == 0 || b.Known && b.From != FromVersionFlag && b.From != FromRunning {
		return false
	}
	c := loadCache(cacheFile)
	if e := c.entry(b.Path, b.chain); e != nil {
		if r, ok := e.Ran[dir]; ok && r.Version == ran.String() {
			return false
		}
	}
	if b.Known && b.Version == ran && b.From != FromRunning {
		if e := c.entry(b.Path, b.chain); e == nil || e.Ran[dir].Version == "" {
			return false
		}
	}
	c.put(b.Path, b.chain, func(e *cacheEntry) {
		if e.Ran == nil {
			e.Ran = map[string]ranEntry{}
		}
		e.Ran[dir] = ranEntry{Version: ran.String(), At: time.Now().UTC()}
		if e.Version != ran.String() {
			e.Version = ""
		}
		for len(e.Ran) > maxRan {
			oldest := ""
			for d, r := range e.Ran {
				if oldest == "" || r.At.Before(e.Ran[oldest].At) {
					oldest = d
				}
			}
			delete(e.Ran, oldest)
		}
	})
	c.save(cacheFile)
	return true
}
