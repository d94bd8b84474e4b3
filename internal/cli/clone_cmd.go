package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"

	"github.com/claude-account/claude-account/internal/clone"
	"github.com/claude-account/claude-account/internal/launch"
)

// CloneCmd is `claude-account clone OWNER/REPO|URL [--branch B]`.
type CloneCmd struct {
	Source string `arg:"" name:"repo" help:"A GitHub owner/repo, or an https://, ssh://, git@host:owner/repo or file:// URL."`
	Branch string `short:"b" placeholder:"BRANCH" help:"The worktree's branch (refs/heads/BRANCH means BRANCH too): origin's BRANCH if there is one, else a new one from the default branch. Default: the remote's default branch."`
	JSON   bool   `help:"Print JSON: {repo, worktree, branch, url, cloned}."`
}

// Help is shown under the command's usage.
func (c *CloneCmd) Help() string {
	return `Keeps a bare clone in BASE/repos/OWNER__REPO.git (fetched when it exists) and one
worktree per branch in BASE/worktrees/OWNER__REPO/BRANCH, a '/' in BRANCH becoming '+'.
BASE is $CLAUDE_ACCOUNT_BASE, else $XDG_DATA_HOME/claude-account, else
~/.local/share/claude-account. A new worktree gets the repository's submodules; an
existing worktree is reused as it is, never reset.
The last line printed is the worktree's path.

Examples:
  cd "$(claude-account clone owner/repo | tail -1)"
  claude-account clone git@github.com:owner/repo.git --branch fix/login
  claude-account clone https://gitlab.com/group/repo --json | jq -r .worktree`
}

// CloneResult is the --json body; its field names are a stable interface.
type CloneResult struct {
	Repo     string `json:"repo"`
	Worktree string `json:"worktree"`
	Branch   string `json:"branch"`
	URL      string `json:"url"`
	Cloned   bool   `json:"cloned"`
}

// Run clones or fetches, then makes or reuses the worktree.
func (c *CloneCmd) Run(d *Deps) error {
	src, err := clone.Parse(c.Source)
	if err != nil {
		return UsageError{err}
	}
	if c.Branch != "" {
		b, err := clone.BranchName(c.Branch)
		if err != nil {
			return UsageError{err}
		}
		c.Branch = b
	}
	base, err := clone.Base(d.Env)
	if err != nil {
		return err
	}
	layout := clone.Layout{Base: base}

	// Ctrl-C or a TERM stops git, removes a partial clone, and then ends
	// this process by the same signal.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	var got syscall.Signal
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case s := <-sigs:
			got = s.(syscall.Signal)
			cancel()
		case <-done:
		}
	}()
	interrupted := func(err error) error {
		if errors.Is(err, context.Canceled) {
			<-ctx.Done()
			return SignalError{launch.Status{Signal: got}}
		}
		return err
	}

	g := clone.Git{Env: clone.GitEnv(d.Env), Dir: "/"}
	repo, err := clone.EnsureRepo(ctx, g, layout.Repo(src), src)
	if err != nil {
		return interrupted(err)
	}
	def, err := clone.DefaultBranch(ctx, g, repo.Dir)
	if err != nil {
		return interrupted(err)
	}
	branch := c.Branch
	if branch == "" {
		branch = def
	}
	wt, err := clone.EnsureWorktree(ctx, g, repo.Dir, layout.Worktree(src, branch), branch, def)
	if err != nil {
		return interrupted(err)
	}

	if c.JSON {
		return d.stdout().JSON(CloneResult{Repo: repo.Dir, Worktree: wt.Dir, Branch: wt.Branch, URL: repo.URL, Cloned: repo.Cloned})
	}
	verb := "fetched"
	if repo.Cloned {
		verb = "cloned"
	}
	var how string
	switch {
	case wt.Reused:
		how = "reusing the worktree on " + wt.Branch
	case wt.From != "":
		how = "new worktree on new branch " + wt.Branch + " from " + wt.From
	default:
		how = "new worktree on " + wt.Branch
		if wt.Track != "" {
			how += " tracking " + wt.Track
		}
		if wt.Moved {
			how += ", fast-forwarded"
		}
	}
	if wt.Submodules {
		how += "; initialised submodules"
	}
	d.stdout().Linef("%s %s into %s; %s", verb, repo.URL, d.Env.TildePath(repo.Dir), how)
	d.stdout().Line(wt.Dir)
	return nil
}
