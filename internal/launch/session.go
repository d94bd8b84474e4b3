package launch

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/shell"
	"github.com/claude-account/claude-account/internal/worktree"
)

// Session runs one Claude session (interactive, or -p) in the workspace:
// the instance lock, the config dir brought in line with the account, Claude
// with the launcher's hooks, then the after-exit pass. FindClaude has run.
func (w *Workspace) Session(args []string, io IO) (Status, error) {
	if err := w.Launchable(); err != nil {
		return Status{}, err
	}
	if err := w.checkIdentity(args, io); err != nil {
		return Status{}, err
	}
	sigs := w.signals()
	// Stopped in the background: it costs a round trip between threads per
	// signal, and the launcher exits right after (Signals).
	defer func() { go sigs.Stop() }()
	// The lock comes before the plan: a plan made while another Claude
	// still ran would splice a .claude.json that Claude rewrites as it exits.
	held, err := w.Acquire()
	if err != nil {
		return Status{}, err
	}
	defer held.Release()
	w.started = time.Now().UnixNano()
	if err := w.prepareSession(held, io); err != nil {
		return Status{}, err
	}
	if err := w.bring(args, io); err != nil {
		return Status{}, err
	}
	stamp := configdir.Stamp(w.Layout)
	w.warn(io)

	id, token := sessionOf(held)
	// While Claude runs, its lock says the launcher is alive: after a crash,
	// the next launch takes what changed until then as this Claude's. The
	// heartbeat starts once Claude runs, so that nothing of it comes before.
	stopBeat := func() {}
	watch := &releaseWatch{w: w, cancel: func() {}}
	st, err := Run(Spec{
		Path: w.Claude.Path, Args: w.sessionArgs(id, token, w.withPluginDirs(args), io), Env: w.ClaudeEnv().With(SessionEnv, id).List(), Dir: w.dir,
		Stdin: io.Stdin, Stdout: io.Stdout, Stderr: io.Stderr, Signals: sigs,
		Started: func(pid int) { _ = held.SetClaudePID(pid); stopBeat = held.Heartbeat(); watch.start(pid) },
	})
	watch.stop()
	stopBeat()
	w.Next = takeNext(w.lockDir, id, token)
	w.Wrote = w.wrote()
	session.Forget(w.lockDir, id, token)
	held.Release()
	// Even when Claude did not start: the pass also records that the
	// launcher left the runtime alone.
	w.afterExit(stamp, err == nil && !st.Stopped, io)
	return st, err
}

// prepareSession plans and applies the config dir under the account's short
// lock (what the account's config dirs share is planned and written by one
// launch at a time), then restores the worktree's archived transcripts.
func (w *Workspace) prepareSession(held *lock.Lock, io IO) error {
	releaseShared, err := lock.Account(w.lockDir, w.Account.Name)
	if err != nil {
		return err
	}
	plan, err := configdir.MakePlan(w.Input())
	if err == nil && plan.SetsAside {
		// With several instances allowed, another Claude may hold a slot of
		// this runtime: it is never moved from under it.
		err = w.notInUse(held)
	}
	if err != nil {
		plan.Close()
		releaseShared()
		return err
	}
	// The plan maps Claude's state; it is unmapped before the session.
	defer plan.Close()
	for _, n := range w.Context.Notes {
		io.Note(n)
	}
	err = plan.Apply()
	if err == nil {
		w.knowMarketplaces(io)
	}
	releaseShared()
	if err != nil {
		return err
	}
	// Said once done: a failed launch changed nothing, so its error is all.
	for _, n := range plan.Notes {
		io.Note(n)
	}
	notes, err := worktree.RestoreTranscripts(w.Context, w.Account.Name, w.Account.Dir, w.Layout.ConfigDir, w.now())
	for _, n := range notes {
		io.Note(n)
	}
	if err != nil {
		io.Note(err.Error())
	}
	return nil
}

// sessionOf names a session by its instance lock: the lock's name, and a
// token of its holder (PID and start) that no later holder shares.
func sessionOf(held *lock.Lock) (id, token string) {
	h := held.Holder()
	return strings.TrimSuffix(filepath.Base(held.Path), ".lock"), session.Token(h.PID, h.Started.UnixNano())
}

// sessionArgs adds to Claude's arguments what the launcher gives a session
// for itself, as flag settings (session.Spec): the state hooks for 'ps', and
// the status line and worktree hooks that account.toml asks for. They name
// the launcher running now, so they follow the binary the user runs and go
// away with the option; the account's settings.json never holds them.
func (w *Workspace) sessionArgs(id, token string, args []string, io IO) []string {
	// Notifications are for a person waiting on the session: never for a
	// headless -p run or one whose terminal is not there (a script, a pipe).
	attended := io.Attended && !session.Classify(args, w.Claude).Print
	spec := session.Spec{Exe: Executable(), ID: id, Token: token, Claude: w.Claude, Notify: w.Account.Config.Notify && attended}
	if spec.Exe == "" {
		io.Note("the launcher cannot find its own path, so this session runs without its hooks ('ps' shows it as starting)")
		return args
	}
	a := w.Account
	records := a.RecordsUsage() && w.Claude.Has(claudever.RateLimitsInStatus)
	if a.Config.StatusLine || records {
		// Flag settings win over the account's: ours is shown only where
		// it has none, and the one that records usage runs the account's.
		data, _ := fsx.ReadFile(filepath.Join(a.Dir, "settings.json"))
		theirs := gjson.GetBytes(data, "statusLine")
		spec.StatusLine = a.Config.StatusLine && !theirs.Exists()
		// A project's own status line (.claude/settings*.json) wins over
		// the account's in Claude; the launcher's would hide it, and the
		// launcher never runs a command a repository names.
		if records && !projectStatusLine(w.projectDirs()) {
			spec.Usage = a.Dir
			if p := theirs.Get("padding"); p.Type == gjson.Number {
				spec.Padding = p.Raw
			}
		}
	}
	if a.Config.Worktree.UseHooks {
		if w.Claude.Has(claudever.WorktreeHooks) {
			// The hook runs inside Claude, where CLAUDE_ACCOUNT_DIR is not
			// set: name the account dir when it is not the default one.
			spec.WorktreeHooks = " --account " + a.Name
			if filepath.Base(a.Dir) != ".claude-"+a.Name {
				spec.WorktreeHooks += " --account-dir " + shell.Quote(a.Dir)
			}
		} else {
			io.Note("[worktree] use_hooks needs Claude Code " + claudever.WorktreeHooks.String() + " or later (this is " + w.Claude.Label() + "); claude --worktree makes its own worktrees")
		}
	}
	out, err := session.WithSettings(args, spec.JSON(), w.dir)
	if err != nil {
		io.Note(err.Error() + "; Claude runs with your --settings as given, without the launcher's hooks")
		return args
	}
	return out
}

// projectDirs are where a project's .claude/settings.json may be read from:
// the directory Claude starts in (Claude reads the project settings there),
// and each directory above it up to the work tree's top, which releases and
// setups differ on; outside a work tree, the start directory alone.
func (w *Workspace) projectDirs() []string {
	dirs := []string{w.dir}
	top := w.Context.Toplevel
	for d := w.dir; top != "" && d != top && strings.HasPrefix(d, top+"/"); {
		d = filepath.Dir(d)
		dirs = append(dirs, d)
	}
	return dirs
}

// projectStatusLine reports whether a project's settings in any of dirs may
// name a status line: one that says so, or one the launcher cannot read as a
// plain file (a link, a FIFO, a huge file), which it does not follow to find
// out. Erring this way only costs a session's figures; the other way would
// hide the project's line.
func projectStatusLine(dirs []string) bool {
	for _, root := range dirs {
		for _, name := range []string{"settings.json", "settings.local.json"} {
			p := filepath.Join(root, ".claude", name)
			st, err := os.Lstat(p)
			if err != nil {
				continue
			}
			if !st.Mode().IsRegular() || st.Size() > 1<<20 {
				return true
			}
			data, err := fsx.ReadFile(p)
			if err != nil || gjson.GetBytes(data, "statusLine").Exists() {
				return true
			}
		}
	}
	return false
}

// wrote is the session id of the transcript this session's Claude wrote
// last: the newest <id>.jsonl under the key of the directory it started in
// changed since the launcher took the lock (a side chain's agent-*.jsonl is
// no conversation of its own). "" when none.
func (w *Workspace) wrote() string {
	dir := filepath.Join(w.Layout.ConfigDir, "projects", conversation.KeyFor(w.dir, w.Claude))
	des, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	best, newest := "", w.started
	for _, de := range des {
		id, ok := strings.CutSuffix(de.Name(), ".jsonl")
		if !ok || !de.Type().IsRegular() || !IsSessionID(id) {
			continue
		}
		if fi, err := de.Info(); err == nil && fi.ModTime().UnixNano() >= newest {
			best, newest = id, fi.ModTime().UnixNano()
		}
	}
	return best
}
