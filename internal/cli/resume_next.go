package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/claude-account/claude-account/internal/claudeproc"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/usage"
)

// nextTimeout is how long resume --next waits for the limited session's
// Claude to exit, as close's default.
const nextTimeout = 10 * time.Second

// runNext is resume --next: the conversation a usage limit stopped (ID; the
// conversation of the session it is typed in; or the one conversation at a
// limit), handed to the allowed account with headroom and continued there
// with the refused turn sent again. When its session still runs under a
// launcher, that launcher is asked to do it in its own terminal and its
// Claude is closed; else it continues here.
func (c *ResumeCmd) runNext(d *Deps) error {
	if strings.HasPrefix(c.ID, "-") {
		// 'resume --next -- --model opus': kong fills the optional ID with
		// the first of Claude's arguments; an ID never starts with '-'.
		c.Args = append([]string{c.ID}, c.Args...)
		c.ID = ""
	}
	if c.Account != "" || c.Fork || c.Here {
		return UsageError{fmt.Errorf("--next picks the account and the worktree itself; drop --account, --fork and --here, or --next ('claude-account resume ID --account NAME' hands a conversation to an account you name)")}
	}
	if c.ID != "" && len(c.ID) < 8 {
		return UsageError{fmt.Errorf("%q is too short to name a conversation: give 8 or more characters of its id ('claude-account sessions --all' lists them)", c.ID)}
	}
	if own, ok := ownSession(d); ok && c.ID == "" {
		// Typed inside a launcher's Claude ('! claude-account resume
		// --next'): that session's conversation, not the newest anywhere.
		c.ID = own.State.SessionID
	}
	conv, ref, err := c.atLimit(d)
	if err != nil {
		return err
	}
	target, why, err := nextAccount(d, conv, ref)
	if err != nil {
		return err
	}
	if r, ok := runningConversation(d, conv.ID); ok {
		return c.handInPlace(d, r, conv, ref, target, why)
	}
	d.notef("%s", why)
	resendNotes(d, ref)
	return c.launch(d, conv, target, &ref)
}

// ownSession is the launcher's session whose Claude this command runs
// under, as launch.SessionEnv names it: only when the private lock dir
// holds that session, its hooks reported its conversation, and its Claude
// is an ancestor of this process (the variable alone proves nothing).
func ownSession(d *Deps) (session.Running, bool) {
	id := d.Env.Get(launch.SessionEnv)
	if id == "" || session.ValidID(id) != nil {
		return session.Running{}, false
	}
	running, err := session.List(lock.Dir(d.Env))
	if err != nil {
		return session.Running{}, false
	}
	for _, r := range running {
		if r.ID == id && r.State != nil && launch.IsSessionID(r.State.SessionID) && r.Lock.ClaudePID > 1 &&
			claudeproc.Current().Encloses(r.Lock.ClaudePID) {
			return r, true
		}
	}
	return session.Running{}, false
}

// atLimit is the conversation resume --next continues, and the turn its
// limit refused: the one c.ID names, which must end at a refused turn, or
// with no ID the one conversation of every account's that does; several
// are refused, listed, for the user to name one.
func (c *ResumeCmd) atLimit(d *Deps) (conversation.Conversation, conversation.Refusal, error) {
	accts, err := accountsToSearch(d, "", "")
	if err != nil {
		return conversation.Conversation{}, conversation.Refusal{}, err
	}
	all := conversation.Find(accts)
	if c.ID != "" {
		conv, err := conversation.Pick(all, c.ID, c.Copy)
		if err != nil {
			return conv, conversation.Refusal{}, err
		}
		ref, ok := conversation.AtLimit(conv.Transcript)
		if !ok {
			return conv, ref, fmt.Errorf("conversation %s did not stop at a usage limit (its last turn was answered, or the user went on); 'claude-account resume %s --account NAME' hands it to another account", conv.ID, conv.ID[:8])
		}
		if !conv.Verified && !c.Unverified {
			return conv, ref, fmt.Errorf("conversation %s is in %s: %s; read it first, then resume it with --unverified", conv.ID, conv.Transcript, conv.Why)
		}
		return conv, ref, nil
	}
	// Find lists the newest first; only copies the launcher vouches for,
	// and only a conversation with one history.
	var found []conversation.Conversation
	var refs []conversation.Refusal
	for _, conv := range all {
		if !conv.Verified || conv.Diverged {
			continue
		}
		if ref, ok := conversation.AtLimit(conv.Transcript); ok {
			found, refs = append(found, conv), append(refs, ref)
		}
	}
	switch len(found) {
	case 0:
		return conversation.Conversation{}, conversation.Refusal{}, fmt.Errorf("no conversation stopped at a usage limit in any account; 'claude-account sessions --all' lists them, and 'claude-account resume ID --account NAME' hands one to another account")
	case 1:
		return found[0], refs[0], nil
	}
	for _, f := range found {
		where := "outside git"
		if f.Worktree != "" {
			where = filepath.Base(f.Worktree)
		}
		d.stderr().Linef("  %s  %-8s %-12s %s  %s", f.ID[:8], f.Account, where, f.Updated.Local().Format("2006-01-02 15:04"), d.Env.TildePath(f.Worktree))
	}
	return conversation.Conversation{}, conversation.Refusal{}, fmt.Errorf("%d conversations stopped at a usage limit (above); name one: claude-account resume --next ID", len(found))
}

// nextAccount is the account resume --next hands conv to: of the accounts
// allowed where it ran, the one findRoom finds with headroom (below
// usage.Busy, as the status line, the notification and run's line say), and
// the line that says which and why. None with headroom is an error that
// says when the first resets; one that runs in the conversation's worktree
// already is an error that names that session and its close.
func nextAccount(d *Deps, conv conversation.Conversation, ref conversation.Refusal) (string, string, error) {
	in := *d
	if fi, err := os.Stat(conv.Worktree); conv.Worktree != "" && err == nil && fi.IsDir() {
		in.Dir = conv.Worktree
	}
	cs, where, err := candidates(&in)
	if err != nil {
		return "", "", err
	}
	r, err := findRoom(&in, conv.Account)
	if err != nil {
		return "", "", err
	}
	short := conv.ID[:8]
	if r.best.name == "" {
		return "", "", fmt.Errorf("conversation %s stopped at %s's limit, and no other account is %s; make one with 'claude-account init NAME' (and 'claude-account bind --also NAME' where the directory is bound)", short, conv.Account, where)
	}
	now := d.Now()
	if !r.has {
		none := r.none(&in)
		if r.first != "" && r.first == conv.Account {
			// none leaves the weighed account's own reset to its caller.
			none += "; the first to reset is " + r.first + ", at " + usage.Clock(r.firstAt.Local(), now.Local())
		}
		return "", "", fmt.Errorf("conversation %s stopped at %s's limit, and %s (%s); run 'claude-account resume --next %s' then", short, conv.Account, none, figuresOf(cs, now), short)
	}
	if r.best.busyHere {
		return "", "", busyError(&in, conv, r.best.name)
	}
	why := fmt.Sprintf("conversation %s stopped at %s's limit (%s); %s", short, conv.Account, limitLine(ref), autoLine(r.best, cs, where, &in))
	return r.best.name, why, nil
}

// busyError says that account, the one with headroom, runs in conv's
// worktree already (one instance per account and worktree), which
// conversation it runs, and the close that frees it.
func busyError(d *Deps, conv conversation.Conversation, account string) error {
	top := ""
	if ctx, err := gitctx.Detect(d.Dir, d.Env.Get); err == nil {
		top = ctx.Toplevel
	}
	running := ""
	if all, err := session.List(lock.Dir(d.Env)); err == nil {
		for _, r := range all {
			if r.Lock.Account == account && r.Lock.Workspace == top && r.State != nil && len(r.State.SessionID) >= 8 {
				running = " (conversation " + r.State.SessionID[:8] + ")"
			}
		}
	}
	where := "outside git"
	if top != "" {
		where = "in " + d.Env.TildePath(top)
	}
	return fmt.Errorf("conversation %s stopped at %s's limit, and %s, the account with headroom, already runs %s%s; close it first (%s), then run 'claude-account resume --next %s' again",
		conv.ID[:8], conv.Account, account, where, running, closeCommand(d.Env, account, top), conv.ID[:8])
}

// limitLine is Claude's own line on the refusal, or a plain one.
func limitLine(ref conversation.Refusal) string {
	if m := strings.TrimSpace(ref.Message); m != "" && len(m) < 200 && !strings.ContainsAny(m, "\n\r\x1b") {
		return m
	}
	return "a usage limit"
}

// figuresOf is each account's figures, for a line: never a guess
// (usage.Brief says since when old or unknown ones were reported).
func figuresOf(cs []candidate, now time.Time) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.name+": "+c.used.Brief(now))
	}
	return strings.Join(parts, "; ")
}

// runningConversation is the launcher's session that runs conversation id
// now, by what its hooks reported.
func runningConversation(d *Deps, id string) (session.Running, bool) {
	running, err := session.List(lock.Dir(d.Env))
	if err != nil {
		return session.Running{}, false
	}
	for _, r := range running {
		if r.State != nil && r.State.SessionID == id && r.Lock.PID > 0 && r.Lock.PID != os.Getpid() {
			return r, true
		}
	}
	return session.Running{}, false
}

// handInPlace asks the launcher of r to continue conv on target in its own
// terminal once its Claude exits (launch.RequestNext), then closes that
// Claude as 'claude-account close' does. The limited Claude is gone then,
// so it cannot continue the conversation again at its reset (2.1.234's
// automatic continue). What the launch there would refuse (the login, no
// Claude) is checked first: nothing is closed for a handoff that cannot
// start. Success is said only once that launcher took the request.
func (c *ResumeCmd) handInPlace(d *Deps, r session.Running, conv conversation.Conversation, ref conversation.Refusal, target, why string) error {
	if err := c.canLaunch(d, conv, target); err != nil {
		return err
	}
	dir := lock.Dir(d.Env)
	args := c.Args
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if err := launch.RequestNext(dir, r, launch.Next{ID: conv.ID, Account: target, Why: why, Args: args}); err != nil {
		return fmt.Errorf("cannot ask the session running conversation %s to hand it over: %v; check that %s is a private directory of yours", conv.ID[:8], err, session.StateDir(dir))
	}
	d.notef("%s", why)
	acct := r.Lock.Account
	if err := (&CloseCmd{Timeout: nextTimeout}).stop(d, []lock.Held{r.Lock}, acct, closeCommand(d.Env, acct, r.Lock.Workspace)); err != nil {
		launch.CancelNext(dir, r)
		return err
	}
	if launch.NextPending(dir, r) {
		// Its launcher ended without taking it (an older claude-account,
		// or it died): the conversation goes on nowhere yet.
		launch.CancelNext(dir, r)
		return fmt.Errorf("the session of conversation %s ended, but its launcher did not take the handoff; continue it here: claude-account resume --next %s", conv.ID[:8], conv.ID[:8])
	}
	resendNotes(d, ref)
	d.stdout().Linef("conversation %s continues on %s in the terminal it ran in", conv.ID, target)
	return nil
}

// canLaunch checks what the launch of target in conv's worktree would
// refuse, before anything is closed for it: the account loads there, its
// Claude is found, its login is the one it declares.
func (c *ResumeCmd) canLaunch(d *Deps, conv conversation.Conversation, target string) error {
	in := *d
	if fi, err := os.Stat(conv.Worktree); conv.Worktree != "" && err == nil && fi.IsDir() {
		in.Dir = conv.Worktree
	}
	ws, err := (&AccountFlags{Account: target}).load(&in)
	if err != nil {
		return err
	}
	if _, err := ws.FindClaude(); err != nil {
		return err
	}
	return c.identityFirst(&in, target, conv)
}

// resendNotes says what of the refused turn is not sent again: nothing
// when the limit came mid-turn (the refused entry is a tool's result, or
// the transcript's tail does not hold it), and the images or files of a
// prompt, whose text alone is sent.
func resendNotes(d *Deps, ref conversation.Refusal) {
	switch {
	case ref.Prompt == "":
		d.notef("nothing of the refused turn is sent again (the limit came in the middle of a turn, or its prompt is too far back in the transcript to read): type your next prompt, or 'continue'")
	case ref.Dropped > 0:
		d.notef("the refused prompt held %d image(s) or file(s): only its text is sent again; attach them again if Claude needs them", ref.Dropped)
	}
}

// continueNext is the launcher's part of resume --next: its Claude was
// closed so that the conversation continues on another account, here, in
// this terminal and the worktree it ran in, with the Claude arguments the
// session ran with (args: those that carry over, session.Carried) and the
// request's. A failure says so with the one command that retries.
func continueNext(d *Deps, n *launch.Next, args []string) error {
	d.notef("%s", n.Why)
	kept, dropped := session.Carried(args)
	var lost []string
	for _, a := range dropped {
		if strings.HasPrefix(a, "-") && a != "--" && !slices.Contains([]string{"-r", "--resume", "-c", "--continue"}, a) {
			lost = append(lost, a)
		}
	}
	if len(lost) > 0 {
		d.notef("not carried to %s: %s", n.Account, strings.Join(lost, " "))
	}
	c := &ResumeCmd{ID: n.ID, Args: append(kept, n.Args...)}
	conv, ref, err := c.atLimit(d)
	if err == nil {
		resendNotes(d, ref)
		err = c.launch(d, conv, n.Account, &ref)
	}
	var code ExitCodeError
	var sig SignalError
	if err != nil && !errors.As(err, &code) && !errors.As(err, &sig) {
		return fmt.Errorf("%v; the conversation was not handed to %s: retry with 'claude-account resume --next %s'", err, n.Account, n.ID[:8])
	}
	return err
}

// promptArg is a prompt as Claude's positional argument: one that begins
// with "-" would be taken for a flag, so it gets a space before it.
func promptArg(p string) string {
	if strings.HasPrefix(p, "-") {
		return " " + p
	}
	return p
}

// exitHint follows Claude's own "Resume this session with: claude --resume
// <id>", which fails under the launcher from another directory (that Claude
// looks in its own config dir only), with the launcher's equivalent: only
// when Claude printed its hint, an interactive session of a release that
// prints it (claudever.ExitResumeHint) that wrote a transcript.
func exitHint(d *Deps, ws *launch.Workspace, inv session.Invocation, st launch.Status, err error) {
	if err != nil || st.Stopped || inv.Print || ws.Wrote == "" || !ws.Claude.Has(claudever.ExitResumeHint) || !terminal(d.Stdin) {
		return
	}
	if f, ok := d.Stdout.(*os.File); !ok || !terminal(f) {
		return
	}
	d.notef("resume this session from anywhere with: claude-account resume %s", ws.Wrote)
}
