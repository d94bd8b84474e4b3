package worktree

import (
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// List describes every worktree of the repository (ours and others), the
// main one first. running names the accounts with a Claude running in a
// worktree. Worktrees are examined in parallel: each costs a couple of git
// processes, and a repository may have hundreds.
func (r *Repo) List(running func(toplevel string) []string) ([]Info, error) {
	entries, err := r.Entries()
	if err != nil {
		return nil, err
	}
	base := r.defaultBase()
	out := make([]Info, 0, len(entries))
	for _, e := range entries {
		if e.Bare {
			continue
		}
		out = append(out, Info{Path: e.Path, Branch: e.Branch, HEAD: e.HEAD, Prunable: e.Prunable, Base: base})
	}
	if len(out) > 0 && !r.Bare {
		out[0].Main = true
	}
	bases := &baseCache{r: r, oids: map[string]string{}}
	// Each git process waits on the disk now and then: more of them than
	// cores keeps the cores busy (measured: 8 per core beats 2 on 200 worktrees).
	sem := make(chan struct{}, 8*runtime.NumCPU())
	errs := make([]error, len(out))
	var wg sync.WaitGroup
	for i := range out {
		wg.Add(1)
		sem <- struct{}{}
		go func(in *Info, errp *error) {
			defer func() { <-sem; wg.Done() }()
			*errp = r.describe(in, running, bases.oid)
		}(&out[i], &errs[i])
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

func (r *Repo) describe(in *Info, running func(string) []string, baseOID func(string) string) error {
	if in.Prunable {
		return nil // its directory is gone; git worktree prune will forget it
	}
	if in.Main {
		in.GitDir = r.Common
	} else if d, err := GitDir(in.Path); err == nil {
		in.GitDir = d
	}
	m := ReadMeta(in.GitDir)
	if m != nil && !in.Main {
		in.Ours, in.Slug, in.Ephemeral = true, m.Slug, m.Ephemeral
		if m.Base != "" {
			in.Base = m.Base
		}
	}
	in.Created = created(in.GitDir, m)
	g := r.Git.In(in.Path)
	var err error
	if in.Dirty, err = dirtyCount(g); err != nil {
		return err
	}
	// An unborn HEAD (no commit yet: git lists it as zeros) or a base that
	// is gone (a branch deleted since) has nothing to count against.
	head, base := in.HEAD, baseOID(in.Base)
	switch {
	case !isOID(head) || strings.Trim(head, "0") == "" || base == "":
	case head == base:
		in.Merged = true // on the base commit itself: nothing ahead or behind, no process needed
	default:
		if in.Ahead, in.Behind, err = aheadBehind(g, in.Base, in.HEAD); err != nil {
			return err
		}
		// Nothing ahead means HEAD is on the base: merged without asking.
		in.Merged = in.Ahead == 0
		if !in.Merged {
			if in.Merged, err = contained(g, in.Base, in.HEAD); err != nil {
				return err
			}
		}
	}
	in.RuntimeBytes = dirSize(filepath.Join(in.GitDir, "claude-runtime"))
	if running != nil {
		in.Running = running(in.Path)
	}
	if in.Running == nil {
		in.Running = []string{}
	}
	return nil
}

// baseCache resolves each base ref once for all worktrees.
type baseCache struct {
	r    *Repo
	mu   sync.Mutex
	oids map[string]string
}

func (c *baseCache) oid(ref string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if oid, ok := c.oids[ref]; ok {
		return oid
	}
	oid, _ := c.r.Git.Run("rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	c.oids[ref] = oid
	return oid
}
