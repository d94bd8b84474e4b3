package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/session"
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
	return out, where, nil
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
		s := orUnknown(c.used.Short(d.Now()))
		if c.busyHere {
			s += ", runs here already"
		}
		return s
	}
	if len(cs) == 1 {
		return fmt.Sprintf("using %s, the one account %s (%s)", best.name, where, figures(best))
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
	return fmt.Sprintf("using %s, of the accounts %s %s (%s; %s)",
		best.name, where, why, figures(best), strings.Join(others, "; "))
}

// suggestRoom says, when the account about to run is past usage.Busy of a
// window, which allowed account has headroom, with the command; it never
// switches.
func suggestRoom(d *Deps, name, dir string) {
	used, err := usage.Read(dir, d.Now())
	if err != nil || used.Busiest(d.Now()) < usage.Busy {
		return
	}
	cs, _, err := candidates(d)
	if err != nil || len(cs) == 0 {
		return
	}
	best := roomiest(cs, d)
	if best.name == name || best.used.Busiest(d.Now()) >= usage.Busy {
		return
	}
	d.notef("%s is at %s; %s has headroom (%s): claude-account run --account %s", name, used.Short(d.Now()),
		best.name, orUnknown(best.used.Short(d.Now())), best.name)
}

func orUnknown(s string) string {
	if s == "" {
		return "usage unknown"
	}
	return s
}
