package statusline

import (
	"time"

	"github.com/claude-account/claude-account/internal/usage"
)

// Next is the command the warning names at a limit: it hands the limited
// conversation to the account with the most headroom.
const Next = "claude-account resume --next"

// NextFor is Next naming the conversation id (its first 8 characters),
// which resume --next takes as it is from any terminal; Next alone for "".
func NextFor(id string) string {
	if len(id) < 8 {
		return Next
	}
	return Next + " " + id[:8]
}

// Warning is the row the status line adds below its own, or below the
// account's own status line, only while a window of the account is past
// usage.Warn: Claude's full screen erases whatever the launcher printed
// before it, and the status line is the one place it keeps showing (every
// release from 2.0.77 shows each line a status line prints as a row).
type Warning struct {
	Account string
	Usage   usage.Usage // the account's, as of Now
	Now     time.Time
	// Room is the allowed account with the most headroom (below
	// usage.Busy in both windows), and its figures; "" when none has.
	Room      string
	RoomUsage usage.Usage
	// First is, when none has headroom, the allowed account whose windows
	// reset first (the account itself, when it is first), and when; "" when
	// no reset time is known.
	First   string
	FirstAt time.Time
	// Conversation is the session's conversation id (its status JSON's
	// session_id, checked by the caller), named in the command; "" for none.
	Conversation string
}

// String is the row, "" while the account is below usage.Warn:
//
//	⚠ max near its limit: 5h 93% (resets 17:01) · 7d 13% · work has headroom (5h 10%)
//	⚠ max: limit, resets 17:01 · carry on with work: claude-account resume --next 7c0f3a2e
//	⚠ max: limit, resets 17:01 · no account has headroom; the first, work, resets 16:40
func (w Warning) String() string {
	if w.Usage.Busiest(w.Now) < usage.Warn {
		return ""
	}
	acct := w.Account
	if acct == "" {
		acct = "this account"
	}
	var s string
	if at, ok := w.Usage.FreeAt(w.Now, 100); w.Usage.Limited(w.Now) {
		s = "⚠ " + acct + ": limit"
		if ok {
			s += ", resets " + usage.Clock(at.Local(), w.Now.Local())
		}
	} else {
		s = "⚠ " + acct + " near its limit: " + w.Usage.Resets(w.Now)
	}
	switch {
	case w.Room != "" && w.Usage.Limited(w.Now):
		s += " · carry on with " + w.Room + ": " + NextFor(w.Conversation)
	case w.Room != "":
		s += " · " + w.Room + " has headroom (" + w.RoomUsage.Brief(w.Now) + ")"
	case w.First != "" && w.First != w.Account:
		s += " · no account has headroom; the first, " + w.First + ", resets " + usage.Clock(w.FirstAt.Local(), w.Now.Local())
	default:
		s += " · no other account has headroom"
	}
	return s
}
