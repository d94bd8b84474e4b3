package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/fleet"
	"github.com/claude-account/claude-account/internal/launch"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/statusline"
	"github.com/claude-account/claude-account/internal/usage"
)

// order is where ps and jump --waiting put a session: by why it is in its
// state (session.Rank: limit, permission, question, failed, ended, started,
// working), except that a background session that is done or failed waits
// for nobody and goes last.
func order(in session.Info) int {
	if in.Kind == session.Background && (in.State == fleet.Done || in.State == fleet.Failed) {
		return len(session.Reasons) + 1
	}
	return session.Rank(in.Reason)
}

// waits reports whether session in waits for its user: a foreground one
// that stopped, a background one that needs input.
func waits(in session.Info) bool {
	return in.State == session.Waiting || in.State == fleet.NeedsInput
}

// explain fills in what a person reads of why each session is in its state
// (ReasonText) and, at a limit, when the limit resets (ResetsAt): from the
// account's figures (a window at 100%), else from Claude's own line.
func explain(d *Deps, infos []session.Info) {
	used := map[string]*usage.Usage{}
	for i := range infos {
		in := &infos[i]
		switch {
		case in.Kind == session.Background:
			in.ReasonText = in.State // Claude's own word for it: needs input, done …
		case in.State == session.Starting:
			in.ReasonText = "starting" // Claude has not reported yet
		case in.Reason == session.Limit:
			u, ok := used[in.Account]
			if !ok {
				u = &usage.Usage{}
				if dir, err := binding.AccountDir(d.Env, in.Account); err == nil {
					*u, _ = usage.Read(dir, d.Now())
				}
				used[in.Account] = u
			}
			_, at, resets := limitWords(*u, in.Message, d.Now())
			if !at.IsZero() {
				at := at
				in.ResetsAt = &at
			}
			in.ReasonText = "limit"
			if resets != "" {
				in.ReasonText += ", resets " + resets
			}
		default:
			in.ReasonText = session.Text(in.Reason)
		}
	}
}

// limitWords says which limit an account is at and when it resets: from its
// figures (u) when a window is at 100% and has not reset ("5-hour",
// its reset time, "17:01"), else from Claude's line at the limit (msg,
// "You've hit your 5-hour limit · resets 5:01pm (UTC)"), whose words are
// shown as Claude printed them; "" for what neither says.
func limitWords(u usage.Usage, msg string, now time.Time) (name string, at time.Time, resets string) {
	for _, w := range []struct {
		name string
		w    *usage.Window
	}{{"5-hour", u.FiveHour}, {"weekly", u.SevenDay}} {
		// Both full: it runs again when the later resets.
		if w.w.Used(now) >= 100 && !w.w.ResetsAt.IsZero() && w.w.ResetsAt.After(at) {
			name, at = w.name, w.w.ResetsAt
		}
	}
	if !at.IsZero() {
		return name, at, usage.Clock(at.Local(), now.Local())
	}
	name, resets = session.LimitWords(msg)
	return name, time.Time{}, resets
}

// limitNotice is what the notification of a session at a limit says: the
// account and its limit ("max is at its 5-hour limit, resets 17:01."), then
// the allowed account with the most headroom for the session's directory
// (d.Dir) and the one command that carries the conversation there, or that
// no other has any, and when the first resets.
func limitNotice(d *Deps, acct, msg, id string) []string {
	now := d.Now()
	var own usage.Usage
	if dir, err := binding.AccountDir(d.Env, acct); err == nil {
		own, _ = usage.Read(dir, now)
	}
	name, _, resets := limitWords(own, msg, now)
	line := acct + " is at its limit"
	if name != "" {
		line = acct + " is at its " + name + " limit"
	}
	if resets != "" {
		line += ", resets " + resets
	}
	lines := []string{line + "."}
	// Who has room is findRoom's to decide, as for the status line's row
	// and the launch's line: the three never disagree.
	r, err := findRoom(d, acct)
	if err != nil {
		return lines
	}
	if r.has {
		return append(lines, fmt.Sprintf("%s has headroom (%s): %s", r.best.name, r.best.used.Brief(now), statusline.NextFor(id)))
	}
	none := "No other account has headroom"
	if r.best.name == "" {
		none = "No other account may run here"
	}
	switch {
	case r.first != "":
		return append(lines, fmt.Sprintf("%s; the first to reset is %s, at %s.", none, r.first, usage.Clock(r.firstAt.Local(), now.Local())))
	case resets != "":
		return append(lines, fmt.Sprintf("%s; %s resets %s.", none, acct, resets))
	}
	return append(lines, none+".")
}

// notifyLines is the body of the notification that session s waits: why,
// and for a limit the account's way on (limitNotice).
func notifyLines(d *Deps, acct string, s *session.State) []string {
	if s.Reason == session.Limit {
		id := ""
		if launch.IsSessionID(s.SessionID) {
			id = s.SessionID
		}
		return limitNotice(d, acct, s.Message, id)
	}
	return []string{strings.TrimSpace(session.Sentence(s.Reason))}
}
