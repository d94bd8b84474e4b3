package usage

import (
	"strings"
	"time"

	"github.com/claude-account/claude-account/internal/jsonx"
)

// Freshness says whether an account's figures can still describe its
// windows.
type Freshness int

// The three states of Freshness, as accounts --json and ps --json name them
// (usage.state).
const (
	// Unknown: no session reported any figure (or none that is Believable).
	Unknown Freshness = iota
	// Old: the figures are a past window's (see Freshness).
	Old
	// Current: the figures are the last word on the account's windows.
	Current
)

func (f Freshness) String() string {
	return [...]string{"unknown", "old", "current"}[f]
}

// Freshness is how far u can be believed at now. Figures are Old once the
// five-hour window they report has reset, or, without a reset time, once
// they are FiveHours old: the share of a window that ended says nothing of
// the one that runs now, which sessions on other machines and claude.ai use
// too, and only an interactive session of this launcher reports again (-p
// runs show no status line, so they report nothing). A weekly figure alone
// ages by the same FiveHours: a week's share moves in hours, not days.
func (u Usage) Freshness(now time.Time) Freshness {
	switch {
	case !u.Known():
		return Unknown
	case u.FiveHour != nil && !u.FiveHour.ResetsAt.IsZero() && !now.Before(u.FiveHour.ResetsAt):
		return Old
	case u.UpdatedAt.IsZero() || now.Sub(u.UpdatedAt) >= FiveHours:
		return Old
	}
	return Current
}

// Silence is since when no session reported, for a usage that is not
// Current: "no interactive session has reported since 10:05" (or "ever").
func (u Usage) Silence(now time.Time) string {
	if u.UpdatedAt.IsZero() {
		return "no interactive session has reported ever"
	}
	return "no interactive session has reported since " + Clock(u.UpdatedAt.Local(), now.Local())
}

// Brief is Short for a line about several accounts (run --account auto):
// the figures while Current, else "usage unknown, " and since when no
// session reported. Never a guess.
func (u Usage) Brief(now time.Time) string {
	if u.Freshness(now) == Current {
		return u.Short(now)
	}
	return "usage unknown, " + u.Silence(now)
}

// Resets is the figures with the reset time of each window yet to reset:
// "5h 42% (resets 14:05) · 7d 13% (resets Nov 30 09:00)".
func (u Usage) Resets(now time.Time) string {
	var parts []string
	for _, p := range u.named() {
		part := p.name + " " + percent(p.w.Used(now))
		if r := p.w.ResetsAt; !r.IsZero() && now.Before(r) {
			part += " (resets " + Clock(r.Local(), now.Local()) + ")"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, " · ")
}

// Limited reports whether a window is used up at now (100%).
func (u Usage) Limited(now time.Time) bool { return u.Busiest(now) >= 100 }

// FreeAt is when every window at or past share at now has reset: the
// latest of their resets. ok is false when none is past share (free now),
// or one past it has no reset time (unknown).
func (u Usage) FreeAt(now time.Time, share float64) (at time.Time, ok bool) {
	for _, p := range u.named() {
		if p.w.Used(now) < share {
			continue
		}
		if p.w.ResetsAt.IsZero() {
			return time.Time{}, false
		}
		if p.w.ResetsAt.After(at) {
			at = p.w.ResetsAt
		}
	}
	return at, !at.IsZero()
}

// ReportJSON is JSON with state: the Freshness at now ("current", "old",
// "unknown"), for accounts --json and ps --json. The record on disk has no
// state: it changes with time alone.
func (u Usage) ReportJSON(now time.Time) []byte {
	return append(jsonx.Object(false, append(u.fields(),
		jsonx.Field{Name: "state", Value: jsonx.String(u.Freshness(now).String())})...), '\n')
}
