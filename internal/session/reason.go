package session

import (
	"strings"
	"unicode/utf8"
)

// Why a session is in its state: the reason codes the state file keeps and
// ps --json shows, in the order ps and jump --waiting rank sessions (the
// first needs its user most: a session at a limit goes nowhere until it is
// handed on, one that merely started has lost nothing).
//
// A limit, measured with the API stand-in refusing every request (429,
// unified status rejected) from a session's first prompt on: 2.1.90, 2.1.197
// and 2.1.332 fire StopFailure "error":"rate_limit" with Claude's line as
// last_assistant_message ("You've hit your session limit · resets 5:28pm
// (UTC)"; 2.1.332 says "5-hour limit"); the status line then reports the
// five-hour window at 100% on 2.1.90 and 2.1.332, nothing on 2.1.197. 2.0.77
// prints the same line and opens /rate-limit-options but fires Stop (no
// StopFailure before 2.1.78): its limit reads as an answer's end.
const (
	Limit      = "limit"      // StopFailure "rate_limit": a usage limit refused the turn (2.1.78+)
	Permission = "permission" // a permission dialog
	Question   = "question"   // Claude asks (AskUserQuestion, an MCP server's elicitation)
	Failed     = "failed"     // StopFailure of another error: the API failed the turn
	Ended      = "ended"      // an answer's end (Stop), or Claude idles after one
	Started    = "started"    // at its start or after /clear, no prompt yet
	Busy       = "working"    // from a prompt until Claude stops
)

// Reasons are the reason codes, first to last.
var Reasons = []string{Limit, Permission, Question, Failed, Ended, Started, Busy}

// Rank is reason's place in Reasons; an unknown one goes last.
func Rank(reason string) int {
	for i, r := range Reasons {
		if r == reason {
			return i
		}
	}
	return len(Reasons)
}

// AskTool is the tool Claude asks its user a question with. Measured on
// 2.1.332 with the API stand-in answering with this tool call: PreToolUse,
// then PermissionRequest with "tool_name":"AskUserQuestion" as the question
// shows, then Notification permission_prompt ("Claude needs your
// permission") about 6 s later, PostToolUse once answered.
const AskTool = "AskUserQuestion"

// reasonOf is why a session is in the state a hook event moves it to:
// notification is a Notification's notification_type, tool a
// PermissionRequest's tool_name, failure a StopFailure's error.
func reasonOf(event, notification, tool, failure string) string {
	switch event {
	case "StopFailure":
		if failure == "rate_limit" {
			return Limit
		}
		return Failed
	case "Stop":
		return Ended
	case "PermissionRequest":
		if tool == AskTool {
			return Question
		}
		return Permission
	case "Notification":
		switch notification {
		case "elicitation_dialog":
			return Question
		case "idle_prompt":
			return Ended
		}
		return Permission
	case "SessionStart":
		return Started
	}
	return Busy
}

// legacyReason reads why a state an earlier launcher wrote (no reason kept)
// is in its state, from the event that set it: such a state never tells a
// question from a permission dialog, nor a limit from another failure.
func legacyReason(state, event string) string {
	switch state {
	case Working:
		return Busy
	case Starting:
		return Started
	}
	switch event {
	case "Stop":
		return Ended
	case "StopFailure":
		return Failed
	case "SessionStart":
		return Started
	}
	return Permission // PermissionRequest, a Notification that was no idle one
}

// maxMessage bounds the Claude message a state keeps: a limit's line is
// some sixty bytes.
const maxMessage = 300

// clip is s cut to maxMessage bytes, on a rune boundary, valid UTF-8.
func clip(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= maxMessage {
		return s
	}
	s = s[:maxMessage]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// LimitWords reads Claude's message at a limit ("You've hit your 5-hour
// limit · resets 5:01pm (UTC)"; 2.1.90 says "session limit") as Claude
// printed it: which limit ("5-hour", "session", "weekly") and when it
// resets ("5:01pm (UTC)"), each "" where the message does not say. They are
// shown verbatim, as Claude's words, and never used as anything else.
func LimitWords(msg string) (limit, resets string) {
	line, _, _ := strings.Cut(msg, "\n")
	if _, rest, ok := strings.Cut(line, "hit your "); ok {
		if l, _, ok := strings.Cut(rest, " limit"); ok && len(l) <= 40 {
			limit = strings.TrimSpace(l)
		}
	}
	if i := strings.LastIndex(line, "resets "); i >= 0 {
		resets = strings.TrimSpace(line[i+len("resets "):])
		if len(resets) > 60 {
			resets = ""
		}
	}
	return limit, resets
}

// Text is what a person reads of a reason, as ps shows it ("permission
// dialog"); a limit's reset time is the caller's to add.
func Text(reason string) string {
	switch reason {
	case Limit:
		return "limit"
	case Permission:
		return "permission dialog"
	case Question:
		return "question"
	case Failed:
		return "failed (api error)"
	case Ended:
		return "answer ended"
	case Started:
		return "just started"
	case Busy:
		return "working"
	}
	return reason
}

// Sentence is why a session waits as a notification says it.
func Sentence(reason string) string {
	switch reason {
	case Limit:
		return "It hit a usage limit."
	case Permission:
		return "A permission dialog opened."
	case Question:
		return "It asks you a question."
	case Failed:
		return "Its answer failed (an API error)."
	case Ended:
		return "Its answer ended."
	case Started:
		return "It waits for your first prompt."
	}
	return "It needs your attention."
}

// NeedsInput reports whether a session waiting for reason is blocked until
// someone acts: at a limit, a dialog, a question. A background session
// notifies only then, not at each answer's end.
func NeedsInput(reason string) bool {
	return reason == Limit || reason == Permission || reason == Question
}
