package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/claude-account/claude-account/internal/out"
	"github.com/claude-account/claude-account/internal/worktree"
)

// WorktreeDiffCmd is `claude-account worktree diff`.
type WorktreeDiffCmd struct {
	AccountFlags
	Name string `arg:"" help:"The worktree: its name, path or branch."`
	Into string `placeholder:"BRANCH" help:"Compare against this local branch instead of the worktree's base."`
	Stat bool   `help:"Show the files changed and their lines added and deleted (git diff --stat)."`
	JSON bool   `help:"Print JSON: {path, branch, base, mergeBase, files: [{path, added, deleted, binary}], added, deleted}."`
}

// Run shows the change.
func (c *WorktreeDiffCmd) Run(d *Deps) error {
	if strings.TrimSpace(c.Name) == "" {
		return UsageError{fmt.Errorf("worktree diff: %w", worktree.ErrEmptyName)}
	}
	r, _, _, err := repoFor(d, c.AccountFlags)
	if err != nil {
		return err
	}
	e, err := r.Resolve(c.Name)
	if err != nil {
		return err
	}
	ch, err := r.Changes(e, c.Into)
	if err != nil {
		return err
	}
	if c.JSON {
		files, err := r.Files(ch)
		if err != nil {
			return err
		}
		added, deleted := 0, 0
		for _, f := range files {
			added, deleted = added+f.Added, deleted+f.Deleted
		}
		return writeJSON(d, struct {
			*worktree.Change
			Files   []worktree.DiffFile `json:"files"`
			Added   int                 `json:"added"`
			Deleted int                 `json:"deleted"`
		}{ch, files, added, deleted})
	}
	var args []string
	if c.Stat {
		args = append(args, "--stat")
	}
	text, err := r.Patch(ch, args...)
	if err != nil {
		return err
	}
	return page(d, text)
}

// page prints text, through the user's pager when stdout is a terminal
// (GIT_PAGER, else PAGER, else less; LESS=FRX unless set, so that what fits
// on a screen is printed and left there, as git does). Each line is made
// inert, its tabs expanded: a patch is the repository's text.
func page(d *Deps, text string) error {
	f, ok := d.Stdout.(*os.File)
	pager := d.Env.Get("GIT_PAGER")
	if pager == "" {
		pager = d.Env.Get("PAGER")
	}
	if pager == "" {
		pager = "less"
	}
	if !ok || !terminal(f) || pager == "cat" || text == "" {
		printExpanded(d.stdout(), text)
		return nil
	}
	env := d.Env.List()
	if d.Env.Get("LESS") == "" {
		env = append(env, "LESS=FRX")
	}
	cmd := exec.Command("/bin/sh", "-c", pager)
	cmd.Env, cmd.Stdout, cmd.Stderr = env, f, d.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		printExpanded(d.stdout(), text)
		return nil
	}
	printExpanded(out.To(in), text)
	in.Close()
	return cmd.Wait()
}

// printExpanded prints each line of text with its tabs expanded to stops
// of eight, made inert.
func printExpanded(p out.Printer, text string) {
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		var b strings.Builder
		col := 0
		for _, r := range l {
			if r == '\t' {
				n := 8 - col%8
				b.WriteString(strings.Repeat(" ", n))
				col += n
				continue
			}
			b.WriteRune(r)
			col++
		}
		p.Line(b.String())
	}
}

// WorktreeMergeCmd is `claude-account worktree merge`.
type WorktreeMergeCmd struct {
	AccountFlags
	Name     string `arg:"" help:"The worktree: its name, path or branch."`
	Strategy string `default:"merge" enum:"merge,rebase,squash" help:"merge (a merge commit, or a fast-forward when the base has not moved), rebase (its commits replayed on the base) or squash (one commit)."`
	Into     string `placeholder:"BRANCH" help:"Land on this local branch instead of the worktree's base."`
	JSON     bool   `help:"Print JSON: {path, branch, base, strategy, old, new, commits, removed, notes}; a refusal: {error, files}."`
}

// Run lands the worktree's work and removes it.
func (c *WorktreeMergeCmd) Run(d *Deps) error {
	if strings.TrimSpace(c.Name) == "" {
		return UsageError{fmt.Errorf("worktree merge: %w", worktree.ErrEmptyName)}
	}
	r, a, _, err := repoFor(d, c.AccountFlags)
	if err != nil {
		return err
	}
	e, err := r.Resolve(c.Name)
	if err != nil {
		return err
	}
	inside := standsIn(d.Dir, e.Path)
	l, err := r.Land(e, worktree.LandOptions{Strategy: c.Strategy, Into: c.Into, Remove: worktree.RemoveOptions{
		Running: runningIn(d), Claudes: claudesIn(), Background: fleetKeeping(d, a), Alive: aliveFn(),
		AccountDir: accountDirs(d, a), Now: d.Now()}})
	if c.JSON {
		if l == nil {
			var lr *worktree.LandRefusal
			files := []string{}
			if errors.As(err, &lr) && lr.Files != nil {
				files = lr.Files
			}
			if werr := writeJSON(d, map[string]any{"error": err.Error(), "files": files}); werr != nil {
				return werr
			}
			return err
		}
		l.Notes = nonNil(l.Notes)
		if werr := writeJSON(d, l); werr != nil {
			return werr
		}
		return err
	}
	if l != nil {
		for _, n := range l.Notes {
			d.stdout().Line(n)
		}
		if l.Removed {
			d.stdout().Linef("removed %s", d.Env.TildePath(l.Path))
		}
	}
	if err != nil {
		return err
	}
	if inside {
		d.notef("you were in %s, which is gone now; go to the main worktree: cd %s", d.Env.TildePath(l.Path), d.Env.ShellPath(r.Root))
	}
	return nil
}

// Help is shown under the command's usage.
func (c *WorktreeDiffCmd) Help() string {
	return `Shows what the worktree changed against its base: everything since the merge base of
its HEAD and the local base branch (the branch 'worktree new' made it from; main for
origin/main), its commits and its uncommitted and untracked files alike. Nothing in
the worktree is touched. Paged like git on a terminal.

Examples:
  claude-account worktree diff fix-login
  claude-account worktree diff fix-login --stat
  claude-account worktree diff fix-login --json | jq '.files[].path'`
}

// Help is shown under the command's usage.
func (c *WorktreeMergeCmd) Help() string {
	return `Lands the worktree's commits on its local base branch (never pushing), then removes the
worktree and its branch as 'worktree rm' does, archiving its conversations. The result
is computed first without touching any work tree; when it cannot land, it says why and
changes nothing: a conflict (naming the files), uncommitted changes in the worktree, a
base branch checked out with uncommitted changes, a base that no longer holds the
commit the worktree started from, or anything rm refuses (a running Claude...).
The base moves by a fast-forward where it is checked out, else by its ref alone.

Examples:
  claude-account worktree merge fix-login
  claude-account worktree merge fix-login --strategy squash
  claude-account worktree merge spike --strategy rebase --into release`
}
