// Package runtimes is the account's own record of the runtimes the launcher
// made for it. A runtime lives in a repository's git dir, and a repository can
// arrive with one already inside (an archive, a copied checkout): what such a
// dir holds — a login, settings with hooks, MCP servers, plugins, memory —
// must never reach the account. So whether a runtime is the launcher's is
// decided from the account's side, never from any file inside the runtime:
//
//   - the account's record names its path with the inode the launcher made
//     there (a copy, or an archive extracted anywhere else, is another dir);
//     a dir that moved with its repository (mv, git worktree move of the
//     main worktree's repository) is found by its inode on the same device,
//     when the path recorded no longer holds it and the dir has not changed
//     since the launcher last left it alone (moved.go);
//   - and a file in it is taken into the account only if it did not change
//     while no Claude the launcher started ran there: the record keeps when
//     the launcher last left the runtime alone (Quiet), and a file whose
//     inode change time (ctime, which no archive or copy can set back) is
//     later came from elsewhere — an archive extracted over the checkout, or
//     into a new dir that reused the inode;
//   - where a runtime belongs (its work tree, its git dirs) is what the
//     launch found from the directory the user started in, kept in the
//     record (Place), never what the runtime's workspace.json says: a
//     planted one can name any path, and resume makes a removed worktree
//     again where its runtime belongs.
//
// Every reader asks here (Check, List, Trusted): launch, resume, sessions,
// doctor, worktree rm, init --from.
package runtimes

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/tidwall/gjson"
)

// FileName is the record's file in the account dir.
const FileName = ".claude-account-runtimes.json"

// Path is the record of the account in accountDir.
func Path(accountDir string) string { return filepath.Join(accountDir, FileName) }

// Entry is one runtime the launcher made.
type Entry struct {
	// Ino is the inode of the dir the launcher made. The device is not
	// kept: it changes when a disk is mounted again.
	Ino uint64 `json:"ino"`
	// Dev is the device the dir was on when last recorded: never compared
	// at the recorded path (a disk mounted again has another), only to find
	// the dir after a move (Record.moved), where an inode alone could be
	// another file system's.
	Dev uint64 `json:"dev,omitempty"`
	// Quiet is when the launcher last left the runtime alone (the end of a
	// session, a command or a repair in it), in Unix nanoseconds; 0 while a
	// Claude may still be writing in it.
	Quiet int64 `json:"quiet,omitempty"`
	// Gone is when Add found the dir no longer at its path (Record.Gone
	// only), in Unix nanoseconds.
	Gone int64 `json:"gone,omitempty"`
	// Kept: the account keeps its own copy of each transcript the
	// launcher's Claude writes in the runtime (worktree.KeepCopies) since
	// the runtime was made, or since the first session after the upgrade
	// that brought copies took those from before (MarkKept).
	Kept bool `json:"kept,omitempty"`
	// Place is where the runtime belongs, as the last launch in it found
	// it; empty in a record of an earlier version until the next launch.
	Place
}

// Place is where a runtime belongs: the work tree it runs Claude in and
// that work tree's git dirs.
type Place struct {
	Worktree  string `json:"worktree,omitempty"`
	GitDir    string `json:"gitDir,omitempty"`
	CommonDir string `json:"commonDir,omitempty"`
}

// slack is none: the kernel stamps files from a clock that lags the one
// Quiet is read from, never one that runs ahead, so a file written before
// Quiet never looks later.
const slack = 0

// dirID is what one Lstat of a dir says of it: which inode it is, on which
// device, and when that inode last changed.
type dirID struct {
	ino, dev uint64
	ctime    int64
}

// stat is dir as it is now (not following a final symlink).
func stat(dir string) (dirID, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return dirID{}, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.IsDir() {
		return dirID{}, fmt.Errorf("%s is not a directory", dir)
	}
	return dirID{ino: uint64(st.Ino), dev: uint64(st.Dev), ctime: ctime(st)}, nil
}

// inode is dir's inode as it is now (not following a final symlink).
func inode(dir string) (uint64, error) {
	id, err := stat(dir)
	return id.ino, err
}

// Record is the account's list of its runtimes, by path.
type Record struct {
	Runtimes map[string]Entry `json:"runtimes"`
	// Gone are runtimes no longer at the path recorded, by that path: one
	// that moved with its repository is found again by its inode
	// (Record.moved), until a launch there records it at its new path.
	Gone map[string]Entry `json:"gone,omitempty"`
}

// Read loads the record at path; an empty one when there is none yet. A
// damaged record is an error, never read as empty: it would be rewritten
// without the runtimes it listed.
func Read(path string) (*Record, error) {
	r := &Record{Runtimes: map[string]Entry{}}
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
	for _, sec := range []struct {
		name string
		into map[string]Entry
	}{{"runtimes", r.Runtimes}, {"gone", nil}} {
		rts := gjson.GetBytes(data, sec.name)
		if rts.Exists() && !rts.IsObject() {
			return nil, fmt.Errorf(`%s: %q is not an object; %s`, path, sec.name, fix)
		}
		if sec.into == nil {
			if !rts.Exists() {
				continue // none: the launch path reads the record, and allocates nothing for them
			}
			r.Gone = map[string]Entry{}
			sec.into = r.Gone
		}
		rts.ForEach(func(k, v gjson.Result) bool {
			sec.into[decodePath(k.String())] = Entry{Ino: v.Get("ino").Uint(), Dev: v.Get("dev").Uint(), Quiet: v.Get("quiet").Int(), Gone: v.Get("gone").Int(), Kept: v.Get("kept").Bool(),
				Place: Place{Worktree: absOrEmpty(v.Get("worktree")), GitDir: absOrEmpty(v.Get("gitDir")), CommonDir: absOrEmpty(v.Get("commonDir"))}}
			return true
		})
	}
	if len(r.Gone) == 0 {
		r.Gone = nil // as Encode leaves it out
	}
	return r, nil
}

// A path that is not valid UTF-8 (a Latin-1 directory name) cannot be a
// JSON string: json.Marshal would write U+FFFD for its odd bytes, and the
// record would never name the runtime again (every launch would set it
// aside). Such a path is kept as base64Prefix + its bytes in base64; a path
// the record keeps is absolute, so no other begins so.
const base64Prefix = "base64:"

func encodePath(p string) string {
	if utf8.ValidString(p) {
		return p
	}
	return base64Prefix + base64.StdEncoding.EncodeToString([]byte(p))
}

func decodePath(s string) string {
	if b, ok := strings.CutPrefix(s, base64Prefix); ok {
		if d, err := base64.StdEncoding.DecodeString(b); err == nil {
			return string(d)
		}
	}
	return s
}

// absOrEmpty is v when it is a clean absolute path: the record is the
// launcher's, but a hand-edited one must not make a relative path resolve
// against whatever directory a command runs in.
func absOrEmpty(v gjson.Result) string {
	p := decodePath(v.String())
	if v.Type != gjson.String || !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return ""
	}
	return p
}

// Made reports whether the launcher made dir for this account: the record
// names dir with the inode dir has now.
func (r *Record) Made(dir string) bool {
	want, ok := r.Runtimes[dir]
	if !ok {
		return false
	}
	ino, err := inode(dir)
	return err == nil && ino == want.Ino
}

// Quiet is when the launcher last left dir alone (Entry.Quiet); 0 when it
// does not know.
func (r *Record) Quiet(dir string) int64 { return r.Runtimes[dir].Quiet }

// ChangedSince reports whether path (not followed) changed after quiet, in
// Unix nanoseconds: its inode changed later (written, replaced, chmod-ed,
// extracted). quiet 0 says nothing changed.
func ChangedSince(path string, quiet int64) bool {
	if quiet == 0 {
		return false
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && ctime(st) > quiet+slack
}

// Ctime is fi's inode change time in Unix nanoseconds; 0 when fi has none.
func Ctime(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return ctime(st)
	}
	return 0
}

// Add records dir as it is now, in use, belonging at place. Runtimes that
// are gone from their path or were replaced there since (a worktree
// removed, a runtime set aside, a repository moved) are kept among the
// Gone a while (forget), so that one that moved is found where it is now.
// One it cannot look at now (a disk not mounted, a permission) is kept.
// The dir already recorded with its inode (a runtime whose worktree moved)
// keeps its quiet time, as does one that moved here (Record.moved): only
// where it belongs changes, and whether copies of its transcripts are
// kept (Kept). A dir new to the record holds no transcript from before
// copies were kept.
func (r *Record) Add(dir string, place Place) error {
	id, err := stat(dir)
	if err != nil {
		return err
	}
	e := Entry{Ino: id.ino, Dev: id.dev, Place: place, Kept: true}
	if was, ok := r.Runtimes[dir]; ok && was.Ino == id.ino {
		e.Quiet, e.Kept = was.Quiet, was.Kept
	} else if from, was, ok := r.moved(dir, id); ok {
		e.Quiet, e.Kept = was.Quiet, was.Kept
		delete(r.Runtimes, from)
		delete(r.Gone, from)
	}
	now := time.Now().UnixNano()
	for p, was := range r.Runtimes {
		cur, err := inode(p)
		if errors.Is(err, fs.ErrNotExist) || err == nil && cur != was.Ino {
			delete(r.Runtimes, p)
			r.keepGone(p, was, now)
		}
	}
	r.Runtimes[dir] = e
	r.relocate(dir, place.CommonDir)
	r.forget(now)
	return nil
}

// Encode is the record's file content, sorted so that it is stable.
func (r *Record) Encode() []byte {
	var b []byte
	b = append(b, "{\n  \"runtimes\": "...)
	b = encodeEntries(b, r.Runtimes)
	if len(r.Gone) > 0 {
		b = append(b, ",\n  \"gone\": "...)
		b = encodeEntries(b, r.Gone)
	}
	return append(b, "\n}\n"...)
}

// encodeEntries appends m as a JSON object sorted by path.
func encodeEntries(b []byte, m map[string]Entry) []byte {
	paths := make([]string, 0, len(m))
	for p := range m {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	b = append(b, '{')
	for i, p := range paths {
		if i > 0 {
			b = append(b, ',')
		}
		name, _ := json.Marshal(encodePath(p))
		e := m[p]
		e.Worktree, e.GitDir, e.CommonDir = encodePath(e.Worktree), encodePath(e.GitDir), encodePath(e.CommonDir)
		id, _ := json.Marshal(e)
		b = append(b, "\n    "...)
		b = append(b, name...)
		b = append(b, ": "...)
		b = append(b, id...)
	}
	if len(paths) > 0 {
		b = append(b, "\n  "...)
	}
	return append(b, '}')
}

// MarkQuiet records in the account's record at path that the launcher left
// dir alone at now: whatever changes in it later did not come from a Claude
// the launcher started. Under the account's lock (the caller holds it). A
// runtime the record does not name is left out. When unchanged(quiet) says
// that nothing a launch would take from dir changed since the time already
// recorded, nothing is written: moving the time on would decide nothing
// differently, and the durable write (three fsyncs) is the after-exit
// pass's largest cost.
func MarkQuiet(path, dir string, now time.Time, unchanged func(quiet int64) bool) error {
	r, err := Read(path)
	if err != nil {
		return err
	}
	if r.leftAlone(dir, unchanged) {
		return nil
	}
	e := r.Runtimes[dir]
	e.Quiet = now.UnixNano()
	if id, err := stat(dir); err == nil {
		e.Dev = id.dev // a record of an earlier version has none, a disk mounted again another
	}
	r.Runtimes[dir] = e
	return fsx.WriteSecret(path, r.Encode())
}

// LeftAlone reports whether MarkQuiet(path, dir, …, unchanged) would write
// nothing: the record names no runtime the launcher made at dir, or
// unchanged holds for the quiet time it has. It may be asked without the
// account's lock (the record is replaced whole, never written in place):
// the end of a session in which Claude changed nothing then takes no lock.
func LeftAlone(path, dir string, unchanged func(quiet int64) bool) (bool, error) {
	r, err := Read(path)
	if err != nil {
		return false, err
	}
	return r.leftAlone(dir, unchanged), nil
}

// LeftAlone is the package's LeftAlone, asked of a record read already.
func (r *Record) LeftAlone(dir string, unchanged func(quiet int64) bool) bool {
	return r.leftAlone(dir, unchanged)
}

func (r *Record) leftAlone(dir string, unchanged func(quiet int64) bool) bool {
	e, ok := r.Runtimes[dir]
	if !ok || !r.Made(dir) {
		return true // not ours
	}
	return e.Quiet != 0 && unchanged != nil && unchanged(e.Quiet)
}

// MarkKept records in the account's record at path that the account keeps
// copies of the transcripts of the runtime dir (Entry.Kept), under the
// account's lock (the caller holds it); nothing when it says so already or
// does not name dir as the launcher made it.
func MarkKept(path, dir string) error {
	r, err := Read(path)
	if err != nil {
		return err
	}
	e, ok := r.Runtimes[dir]
	if !ok || e.Kept || !r.Made(dir) {
		return nil
	}
	e.Kept = true
	r.Runtimes[dir] = e
	return fsx.WriteSecret(path, r.Encode())
}

// Register records dir, belonging at place, in the account's record at
// path: read, add, write, under the account's lock (the caller holds it).
func Register(path, dir string, place Place) error {
	r, err := Read(path)
	if err != nil {
		return err
	}
	if err := r.Add(dir, place); err != nil {
		return err
	}
	return fsx.WriteSecret(path, r.Encode())
}
