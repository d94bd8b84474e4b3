package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitcmd"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/out"
	"github.com/claude-account/claude-account/internal/usage"
	"github.com/claude-account/claude-account/internal/worktree"
)

// StatuslineCmd is `claude-account statusline`: Claude Code's statusLine
// command. Claude runs it often (at most every 300 ms while a conversation
// changes), so it does no network and runs one git status (and a rev-list
// on a branch without upstream; gitcmd adds one `git config --list` where
// the repository's configuration names a command).
type StatuslineCmd struct {
	NoGit      bool   `name:"no-git" help:"Skip the one git process (no dirty/ahead state)."`
	Waiting    bool   `help:"Add how many of the account's other sessions wait for you (see 'ps')."`
	Usage      string `placeholder:"ACCOUNT-DIR" help:"Record the rate limits Claude reports as the usage of the account kept in this dir, and show them (the launcher passes it)."`
	RecordOnly bool   `name:"record-only" help:"With --usage: print only what the account's own status line (its settings.json statusLine) prints, or nothing."`
}

// Help is shown under the command's usage.
func (c *StatuslineCmd) Help() string {
	return `Reads Claude's status JSON on stdin and prints one line:
  ACCOUNT · WORKTREE-OR-BRANCH · STATE · MODEL
where STATE is * for uncommitted changes and ↑N ↓N against the upstream (a
branch without one: ↑N against the base the worktree was made from). With
--waiting, "N waiting" follows when N of the account's other sessions wait for you.

It is on for every account 'claude-account init' makes, and off otherwise. Three ways
to turn it on (or off); a statusLine of your own in settings.json always wins:
  - account.toml (accounts made by init): statusline = true, or false to turn it off;
  - home-manager: programs.claude-code.accounts.NAME.statusLine = true (default false);
  - settings.json, as any status-line command, here with --waiting:
      "statusLine": {"type": "command", "command": "claude-account statusline --waiting"}

Example, by hand:
  echo '{"model":{"display_name":"Opus"},"workspace":{"current_dir":"'$PWD'"}}' | claude-account statusline`
}

// statusInput is the part of Claude's status JSON the line shows.
type statusInput struct {
	SessionID string `json:"session_id"`
	Cwd       string `json:"cwd"`
	Model     struct {
		ID          string `json:"id"`
		DisplayName string `json:"display_name"`
	} `json:"model"`
	Workspace struct {
		CurrentDir  string `json:"current_dir"`
		ProjectDir  string `json:"project_dir"`
		GitWorktree string `json:"git_worktree"`
	} `json:"workspace"`
}

// Run prints the status line. It never fails for want of input: Claude shows
// whatever the first line of stdout is, so a partial line beats none.
func (c *StatuslineCmd) Run(d *Deps) error {
	var in statusInput
	var data []byte
	if d.Stdin != nil {
		data, _ = io.ReadAll(io.LimitReader(d.Stdin, 1<<20))
		_ = json.Unmarshal(data, &in)
	}
	var used usage.Usage
	if c.Usage != "" {
		// A window whose reset is further ahead than it is long is no
		// figure, here as in the record (usage.Believable).
		if u, _ := usage.FromStatus(data); u.Believable(d.Now()).Known() {
			// A record that cannot be written costs the figure, never the line.
			_ = usage.Record(c.Usage, u, d.Now())
			used = u.Believable(d.Now())
		} else {
			used, _ = usage.Read(c.Usage, d.Now())
		}
		if c.RecordOnly {
			return ownStatusLine(d, c.Usage, data)
		}
	}
	line := statusLine(d, in, !c.NoGit)
	if c.Usage == "" {
		// Named in settings.json (home-manager's statusLine option): the
		// account's figures, which the launcher's own line records.
		if acct, _, _ := strings.Cut(line, " · "); acct != "?" {
			if dir, err := binding.AccountDir(d.Env, acct); err == nil {
				used, _ = usage.Read(dir, d.Now())
			}
		}
	}
	if s := used.Short(d.Now()); s != "" {
		if used.Busiest(d.Now()) >= usage.Warn {
			s = "⚠ " + s
		}
		line += " · " + s
	}
	if c.Waiting {
		acct, _, _ := strings.Cut(line, " · ")
		if n := waitingCount(d, acct, in.SessionID); n > 0 {
			line += " · " + strconv.Itoa(n) + " waiting"
		}
	}
	d.stdout().Line(line)
	return nil
}

// ownStatusLine runs the status line the account's settings name, as Claude
// would have without the launcher's, with the same input; its output is
// Claude's to show, passed on as it is. None: nothing is printed. The
// settings are the account dir's, named on the command line the launcher
// wrote: every runtime's settings.json is a link to that file, so it is the
// one Claude reads and /statusline writes. Never $CLAUDE_CONFIG_DIR's: a
// project's settings env reaches this process and may point it at a
// settings.json of the repository, whose command would run here. A status
// line that is itself this one (named by hand in settings.json) is not run
// again.
func ownStatusLine(d *Deps, accountDir string, input []byte) error {
	const inside = "CLAUDE_ACCOUNT_OWN_STATUSLINE"
	if d.Env.Get(inside) != "" {
		return nil
	}
	settings, _ := fsx.ReadFile(filepath.Join(accountDir, "settings.json"))
	line := gjson.GetBytes(settings, "statusLine")
	command := line.Get("command").String()
	if line.Get("type").String() != "command" || strings.TrimSpace(command) == "" {
		return nil
	}
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Dir, cmd.Env = d.Dir, d.Env.With(inside, "1").List()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(input), d.Stdout, d.Stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return ExitCodeError(exit.ExitCode())
		}
		return err
	}
	return nil
}

func statusLine(d *Deps, in statusInput, useGit bool) string {
	dir := in.Workspace.CurrentDir
	if dir == "" {
		dir = in.Cwd
	}
	if dir == "" {
		dir = d.Dir
	}
	acct := d.Env.Get("CLAUDE_ACCOUNT")
	if acct == "" {
		acct, _ = launcherAccount(d.Prog)
	}
	if acct == "" {
		if b, ok, err := lookupBinding(d.Env, dir); err == nil && ok {
			acct = b.Account
		}
	}
	if acct == "" {
		acct = "?"
	}
	parts := []string{acct}
	if ctx, err := gitctx.Detect(dir, d.Env.Get); err == nil && ctx.GitDir != "" {
		where := ctx.Worktree
		head, detached, herr := gitctx.Head(ctx.GitDir)
		if herr == nil {
			if detached {
				head = "@" + head
			}
			if where == "" {
				where = head
			} else if head != "" && head != where && head != "worktree-"+where {
				where += " (" + head + ")"
			}
		}
		if where != "" {
			parts = append(parts, where)
		}
		if useGit && ctx.Toplevel != "" {
			if st := gitState(d, ctx); st != "" {
				parts = append(parts, st)
			}
		}
	}
	if m := in.Model.DisplayName; m != "" {
		parts = append(parts, m)
	} else if in.Model.ID != "" {
		parts = append(parts, in.Model.ID)
	}
	return out.Inert(strings.Join(parts, " · "))
}

// gitState is one `git status --porcelain=v2 --branch`: "*" when anything is
// changed or untracked, "↑N ↓N" against the upstream. A branch without one
// (every branch worktree new makes) or a detached HEAD counts ↑N against the
// base the worktree was made from, as worktree list does: a second git
// process, only then.
func gitState(d *Deps, ctx gitctx.Context) string {
	out, err := statusGit(d, ctx, "status", "--porcelain=v2", "--branch")
	if err != nil {
		return ""
	}
	st := parseGitState(out)
	if !st.upstream {
		st.ahead = aheadOfBase(d, ctx)
	}
	return st.String()
}

// statusGit runs git in the worktree of ctx without taking any lock (an
// agent may be committing there), through gitcmd: nothing the repository's
// configuration names runs.
func statusGit(d *Deps, ctx gitctx.Context, args ...string) ([]byte, error) {
	g := gitcmd.Git{Dir: ctx.Toplevel, Env: append(d.Env.List(), "GIT_OPTIONAL_LOCKS=0")}
	out, _, err := g.Run(context.Background(), nil, args...)
	return out, err
}

// aheadOfBase counts the commits of HEAD not on the worktree's base; 0 when
// git cannot tell (no such base, no commit yet). The base comes from the
// repository (its remote HEAD, the worktree's record): after
// --end-of-options it is a revision even when it reads as an option.
func aheadOfBase(d *Deps, ctx gitctx.Context) int {
	base := worktree.BaseOf(ctx, d.Env.List())
	out, err := statusGit(d, ctx, "rev-list", "--count", "--end-of-options", base+"..HEAD", "--")
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	return n
}

// gitState is what the line shows of git status.
type gitStatus struct {
	dirty         bool
	ahead, behind int
	upstream      bool // the branch has an upstream that git compared with
}

func parseGitState(out []byte) gitStatus {
	var st gitStatus
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if ab, ok := strings.CutPrefix(l, "# branch.ab "); ok {
			st.upstream = true
			for _, f := range strings.Fields(ab) {
				n, _ := strconv.Atoi(f[1:])
				if f[0] == '+' {
					st.ahead = n
				} else if f[0] == '-' {
					st.behind = n
				}
			}
		} else if l != "" && l[0] != '#' {
			st.dirty = true
		}
	}
	return st
}

func (st gitStatus) String() string {
	var s []string
	if st.dirty {
		s = append(s, "*")
	}
	if st.ahead > 0 {
		s = append(s, "↑"+strconv.Itoa(st.ahead))
	}
	if st.behind > 0 {
		s = append(s, "↓"+strconv.Itoa(st.behind))
	}
	return strings.Join(s, " ")
}
