package launch

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/fleet"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/ledger"
	"github.com/claude-account/claude-account/internal/worktree"
)

// Fleet runs one of Claude's fleet invocations (session.Invocation.Fleet:
// claude --bg, agents, attach, logs, stop, kill, rm, respawn, daemon) with
// the account dir as its config dir, from any worktree, the account dir or
// outside git, in the user's directory (the supervisor records it as the
// session's cwd). Claude keeps one supervisor per config dir, found by the
// dir's path (DESIGN.md fact 20): run so, the account has one fleet, which
// every worktree sees and acts on, as plain Claude with one config dir has.
//
// The account dir is prepared as a launch outside git prepares it (its
// settings and servers coalesced, under the account's lock, unless a session
// runs in it now: Command), and nothing of a session of the launcher's is
// done: no instance lock (the launcher exits a second after --bg, the
// session lives on in the supervisor), no hooks or token in --settings
// (Claude forwards them to the hosted session, whose hooks would then name a
// launcher that is gone), no worktree task list in the environment (the
// supervisor gives its own environment to every session it hosts), and no
// after-exit pass (it ran while the session had only begun). Before an
// invocation that starts a session, a supervisor that runs with another
// provider environment is restarted (renewSupervisor). FindClaude has run.
func (w *Workspace) Fleet(args []string, starts bool, io IO) (Status, error) {
	if err := w.Launchable(); err != nil {
		return Status{}, err
	}
	if starts {
		// A background session is billed like any other.
		if err := w.checkIdentity(args, io); err != nil {
			return Status{}, err
		}
	}
	w.toFleet()
	sigs := w.signals()
	defer func() { go sigs.Stop() }()
	_, busy, err := w.prepareCommand(io)
	if err != nil {
		return Status{}, err
	}
	w.warnRelease(io)
	if starts {
		// --resume ID --bg: the conversation goes where the account's
		// supervisor looks for it (its transcript is in the worktree's
		// runtime when it ran in the foreground), as a session's launch
		// brings it, and is refused while it runs elsewhere.
		if err := w.bring(args, io); err != nil {
			return Status{}, err
		}
		w.renewSupervisor(io)
	}
	st, err := Run(Spec{
		Path: w.Claude.Path, Args: args, Env: w.ClaudeEnv().List(), Dir: w.dir,
		Stdin: io.Stdin, Stdout: io.Stdout, Stderr: io.Stderr, Signals: sigs,
	})
	if err == nil && starts && !st.Stopped && st.Signal == 0 && st.Code == 0 {
		w.keepEphemeral(io)
	}
	if err == nil && starts && st.Code != 0 {
		w.trustHint(busy, io)
	}
	return st, err
}

// trustHint says, after Claude refused to start a background session, how
// the account comes to trust the repository when it may not yet: Claude's
// own message ("Workspace not trusted. Run `claude` in DIR once …") sends
// the user to plain claude, whose answer goes to ~/.claude.json, which the
// account never reads. The account dir is given a repository's trust when
// the account's ledger has it (configdir's Trusting), learned from the
// trust prompt answered in a session of the account; a session running in
// the account dir itself (outside git) holds its .claude.json, so nothing
// was written now.
func (w *Workspace) trustHint(busy bool, io IO) {
	if w.Context.Toplevel == "" {
		return
	}
	root := configdir.RepositoryRoot(w.Context)
	book, _ := ledger.Read(ledger.Path(w.Account.Dir))
	switch {
	case book == nil || !book.IsTrusted(root):
		io.Note(fmt.Sprintf("if Claude said the workspace is not trusted: the account %s has not trusted %s yet; run 'claude-account run --account %s' in it once and accept Claude's trust prompt (plain claude keeps its answer in ~/.claude.json, which the account does not read), then start the background session again",
			w.Account.Name, w.env.TildePath(root), w.Account.Name))
	case busy:
		io.Note(fmt.Sprintf("if Claude said the workspace is not trusted: the account %s trusts %s, but a session running outside git keeps the account dir's .claude.json, so its trust could not be put there now; start the background session again once that session ends",
			w.Account.Name, w.env.TildePath(root)))
	}
}

// toFleet makes the workspace's config dir the account dir (the layout
// outside git), the work tree's context kept for what is about the user's
// directory (an ephemeral worktree).
func (w *Workspace) toFleet() {
	w.fleet = true
	w.Layout = configdir.Layout{ConfigDir: w.Account.Dir}
	w.Unclean = 0
}

// renewSupervisor stops the account's supervisor, with Claude's own
// command, when it runs with another provider environment than this launch
// (fleet.ProviderDiff: another API address, login, proxy or certificates):
// it would give its old one to the session about to start (measured on
// 2.1.332: a --bg with another ANTHROPIC_BASE_URL went to the old address).
// --keep-workers stops the supervisor alone: the sessions it hosts run on,
// and the supervisor the next --bg starts adopts them (measured). Only Linux
// shows another process's environment (fleet.Environ); elsewhere the
// supervisor is left alone, and 'claude<name> daemon stop --any
// --keep-workers' is the user's way.
func (w *Workspace) renewSupervisor(io IO) {
	f := fleet.Read(w.Account.Dir, nil)
	if f.Supervisor == 0 {
		return
	}
	running, err := fleet.Environ(f.Supervisor)
	if err != nil {
		return
	}
	diff := fleet.ProviderDiff(running, w.ClaudeEnv())
	if len(diff) == 0 {
		return
	}
	io.Note(fmt.Sprintf("the account's background service (PID %d) runs with another %s than this launch; it is restarted with this one (claude daemon stop --any --keep-workers), and its sessions run on",
		f.Supervisor, strings.Join(diff, ", ")))
	var out bytes.Buffer
	st, err := Run(Spec{
		Path: w.Claude.Path, Args: []string{"daemon", "stop", "--any", "--keep-workers"}, Env: w.ClaudeEnv().List(), Dir: w.dir,
		Stdout: &out, Stderr: &out, Signals: w.signals(),
	})
	if err == nil && (st.Code != 0 || st.Signal != 0) {
		err = fmt.Errorf("%s", strings.Join(strings.Fields(out.String()), " "))
	}
	if err != nil {
		io.Note(fmt.Sprintf("the account's background service could not be stopped (%v), so this session gets its old environment; 'claude-account run --account %s -- daemon stop --any --keep-workers' stops it", err, w.Account.Name))
	}
}

// keepEphemeral says, after a background session started in an ephemeral
// worktree, that the worktree is kept: the session works there with the
// launcher gone. It stays marked ephemeral, so the pass after a later session
// there removes it once no session works in it (removeIfEphemeral).
func (w *Workspace) keepEphemeral(io IO) {
	if w.Context.Kind != gitctx.Linked {
		return
	}
	if m := worktree.ReadMeta(w.Context.GitDir); m == nil || !m.Ephemeral {
		return
	}
	why := "the background session started there works in it"
	if in := w.backgroundIn(w.Context.Toplevel); len(in) > 0 {
		why = "background session " + in[0].ID + " works in it"
	}
	io.Note(fmt.Sprintf("kept the ephemeral worktree %s: %s; it stays ephemeral, and is removed after a later session there once no session works in it", w.env.TildePath(w.Context.Toplevel), why))
}

// backgroundIn lists the background sessions that work in dir: those of the
// account dir's supervisor, and of this worktree's runtime (a session sent
// to the background with ← stays with the supervisor of the config dir it
// ran in).
func (w *Workspace) backgroundIn(dir string) []fleet.Agent {
	dirs := []string{w.Account.Dir}
	if rt := configdir.Locate(w.Account, w.Context, w.env); rt.IsRuntime {
		dirs = append(dirs, rt.ConfigDir)
	}
	var in []fleet.Agent
	for _, f := range fleet.ReadAll(dirs) {
		in = append(in, f.In(dir)...)
	}
	return in
}
