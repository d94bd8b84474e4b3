package worktree

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/claude-account/claude-account/internal/configdir"
)

// GCOptions are the settings of GC.
type GCOptions struct {
	OlderThan time.Duration
	DryRun    bool
	// Merged: also named worktrees claude-account made, whatever their age,
	// that are clean and whose commits are all in their base (merged, or
	// squash-merged: their changes are there), mergedVerdict.
	Merged  bool
	Running func(toplevel string) []string
	Claudes func(path string) ([]int, error) // as RemoveOptions.Claudes
	// Background and Alive are as RemoveOptions's.
	Background func(path, gitDir string) []Hosted
	Alive      func(pid int) bool
	// AccountDir is as RemoveOptions.AccountDir.
	AccountDir func(name string) string
	Now        time.Time
}

// Verdict is what GC decided for one worktree, and why.
type Verdict struct {
	Path    string   `json:"path"`
	Removed bool     `json:"removed"`
	Why     string   `json:"why"`
	Notes   []string `json:"notes,omitempty"`
}

// GC removes ephemeral worktrees (agent-a<7 or 16 hex> slugs, or made with
// --ephemeral) that are older than the age, clean, merged or pushed, and
// not running; then prunes git's records of worktrees whose dirs are gone.
// Every other worktree is kept, with the reason.
func (r *Repo) GC(o GCOptions) ([]Verdict, error) {
	infos, err := r.List(o.Running)
	if err != nil {
		return nil, err
	}
	var out []Verdict
	for _, in := range infos {
		if in.Main {
			continue
		}
		v := Verdict{Path: in.Path}
		into := "" // the branch --merged found its work in, when not its base
		age := o.Now.Sub(in.Created)
		switch {
		case in.Prunable:
			v.Removed, v.Why = true, "its directory is gone"
		case !in.Ephemeral && o.Merged:
			v.Removed, v.Why, into = r.mergedVerdict(in, o)
		case !in.Ephemeral:
			v.Why = "named, not ephemeral"
		case age < o.OlderThan:
			v.Why = fmt.Sprintf("younger than %s (%s old)", Duration(o.OlderThan), roughly(age))
		case o.inUse(in) != "":
			v.Why = o.inUse(in) // asked again only when it refuses
		default:
			w := work{Changes: in.Dirty, Merged: in.Merged}
			if holdsWork(w) == heldNone {
				w.Commits = -1 // not known: kept
				if n, err := unique(r.Git.In(in.Path), in.HEAD, in.Branch); err == nil {
					w.Commits = n
				}
			}
			switch holdsWork(w) {
			case heldChanges:
				v.Why = fmt.Sprintf("%d uncommitted change(s)", in.Dirty)
			case heldCommits:
				v.Why = fmt.Sprintf("%d commit(s) neither merged into %s nor pushed", in.Ahead, in.Base)
			default:
				v.Removed, v.Why = true, "ephemeral, clean and "+map[bool]string{true: "merged", false: "pushed"}[in.Merged]
			}
		}
		if v.Removed && !o.DryRun {
			// A prunable one goes through Remove too: its transcripts are
			// archived before git forgets it.
			e := &Entry{Path: in.Path, HEAD: in.HEAD, Branch: in.Branch, Prunable: in.Prunable}
			rm, err := r.Remove(e, RemoveOptions{Running: o.Running, Claudes: o.Claudes, Background: o.Background, Alive: o.Alive, AccountDir: o.AccountDir, Base: into, Now: o.Now})
			if err != nil {
				v.Removed, v.Why = false, err.Error()
			} else {
				v.Notes = rm.Notes
			}
		}
		out = append(out, v)
	}
	if !o.DryRun {
		// What a removal above refused (kept, with the reason) stays.
		if err := r.prune(""); err != nil {
			return out, err
		}
	}
	return out, nil
}

// mergedVerdict decides, for gc --merged, a named worktree: removed when
// claude-account made it, no Claude works there, it is clean, it has
// commits of its own (a worktree still on the commit it was made from may
// be one an agent is about to use), and they are all in its base, or in
// the local branch of its base (origin/main's main: merged locally, not
// pushed yet), which it names then. Remove decides again, as for rm.
func (r *Repo) mergedVerdict(in Info, o GCOptions) (bool, string, string) {
	m := ReadMeta(in.GitDir)
	switch {
	case !in.Ours || m == nil:
		return false, "not made by claude-account", ""
	case o.inUse(in) != "":
		return false, o.inUse(in), ""
	case in.Dirty > 0:
		return false, fmt.Sprintf("%d uncommitted change(s)", in.Dirty), ""
	case m.BaseOID == "" || in.HEAD == m.BaseOID:
		return false, "no commits of its own yet", ""
	}
	base, into, merged := in.Base, "", in.Merged
	if !merged && in.Branch != "" {
		e := &Entry{Path: in.Path, HEAD: in.HEAD, Branch: in.Branch}
		if lb, err := r.localBase(e, ""); err == nil && lb.Name != in.Base {
			if ok, _ := contained(r.Git.In(in.Path), lb.OID, in.HEAD); ok {
				base, into, merged = lb.Name, lb.Name, true
			}
		}
	}
	if !merged {
		return false, fmt.Sprintf("%d commit(s) not merged into %s", in.Ahead, in.Base), ""
	}
	if ok, _ := r.Git.In(in.Path).OK("merge-base", "--is-ancestor", "--end-of-options", in.HEAD, base); !ok {
		return true, "clean, and its changes are in " + base + " (squash-merged)", into
	}
	return true, "clean and merged into " + base, into
}

// inUse says why a Claude keeps gc from the worktree: one the launcher
// runs there, a background session of Claude's fleet (before the process
// table: it names the session and Claude's command that stops it), or a
// Claude in the process table; "" when none.
func (o GCOptions) inUse(in Info) string {
	if len(in.Running) > 0 {
		return "claude (" + in.Running[0] + ") runs there"
	}
	if bg := o.background(in.Path); len(bg) > 0 {
		return backgroundRefusal(in.Path, bg, "gc")
	}
	return busy(o.Claudes, in.Path)
}

// background is what of Claude's fleet lives in the worktree at path.
func (o GCOptions) background(path string) []Hosted {
	if o.Background == nil {
		return nil
	}
	gitDir, _ := GitDir(path)
	return o.Background(path, gitDir)
}

// busy says why a Claude keeps the worktree at path: one works there, or
// one may (its working directory cannot be read); "" when none does.
func busy(claudes func(string) ([]int, error), path string) string {
	if claudes == nil {
		return ""
	}
	pids, err := claudes(path)
	switch {
	case len(pids) > 0:
		return fmt.Sprintf("claude (PID %d) works there", pids[0])
	case err != nil:
		return fmt.Sprintf("cannot tell whether a Claude works there: %v", err)
	}
	return ""
}

// Duration says an age as it was most likely given: 7d reads "7 days",
// 12h "12 hours", 90m "90 minutes"; anything else as Go writes it.
func Duration(d time.Duration) string {
	unit := func(n int64, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	switch {
	case d > 0 && d%(24*time.Hour) == 0:
		return unit(int64(d/(24*time.Hour)), "day")
	case d > 0 && d%time.Hour == 0:
		return unit(int64(d/time.Hour), "hour")
	case d%time.Minute == 0:
		return unit(int64(d/time.Minute), "minute")
	}
	return d.String()
}

// roughly says an age in the largest whole unit: minutes below two hours,
// hours below two days, then days.
func roughly(d time.Duration) string {
	switch {
	case d < 2*time.Hour:
		return Duration(d.Truncate(time.Minute))
	case d < 48*time.Hour:
		return Duration(d.Truncate(time.Hour))
	}
	return Duration(d.Truncate(24 * time.Hour))
}

// prune runs git worktree prune, which forgets every worktree whose
// directory is gone, its git dir and all in it, except: each such worktree
// but the one at except whose git dir holds a launcher runtime
// (claude-runtime/: Claude's transcripts, a runtime set aside) is locked for
// the while, so that a removal that refused it (an account whose dir it
// cannot find) never has it pruned by the next one. Only the locks prune
// placed are lifted.
func (r *Repo) prune(except string) error {
	entries, err := r.Entries()
	if err != nil {
		return err
	}
	var locked []string
	defer func() {
		for _, p := range locked {
			_, _ = r.Git.Run("worktree", "unlock", "--", p)
		}
	}()
	for _, e := range entries {
		if !e.Prunable || e.Locked || e.Path == except {
			continue
		}
		admin := r.adminDir(e.Path)
		if admin == "" || !exists(filepath.Join(admin, configdir.DirName)) {
			continue
		}
		if _, err := r.Git.Run("worktree", "lock", "--reason", "claude-account: holds Claude's conversations; claude-account worktree rm archives them", "--", e.Path); err != nil {
			return err
		}
		locked = append(locked, e.Path)
	}
	_, err = r.Git.Run("worktree", "prune")
	return err
}
