package cli

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/shell"
	"github.com/claude-account/claude-account/internal/statusline"
	"github.com/claude-account/claude-account/internal/usage"
)

// Auto is the account name that asks for the account with the most
// headroom: run --account auto.
const Auto = "auto"

// candidate is an account weighed for headroom.
type candidate struct {
	name string
	used usage.Usage
	// busyHere: a session of it runs in this workspace already, so a
	// launch there would be refused (one instance per account and
	// workspace).
	busyHere bool
}

// candidates are the accounts allowed in the working directory: those bound
// to it (a directory may be bound to several), else every account found.
func candidates(d *Deps) ([]candidate, string, error) {
	var names []string
	where := "found"
	b, ok, err := lookupBinding(d.Env, d.Dir)
	if err != nil {
		return nil, "", err
	}
	if ok {
		if names, err = binding.Accounts(d.Env, b); err != nil {
			return nil, "", err
		}
		where = "bound to " + d.Env.TildePath(binding.Expand(d.Env, b.Dir))
	} else {
		names = binding.KnownAccounts(d.Env)
	}
	return weigh(d, names), where, nil
}

// weigh is each of names as a candidate: its usage, and whether a session
// of it runs in this workspace.
func weigh(d *Deps, names []string) []candidate {
	here := ""
	if ctx, err := gitctx.Detect(d.Dir, d.Env.Get); err == nil {
		here = ctx.Toplevel
	}
	running, _ := session.List(lock.Dir(d.Env))
	out := make([]candidate, 0, len(names))
	for _, n := range names {
		c := candidate{name: n}
		for _, r := range running {
			c.busyHere = c.busyHere || r.Lock.Account == n && r.Lock.Workspace == here
		}
		if dir, err := binding.AccountDir(d.Env, n); err == nil {
			c.used, _ = usage.Read(dir, d.Now())
		}
		out = append(out, c)
	}
	return out
}

// roomiest is the candidate with the most headroom: one that could start
// here before one whose session runs here already, one below usage.Busy in
// both windows before one past it (a used-up week is no headroom, whatever
// the five hours say), then the five-hour window decides, then the weekly
// one; on a tie, the earlier (a binding's own account, or the first by name).
func roomiest(cs []candidate, d *Deps) candidate {
	now := d.Now()
	rank := func(c candidate) [4]float64 {
		f, s := c.used.Headroom(now)
		return [4]float64{b2f(!c.busyHere), b2f(c.used.Busiest(now) < usage.Busy), f, s}
	}
	best, br := cs[0], rank(cs[0])
	for _, c := range cs[1:] {
		if r := rank(c); slices.Compare(r[:], br[:]) > 0 {
			best, br = c, r
		}
	}
	return best
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// pickAuto chooses among the allowed accounts the one with the most
// headroom and, when say, says in one line which and why (run does; a
// command that only looks, such as status, does not).
func pickAuto(d *Deps, say bool) (string, error) {
	cs, where, err := candidates(d)
	if err != nil {
		return "", err
	}
	if len(cs) == 0 {
		found := "no account"
		if _, skipped := binding.FindAccounts(d.Env); len(skipped) > 0 {
			dirs := make([]string, len(skipped))
			for i, s := range skipped {
				dirs[i] = d.Env.TildePath(s.Dir)
			}
			found += " (" + strings.Join(dirs, ", ") + " skipped: no account; 'claude-account accounts' says why)"
		}
		return "", fmt.Errorf("--account auto found %s; make one with 'claude-account init NAME'", found)
	}
	best := roomiest(cs, d)
	if say {
		d.notef("%s", autoLine(best, cs, where, d))
	}
	return best.name, nil
}

// autoLine is the one line that says which account was picked and why:
// its figures, and the others'.
func autoLine(best candidate, cs []candidate, where string, d *Deps) string {
	figures := func(c candidate) string {
		s := c.used.Brief(d.Now())
		if c.busyHere {
			s += ", runs here already"
		}
		return s
	}
	tail := ""
	if best.used.Busiest(d.Now()) >= usage.Busy {
		if r, err := findRoom(d, ""); err == nil {
			tail = "; " + r.none(d)
		}
	}
	if len(cs) == 1 {
		return fmt.Sprintf("using %s, the one account %s (%s)%s", best.name, where, figures(best), tail)
	}
	var others []string
	for _, c := range cs {
		if c.name != best.name {
			others = append(others, c.name+": "+figures(c))
		}
	}
	why := "the one with the most headroom"
	if best.busyHere {
		why = "each runs here already; the one with the most headroom"
	}
	return fmt.Sprintf("using %s, of the accounts %s %s (%s; %s)%s",
		best.name, where, why, figures(best), strings.Join(others, "; "), tail)
}

// room is the headroom beside an account, in the working directory.
type room struct {
	name string // the account weighed
	// best is the allowed account other than the one weighed with the most
	// headroom; has says it is below usage.Busy in both windows.
	best candidate
	has  bool
	// first is, when none has, the allowed account (the one weighed too)
	// whose windows past usage.Busy reset first, and when; "" when no such
	// reset time is known.
	first   string
	firstAt time.Time
	// outside is, when the directory is bound to one account only, the
	// account not bound to it with the most headroom ("" when none has),
	// and bound the bound directory, for 'bind ACCOUNT DIR --also'.
	outside candidate
	bound   string
}

// findRoom weighs the accounts allowed in the working directory beside
// name.
func findRoom(d *Deps, name string) (room, error) {
	r := room{name: name}
	cs, _, err := candidates(d)
	if err != nil {
		return r, err
	}
	now := d.Now()
	var others []candidate
	for _, c := range cs {
		if c.name != name {
			others = append(others, c)
		}
		if at, ok := c.used.FreeAt(now, usage.Busy); ok && (r.firstAt.IsZero() || at.Before(r.firstAt)) {
			r.first, r.firstAt = c.name, at
		}
	}
	if len(others) > 0 {
		r.best = roomiest(others, d)
		r.has = r.best.used.Busiest(now) < usage.Busy
	}
	if r.has {
		r.first, r.firstAt = "", time.Time{}
	}
	if b, ok, err := lookupBinding(d.Env, d.Dir); err == nil && ok {
		if bound, err := binding.Accounts(d.Env, b); err == nil && len(bound) == 1 {
			var rest []string
			for _, n := range binding.KnownAccounts(d.Env) {
				if n != bound[0] && n != name {
					rest = append(rest, n)
				}
			}
			if len(rest) > 0 {
				if o := roomiest(weigh(d, rest), d); o.used.Busiest(now) < usage.Busy {
					r.outside, r.bound = o, binding.Expand(d.Env, b.Dir)
				}
			}
		}
	}
	return r, nil
}

// none is what to say when no allowed account has headroom: when the first
// resets, and the account bind --also would allow.
func (r room) none(d *Deps) string {
	s := "no other account allowed here has headroom"
	if r.name == "" {
		s = "no account allowed here has headroom"
	}
	if r.first != "" && r.first != r.name {
		s += "; the first to reset is " + r.first + ", at " + usage.Clock(r.firstAt.Local(), d.Now().Local())
	}
	if r.outside.name != "" {
		s += fmt.Sprintf("; %s has headroom (%s) but is not bound to %s: claude-account bind %s %s --also",
			r.outside.name, r.outside.used.Brief(d.Now()), d.Env.TildePath(r.bound), shell.Quote(r.outside.name), d.Env.ShellPath(r.bound))
	}
	return s
}

// suggestRoom says, when the account about to run (or, after, that ran) is
// past usage.Busy of a window, which allowed account has headroom, with the
// command that runs it as the user ran this one (command); or that none
// has, when the first resets, and which account bind --also would allow.
// It never switches. after: Claude has exited (its full screen erased the
// line said before it), and at a limit the conversation (id, "" when none
// was written) can be carried on.
func suggestRoom(d *Deps, name, dir string, command func(account string) string, after bool, id string) {
	now := d.Now()
	used, err := usage.Read(dir, now)
	if err != nil || used.Busiest(now) < usage.Busy {
		return
	}
	r, err := findRoom(d, name)
	if err != nil {
		return
	}
	s := name + " is at " + used.Resets(now) + "; "
	if !r.has {
		d.notef("%s%s", s, r.none(d))
		return
	}
	s += fmt.Sprintf("%s has headroom (%s): %s", r.best.name, r.best.used.Brief(now), command(r.best.name))
	if after && used.Limited(now) {
		s += "; to carry the conversation on there: " + statusline.NextFor(id)
	}
	d.notef("%s", s)
}

// suggestion is the command that runs as c does with another account: the
// user's worktree, --ephemeral and Claude's arguments kept, each quoted for
// a POSIX shell.
func (c *RunCmd) suggestion(args []string) func(account string) string {
	return func(account string) string {
		words := []string{"claude-account", "run", "--account", shell.Quote(account)}
		if c.Worktree != "" {
			words = append(words, "--worktree", shell.Quote(c.Worktree))
		}
		if c.Ephemeral {
			words = append(words, "--ephemeral")
		}
		if len(args) > 0 {
			words = append(words, "--", shell.Join(args))
		}
		return strings.Join(words, " ")
	}
}
