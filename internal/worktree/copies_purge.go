package worktree

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/runtimes"
)

// PurgeOptions says which of the account's kept copies PurgeCopies removes.
type PurgeOptions struct {
	// OlderThan: only copies last changed longer ago than this (0: all).
	OlderThan time.Duration
	Now       time.Time
	DryRun    bool
	// Live: also a copy that is the only one left of a conversation of a
	// worktree still there (Claude's cleanup, or the user, deleted the
	// runtime's own): without it, such a copy stays.
	Live bool
}

// Purged is one kept copy PurgeCopies removed (or, dry, would remove), or
// left (Why says why).
type Purged struct {
	ID       string    `json:"id"`
	Worktree string    `json:"worktree"`
	Updated  time.Time `json:"updated"`
	Path     string    `json:"path"`
	// Also: the conversation is in its worktree's runtime too, so nothing
	// of it is lost.
	Also bool   `json:"inWorktree"`
	Why  string `json:"why,omitempty"`
}

// PurgeCopies removes the copies the account in accountDir keeps of its
// runtimes' transcripts (CopiesDir) that o names, with their side dirs, and
// the dirs and records left empty; never through a link, never a
// transcript of a runtime itself (a hard link's other name stays). It
// returns those removed and those left. The caller holds the account's lock.
func PurgeCopies(accountDir string, o PurgeOptions) (removed, left []Purged, err error) {
	live := liveCopies(accountDir)
	dirs, _ := filepath.Glob(filepath.Join(accountDir, "archive", "*", "*", KeptPrefix+"*"))
	for _, d := range dirs {
		rel, _ := filepath.Rel(accountDir, d)
		if fsx.LinkIn(accountDir, rel) != "" {
			continue
		}
		rec := conversation.ReadRemoved(d)
		wt := ""
		if rec != nil {
			wt = rec.Path
		}
		// A dir of copies set aside (setAside) is of the same runtime.
		rt, isLive := live[keptOf(d)]
		files, _ := filepath.Glob(filepath.Join(d, "projects", "*", "*.jsonl"))
		for _, f := range files {
			fi, err := os.Lstat(f)
			if err != nil || !fi.Mode().IsRegular() || !IsTranscriptName(filepath.Base(f)) || fsx.LinkIn(d, filepath.Join("projects", filepath.Base(filepath.Dir(f)))) != "" {
				continue
			}
			if o.OlderThan > 0 && o.Now.Sub(fi.ModTime()) <= o.OlderThan {
				continue
			}
			p := Purged{ID: strings.TrimSuffix(filepath.Base(f), ".jsonl"), Worktree: wt, Updated: fi.ModTime(), Path: f}
			if isLive {
				var named bool
				p.Also, named = holds(rt, p.ID, f, fi)
				if !p.Also && !o.Live {
					p.Why = "the only copy left of a conversation of " + wt + ", which is still there (--live removes it too)"
					if named {
						p.Why = "it holds turns the transcript of the same conversation in " + wt + " lacks (an older one restored over it?) (--live removes it too)"
					}
					left = append(left, p)
					continue
				}
			}
			if !o.DryRun {
				if err := os.Remove(f); err != nil {
					return removed, left, err
				}
				side := strings.TrimSuffix(f, ".jsonl")
				if sfi, err := os.Lstat(side); err == nil && sfi.IsDir() {
					_ = os.RemoveAll(side)
				}
			}
			removed = append(removed, p)
		}
		if !o.DryRun {
			// A live runtime's record stays: it says copies are kept for
			// it already (FindUnkept).
			pruneEmpty(d, isLive && keptOf(d) == d)
		}
	}
	sort.SliceStable(removed, func(i, j int) bool { return removed[i].Updated.Before(removed[j].Updated) })
	return removed, left, nil
}

// ExpireCopies is Claude's own retention for the account's kept copies:
// each one untouched for longer than keep (conversation.Keep; 0 keeps them
// forever) goes, as Claude's cleanup deletes the runtime's own at its next
// start. Also one the runtime's file does not hold (holds), and one set
// aside: its turns are as old as its own time, and Claude's cleanup would
// have deleted them by then had they stayed in the runtime.
func ExpireCopies(accountDir string, now time.Time, keep time.Duration, dry bool) ([]Purged, error) {
	if keep <= 0 {
		return nil, nil
	}
	removed, _, err := PurgeCopies(accountDir, PurgeOptions{OlderThan: keep, Now: now, DryRun: dry, Live: true})
	return removed, err
}

// liveCopies maps the dir of copies of each runtime the launcher made for
// the account and that is still there to that runtime's dir.
func liveCopies(accountDir string) map[string]string {
	m := map[string]string{}
	rts, _ := runtimes.List(accountDir)
	for _, rt := range rts {
		if rt.Made && rt.Place.CommonDir != "" && rt.Place.Worktree != "" {
			m[CopiesDir(accountDir, rt.Place.CommonDir, rt.Dir)] = rt.Dir
		}
	}
	return m
}

// holds reports whether the runtime dir holds every byte of the account's
// copy f (fi, as Lstat saw it) of conversation id: a transcript of that
// name that is the very file, or that begins with all of the copy's bytes
// (conversation.ByPrefix). One of that name that is another file and lacks
// some of them (an older backup restored over the runtime's with tar or
// rsync, which breaks the link; one planted) holds nothing of the turns only
// the copy has: named says there is one. A link in the runtime is never
// followed.
func holds(runtime, id, f string, fi fs.FileInfo) (held, named bool) {
	found, _ := filepath.Glob(filepath.Join(runtime, "projects", "*", id+".jsonl"))
	for _, r := range found {
		rfi, err := os.Lstat(r)
		if err != nil || !rfi.Mode().IsRegular() {
			continue
		}
		named = true
		if heldBy(f, fi, r, rfi) {
			return true, true
		}
	}
	return false, named
}

// pruneEmpty removes the dirs of copies d left empty: its projects/<key>
// dirs, then, unless keepRecord, d with its record when no transcript is
// left, then the worktree's and the repository's archive dirs when empty.
func pruneEmpty(d string, keepRecord bool) {
	keys, _ := filepath.Glob(filepath.Join(d, "projects", "*"))
	for _, k := range keys {
		_ = os.Remove(k) // only when empty
	}
	_ = os.Remove(filepath.Join(d, "projects"))
	if des, err := os.ReadDir(d); !keepRecord && err == nil && len(des) == 1 && des[0].Name() == conversation.RemovedFile {
		_ = os.Remove(filepath.Join(d, conversation.RemovedFile))
	}
	for _, p := range []string{d, filepath.Dir(d), filepath.Dir(filepath.Dir(d))} {
		if os.Remove(p) != nil {
			return
		}
	}
}
