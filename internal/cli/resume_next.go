package cli

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/session"
)

// nextTimeout is how long resume --next waits for the limited session's
// Claude to exit, as close's default.
const nextTimeout = 10 * time.Second

// runNext is resume --next: the conversation a usage limit stopped (ID, or
// the newest one), handed to the allowed account with the most headroom
// and continued there with the refused turn sent again. When its session
// still runs under a launcher, that launcher is asked to do it in its own
// terminal and its Claude is closed; else it continues here.
func (c *ResumeCmd) runNext(d *Deps) error {
	if c.Account != "" || c.Fork || c.Here {
		return UsageError{fmt.Errorf("--next picks the account and the worktree itself; drop --account, --fork and --here, or --next ('claude-account resume ID --account NAME' hands a conversation to an account you name)")}
	}
	if c.ID != "" && len(c.ID) < 8 {
		return UsageError{fmt.Errorf("%q is too short to name a conversation: give 8 or more characters of its id ('claude-account sessions --all' lists them)", c.ID)}
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
		return handInPlace(d, r, conv, target, why)
	}
	d.notef("%s", why)
	return c.launch(d, conv, target, &ref)
}

// atLimit is the conversation resume --next continues, and the turn its
// limit refused: the one c.ID names, which must end at a refused turn, or
// the newest of every account's that does.
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
	for _, conv := range all {
		if !conv.Verified || conv.Diverged {
			continue
		}
		if ref, ok := conversation.AtLimit(conv.Transcript); ok {
			return conv, ref, nil
		}
	}
	return conversation.Conversation{}, conversation.Refusal{}, fmt.Errorf("no conversation stopped at a usage limit in any account; 'claude-account sessions --all' lists them, and 'claude-account resume ID --account NAME' hands one to another account")
}

// nextAccount is the account resume --next hands conv to: of the accounts
// allowed in the directory it ran in (candidates, as run --account auto
// weighs them), the one with the most headroom other than its own; and the
// line that says which and why. No account with headroom is an error that
// names when the first resets.
func nextAccount(d *Deps, conv conversation.Conversation, ref conversation.Refusal) (string, string, error) {
	in := *d
	if fi, err := os.Stat(conv.Worktree); conv.Worktree != "" && err == nil && fi.IsDir() {
		in.Dir = conv.Worktree
	}
	cs, where, err := candidates(&in)
	if err != nil {
		return "", "", err
	}
	var others []candidate
	for _, c := range cs {
		if c.name != conv.Account {
			others = append(others, c)
		}
	}
	short := conv.ID[:8]
	if len(others) == 0 {
		return "", "", fmt.Errorf("conversation %s stopped at %s's limit, and no other account is %s; make one with 'claude-account init NAME' (and 'claude-account bind --also NAME' where the directory is bound)", short, conv.Account, where)
	}
	now := d.Now()
	best := roomiest(others, &in)
	if best.used.Busiest(now) >= 100 {
		first, who := time.Time{}, ""
		for _, c := range cs {
			if t, ok := c.used.FreeAt(now, 100); ok && (first.IsZero() || t.Before(first)) {
				first, who = t, c.name
			}
		}
		when := "none says when it resets"
		if who != "" {
			when = fmt.Sprintf("the first to reset is %s's, at %s", who, first.Local().Format("15:04"))
		}
		return "", "", fmt.Errorf("conversation %s stopped at %s's limit, and no account %s has headroom (%s); %s: run 'claude-account resume --next %s' then", short, conv.Account, where, figuresOf(cs, now), when, short)
	}
	why := fmt.Sprintf("conversation %s stopped at %s's limit (%s); %s", short, conv.Account, limitLine(ref), autoLine(best, cs, where, &in))
	return best.name, why, nil
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
// automatic continue).
func handInPlace(d *Deps, r session.Running, conv conversation.Conversation, target, why string) error {
	dir := lock.Dir(d.Env)
	if err := launch.RequestNext(dir, r, launch.Next{ID: conv.ID, Account: target, Why: why}); err != nil {
		return fmt.Errorf("cannot ask the session running conversation %s to hand it over: %v; check that %s is a private directory of yours", conv.ID[:8], err, session.StateDir(dir))
	}
	d.notef("%s", why)
	acct := r.Lock.Account
	if err := (&CloseCmd{Timeout: nextTimeout}).stop(d, []lock.Held{r.Lock}, acct, closeCommand(d.Env, acct, r.Lock.Workspace)); err != nil {
		launch.CancelNext(dir, r)
		return err
	}
	d.stdout().Linef("conversation %s continues on %s in the terminal it ran in", conv.ID, target)
	return nil
}

// continueNext is the launcher's part of resume --next: its Claude was
// closed so that the conversation continues on another account, here, in
// this terminal and the worktree it ran in.
func continueNext(d *Deps, n *launch.Next) error {
	d.notef("%s", n.Why)
	c := &ResumeCmd{ID: n.ID}
	conv, ref, err := c.atLimit(d)
	if err != nil {
		return err
	}
	return c.launch(d, conv, n.Account, &ref)
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
