// Package runtimes is the account's own record of the runtimes the launcher
// made for it. A runtime lives in a repository's git dir, and a repository can
// arrive with one already inside (an archive, a copied checkout): what such a
// dir holds — a login, settings with hooks, MCP servers, plugins, memory —
// must never reach the account. So whether a runtime is the launcher's is
// decided from the account's side, never from any file inside the runtime: a
// runtime is the launcher's when the account's record names its path with the
// device and inode the launcher made there. A copy, an extracted archive or a
// dir planted in its place has another inode.
package runtimes

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/tidwall/gjson"
)

// FileName is the record's file in the account dir.
const FileName = ".claude-account-runtimes.json"

// Path is the record of the account in accountDir.
func Path(accountDir string) string { return filepath.Join(accountDir, FileName) }

// ID is what identifies one directory the launcher made: its device and inode.
type ID struct {
	Dev uint64 `json:"dev"`
	Ino uint64 `json:"ino"`
}

// Of is the ID of dir as it is now (not following a final symlink).
func Of(dir string) (ID, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return ID{}, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.IsDir() {
		return ID{}, fmt.Errorf("%s is not a directory", dir)
	}
	return ID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, nil
}

// Record is the account's list of its runtimes, by path.
type Record struct {
	Runtimes map[string]ID `json:"runtimes"`
}

// Read loads the record at path; an empty one when there is none yet. A
// damaged record is an error, never read as empty: it would be rewritten
// without the runtimes it listed.
func Read(path string) (*Record, error) {
	r := &Record{Runtimes: map[string]ID{}}
	data, err := fsx.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, err
	}
	const fix = "fix it or remove it (a runtime it no longer lists is set aside, untouched, at its next launch)"
	if err := coalesce.Validate(data); err != nil {
		var se *coalesce.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%s:%d:%d: %s; %s", path, se.Line, se.Column, se.Msg, fix)
		}
		return nil, fmt.Errorf("%s: %v; %s", path, err, fix)
	}
	rts := gjson.GetBytes(data, "runtimes")
	if rts.Exists() && !rts.IsObject() {
		return nil, fmt.Errorf(`%s: "runtimes" is not an object; %s`, path, fix)
	}
	rts.ForEach(func(k, v gjson.Result) bool {
		r.Runtimes[k.String()] = ID{Dev: v.Get("dev").Uint(), Ino: v.Get("ino").Uint()}
		return true
	})
	return r, nil
}

// Made reports whether the launcher made dir for this account: the record
// names dir with the inode dir has now.
func (r *Record) Made(dir string) bool {
	want, ok := r.Runtimes[dir]
	if !ok {
		return false
	}
	id, err := Of(dir)
	return err == nil && id == want
}

// Add records dir as it is now, and forgets runtimes that are gone or were
// replaced since (a worktree removed, a runtime set aside).
func (r *Record) Add(dir string) error {
	id, err := Of(dir)
	if err != nil {
		return err
	}
	for p, was := range r.Runtimes {
		if now, err := Of(p); err != nil || now != was {
			delete(r.Runtimes, p)
		}
	}
	r.Runtimes[dir] = id
	return nil
}

// Encode is the record's file content, sorted so that it is stable.
func (r *Record) Encode() []byte {
	paths := make([]string, 0, len(r.Runtimes))
	for p := range r.Runtimes {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b []byte
	b = append(b, "{\n  \"runtimes\": {"...)
	for i, p := range paths {
		if i > 0 {
			b = append(b, ',')
		}
		name, _ := json.Marshal(p)
		id, _ := json.Marshal(r.Runtimes[p])
		b = append(b, "\n    "...)
		b = append(b, name...)
		b = append(b, ": "...)
		b = append(b, id...)
	}
	if len(paths) > 0 {
		b = append(b, "\n  "...)
	}
	return append(b, "}\n}\n"...)
}

// Register records dir in the account's record at path: read, add, write,
// under the account's lock (the caller holds it).
func Register(path, dir string) error {
	r, err := Read(path)
	if err != nil {
		return err
	}
	if err := r.Add(dir); err != nil {
		return err
	}
	return fsx.WriteSecret(path, r.Encode())
}
