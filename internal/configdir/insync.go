package configdir

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io/fs"
	"maps"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/ledger"
	"github.com/claude-account/claude-account/internal/mcp"
	"github.com/claude-account/claude-account/internal/runtimes"
)

// SyncStamp is a config dir's .claude.json as the launcher last found it in
// sync — nothing to splice, nothing to take in — with a digest of everything
// else that decision was made from (syncDigest). A launch that finds the
// file with the same stamp and the same inputs would decide the same again,
// so it reads nothing of the file: scanning a 20 MB state is most of an
// in-sync launch.
//
// The stamp is git's racy-index rule applied to one file: the inode, size,
// mtime and ctime (which no program can set back: a write, a rename over
// it, a chmod or an extraction all move it on) are those of a stat made
// after the launcher read the clock at Taken. Any change after Taken gets a
// ctime of at least Taken less the file system's timestamp granularity
// (granularity), so a stamp whose times are older than that can only match
// the same version. A stamp taken sooner after the file's last change is
// not recorded (a change in the same tick would look the same); the next
// launch scans, and records it then.
type SyncStamp struct {
	Ino        int64  `json:"ino"`
	Size       int64  `json:"size"`
	MtimeNanos int64  `json:"mtimeNs"`
	CtimeNanos int64  `json:"ctimeNs"`
	Inputs     string `json:"inputs"` // syncDigest, hex
}

// syncStampOf is the stamp of fi (an lstat of .claude.json made after the
// clock read taken), with the digest of the plan's inputs; zero when the
// stamp could not tell a later change in the same tick from this version.
func syncStampOf(fi fs.FileInfo, taken time.Time, gran time.Duration, inputs string) SyncStamp {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.Mode().IsRegular() {
		return SyncStamp{}
	}
	s := SyncStamp{Ino: int64(st.Ino), Size: fi.Size(), MtimeNanos: fi.ModTime().UnixNano(), CtimeNanos: runtimes.Ctime(fi), Inputs: inputs}
	if racy(s, taken, gran) {
		return SyncStamp{}
	}
	return s
}

// racy reports whether a change made after taken could carry the same
// times as s: either is within gran of taken (or after it).
func racy(s SyncStamp, taken time.Time, gran time.Duration) bool {
	limit := taken.Add(-gran).UnixNano()
	return s.MtimeNanos >= limit || s.CtimeNanos >= limit
}

// matches reports whether fi (an lstat of .claude.json now) is the version
// s was taken of, and the plan's inputs are the same; they are hashed only
// when the file is.
func (s SyncStamp) matches(fi fs.FileInfo, inputs func() string) bool {
	if s.Inputs == "" || fi == nil || !fi.Mode().IsRegular() {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && s.Ino == int64(st.Ino) && s.Size == fi.Size() && s.MtimeNanos == fi.ModTime().UnixNano() && s.CtimeNanos == runtimes.Ctime(fi) &&
		s.Inputs == inputs()
}

// syncDigest hashes everything but the file itself that decideState, and
// the managed keys spliced after it (extra), decide from: the same digest
// and the same file make the same plan. The launcher's own binary is in it:
// another release may decide otherwise from the same inputs.
func syncDigest(f *stateFacts, extra []coalesce.Key, configDir string) string {
	h := sha256.New()
	var n [8]byte
	str := func(s string) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	raw := func(b []byte) {
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	num := func(x int) {
		binary.LittleEndian.PutUint64(n[:], uint64(x))
		h.Write(n[:])
	}
	flag := func(b bool) {
		if b {
			num(1)
		} else {
			num(0)
		}
	}
	// A nil map and an empty one decide differently (a record made by an
	// earlier version, or nothing seen yet).
	rawMap := func(m map[string][]byte) {
		flag(m == nil)
		num(len(m))
		for _, k := range slices.Sorted(maps.Keys(m)) {
			str(k)
			raw(m[k])
		}
	}
	strs := func(ss []string) {
		num(len(ss))
		for _, s := range ss {
			str(s)
		}
	}
	servers := func(s mcp.Servers) {
		num(len(s))
		for _, srv := range s {
			str(srv.Name)
			raw(srv.Raw)
		}
	}
	str("claude-account in-sync 1")
	str(launcherID())
	str(configDir)
	flag(f.Ledger == nil)
	if l := f.Ledger; l != nil {
		strs(l.Declared)
		rawMap(asBytes(l.Added))
		strs(l.Trusted)
		rawMap(asBytes(l.AccountKeys))
	}
	flag(f.Rebuilt)
	servers(f.Declared)
	servers(f.Overlay)
	rawMap(asBytes(f.Seen.Servers))
	rawMap(asBytes(f.Seen.AccountKeys))
	flag(f.Seen.TrustSeeded)
	flag(f.Untrusted)
	strs(f.Names)
	str(f.TrustRoot)
	strs(f.TrustPaths)
	flag(f.EachTrust)
	num(len(extra))
	for _, k := range extra {
		str(k.Name)
		flag(k.Raw == nil)
		raw(k.Raw)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// asBytes views a map of raw JSON values as one of bytes, nil kept nil.
func asBytes[M ~map[string]V, V ~[]byte](m M) map[string][]byte {
	if m == nil {
		return nil
	}
	out := make(map[string][]byte, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// launcherID names the running launcher's binary by its path, inode, size
// and mtime: a rebuilt or upgraded launcher scans once more.
var launcherID = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return exe
	}
	var ino uint64
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		ino = st.Ino
	}
	b := binary.LittleEndian.AppendUint64(nil, ino)
	b = binary.LittleEndian.AppendUint64(b, uint64(fi.Size()))
	b = binary.LittleEndian.AppendUint64(b, uint64(fi.ModTime().UnixNano()))
	return exe + "\x00" + string(b)
})

// inSync reports whether a decision left this config dir's state as it was:
// nothing to splice, the ledger and the record as they were read, nothing
// to tell. Only then may a later launch with the same stamp skip it.
func inSync(f *stateFacts, d stateDecision, pieces [][]byte) bool {
	return pieces == nil && len(d.Notes) == 0 && f.Cur != nil && f.Ledger != nil &&
		ledger.Same(f.Ledger, d.Ledger) && sameSeen(f.Seen, d.Seen)
}
