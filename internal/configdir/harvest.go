package configdir

import (
	"os"
	"path/filepath"
	"syscall"

	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/ledger"
	"github.com/claude-account/claude-account/internal/mcp"
)

// Harvest plans the recording of what Claude changed during a session in what
// the account shares — servers it added, changed or removed, the repository's
// trust — in the account's ledger, so that the account's other worktrees get
// it at their next launch. It writes nothing else.
func Harvest(in Input, since StateStamp) (*Plan, error) {
	p := &Plan{Layout: in.Layout}
	if Stamp(in.Layout) == since {
		return p, nil // Claude did not write its state: nothing to take in
	}
	ledgerPath := ledger.Path(in.Account.Dir)
	book, err := ledger.Read(ledgerPath)
	if err != nil {
		return nil, err
	}
	declared, err := declaredServers(in.Account)
	if err != nil {
		return nil, err
	}
	state := filepath.Join(p.ConfigDir, ".claude.json")
	cur, release, err := mapOptional(state)
	p.releases = append(p.releases, release)
	if err != nil || cur == nil {
		return p, err
	}
	rf := loadRecord(filepath.Join(p.ConfigDir, ManagedFile), false)
	if rf.r.Servers == nil {
		return p, nil // not launched by this version: the next launch harvests it
	}
	root := RepositoryRoot(in.Context)
	var next *ledger.Ledger
	err = fsx.Guard(state, func() error {
		raw, _, err := coalesce.Lookup(cur, "mcpServers")
		if err != nil {
			return err
		}
		current, err := mcp.ParseClaudes(raw, state)
		if err != nil {
			return err
		}
		res := ledger.Reconcile(ledger.Input{Ledger: book, Rebuilt: book == nil, Declared: declared, Overlay: p.overlay(in),
			Current: current, Seen: rf.r.Servers, File: state})
		next = res.Ledger
		// Claude's own servers are now in the ledger; what it did to the
		// declared ones is still to be undone, and told, at the next launch.
		seen := ledger.SeenOf(current)
		for _, d := range declared {
			if before, ok := rf.r.Servers[d.Name]; ok {
				seen[d.Name] = before
			} else {
				delete(seen, d.Name)
			}
		}
		rf.r.Servers = seen
		// The account's keys Claude changed in this session (onboarding,
		// /config, /theme) hold for the account: the later exit wins.
		names := accountKeyNames(in.Account)
		have, err := lookupKeys(func(n string) ([]byte, bool, error) { return coalesce.Lookup(cur, n) }, names)
		if err != nil {
			return err
		}
		next.HarvestKeys(names, have, rf.r.AccountKeys)
		rf.r.AccountKeys = have
		if !p.IsRuntime {
			rf.r.Stamp = Stamp(in.Layout) // the account dir's: harvested now
		}
		if p.IsRuntime && root != "" && !next.IsTrusted(root) {
			// Claude keys trust by the main worktree's root (before 2.1.63
			// by each worktree's own: trustPaths); it holds for every
			// worktree of the repository.
			for _, path := range trustPaths(in) {
				v, ok, err := coalesce.Path(cur, "projects", path, "hasTrustDialogAccepted")
				if err == nil && ok && string(v) == "true" {
					next.Trusted = append(next.Trusted, root)
					rf.r.TrustSeeded = true
					break
				}
			}
		}
		return nil
	})
	if err != nil {
		// Claude's file is Claude's to fix; the next launch reports it.
		return p, nil
	}
	p.Notes = nil // the overlay's notes were given at launch
	if !ledger.Same(book, next) {
		p.Steps = append(p.Steps, Step{Op: Write, Path: ledgerPath, Data: next.Encode(), Secret: true, Why: "what Claude shared in this session"})
	}
	if rf.changed() {
		p.Steps = append(p.Steps, Step{Op: Write, Path: rf.path, Data: rf.encode(), Secret: true, Why: "launcher's record"})
	}
	return p, nil
}

// StateStamp identifies one version of a config dir's .claude.json: Claude
// replaces it by rename, so a new inode, size or mtime means a new version.
type StateStamp struct {
	Ino        int64 `json:"ino"`
	Size       int64 `json:"size"`
	MtimeNanos int64 `json:"mtimeNs"`
}

// Stamp is the config dir's .claude.json as it is now; zero when missing.
func Stamp(l Layout) StateStamp { return stampOf(filepath.Join(l.ConfigDir, ".claude.json")) }

func stampOf(path string) StateStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return StateStamp{}
	}
	st := StateStamp{Size: fi.Size(), MtimeNanos: fi.ModTime().UnixNano()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.Ino = int64(sys.Ino)
	}
	return st
}
