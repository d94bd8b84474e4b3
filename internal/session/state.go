package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/jsonx"
)

// The states a session is in.
const (
	Starting = "starting" // Claude has not reported yet
	Working  = "working"  // from a prompt until Claude stops
	Waiting  = "waiting"  // Claude stopped and needs the user: an answer's end, a permission dialog, idle
)

// StateDir is where sessions keep their state: beside the instance locks, in
// the same private per-user directory.
func StateDir(lockDir string) string { return filepath.Join(lockDir, "sessions") }

// State is a session's state file, written by its hooks.
type State struct {
	Token     string    // the lock holder's (Token): a state of another holder is stale
	State     string    // Working or Waiting
	Since     time.Time // when State began
	Event     string    // the hook event that set it
	Cwd       string    // Claude's working directory, as its hooks report it
	SessionID string    // Claude's own session id (for claude --resume)
	Worktrees []string  // worktrees the session made through our WorktreeCreate hook
	Notified  time.Time // when its hook last notified the user that it waits (Record's wait)
	// Reason is why it is in State (Reasons: limit, permission, …). A
	// state an earlier launcher wrote has none: decodeState reads one from
	// its Event.
	Reason string
	// Message is Claude's own line when a turn failed (StopFailure's
	// last_assistant_message: "You've hit your 5-hour limit · resets
	// 5:01pm (UTC)"), clipped; shown as Claude's words, never trusted as
	// anything else.
	Message string
}

func (s *State) encode() []byte {
	wts := []byte{'['}
	for i, w := range s.Worktrees {
		if i > 0 {
			wts = append(wts, ',')
		}
		wts = append(wts, jsonx.String(w)...)
	}
	wts = append(wts, ']')
	fields := []jsonx.Field{
		{Name: "token", Value: jsonx.String(s.Token)},
		{Name: "state", Value: jsonx.String(s.State)},
		{Name: "since", Value: jsonx.String(s.Since.UTC().Format(time.RFC3339Nano))},
		{Name: "event", Value: jsonx.String(s.Event)},
		{Name: "cwd", Value: jsonx.String(s.Cwd)},
		{Name: "sessionId", Value: jsonx.String(s.SessionID)},
		{Name: "worktrees", Value: wts},
		{Name: "reason", Value: jsonx.String(s.Reason)}}
	if s.Message != "" {
		fields = append(fields, jsonx.Field{Name: "message", Value: jsonx.String(s.Message)})
	}
	if !s.Notified.IsZero() {
		fields = append(fields, jsonx.Field{Name: "notified", Value: jsonx.String(s.Notified.UTC().Format(time.RFC3339Nano))})
	}
	return append(jsonx.Object(false, fields...), '\n')
}

func decodeState(data []byte) (*State, bool) {
	if !gjson.ValidBytes(data) {
		return nil, false
	}
	doc := gjson.ParseBytes(data)
	s := &State{Token: doc.Get("token").String(), State: doc.Get("state").String(), Event: doc.Get("event").String(),
		Cwd: doc.Get("cwd").String(), SessionID: doc.Get("sessionId").String(),
		Reason: doc.Get("reason").String(), Message: clip(doc.Get("message").String())}
	if Rank(s.Reason) == len(Reasons) {
		s.Reason = legacyReason(s.State, s.Event)
	}
	s.Since, _ = time.Parse(time.RFC3339Nano, doc.Get("since").String())
	if n := doc.Get("notified"); n.Exists() {
		s.Notified, _ = time.Parse(time.RFC3339Nano, n.String())
	}
	for _, w := range doc.Get("worktrees").Array() {
		s.Worktrees = append(s.Worktrees, w.String())
	}
	return s, s.Token != ""
}

// ValidID checks a session id (an instance lock's name without ".lock"):
// it names a file in the state dir, so nothing that could leave it passes.
func ValidID(id string) error {
	ok := id != "" && id[0] != '.' && len(id) <= 200
	for _, r := range id {
		ok = ok && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	}
	if !ok {
		return fmt.Errorf("session id %q is not one the launcher makes; the hook's command line was changed", id)
	}
	return nil
}

// next is the state an event of Claude's hooks moves a session to, or "" for
// no change.
func next(event, notification, source string) string {
	switch event {
	case "UserPromptSubmit", "PostToolUse", "PostToolUseFailure":
		// After a permission dialog Claude reports nothing until the tool
		// ran: its PostToolUse is the first sign it works again.
		return Working
	case "Stop", "StopFailure", "PermissionRequest":
		return Waiting
	case "Notification":
		switch notification {
		case "permission_prompt", "idle_prompt", "elicitation_dialog", "":
			return Waiting
		}
	case "SessionStart":
		if source != "compact" { // a compaction is mid-turn
			return Waiting
		}
	}
	return ""
}

// NotifyEvery is the least time between two notifications of one session
// (Record's wait): a session that stops again within it had its user there
// a moment ago, and a loop of quick stops and dialogs is not a storm of them.
// A limit is the exception (Record).
const NotifyEvery = 10 * time.Second

// InBackground reports whether the hook runs in a background session, one the
// supervisor of Claude's fleet hosts, from its environment (getenv): its
// hooks see CLAUDE_JOB_DIR (its job's dir, 2.1.197 and 2.1.332) and
// CLAUDE_CODE_SESSION_KIND=bg (2.1.332). Such a session runs on after the
// launcher that started it (sent to the background with ←) exits, so its
// state would overwrite what ps says of a later session with the same id.
func InBackground(getenv func(string) string) bool {
	return getenv("CLAUDE_JOB_DIR") != "" || getenv("CLAUDE_CODE_SESSION_KIND") == "bg"
}

// Record takes one hook event (Claude's hook JSON, in) for session id of
// token, and writes the session's new state when it changed. It is the
// hook's whole work, run on every prompt and stop: one read of a small file
// and, when the state changed, one write and rename, nothing synced (the
// state dir is in XDG_RUNTIME_DIR, a tmpfs, and a state lost in a crash
// belongs to a session that is gone too).
//
// wait, when not nil, is called with the new state (its Reason says why it
// waits), once the session has moved into waiting
// (not at its start or after /clear, where the user is at it), at most once
// in NotifyEvery: the hook's notification. A spell of waiting is one move,
// so the idle notification that follows a stop calls nothing.
func Record(lockDir, id, token string, in []byte, now time.Time, wait func(s *State)) error {
	if err := ValidID(id); err != nil {
		return err
	}
	var f [8]gjson.Result
	for i, r := range gjson.GetManyBytes(in, "hook_event_name", "notification_type", "source", "cwd", "session_id",
		"tool_name", "error", "last_assistant_message") {
		f[i] = r
	}
	if !f[0].Exists() {
		return errors.New("hook state: the hook's JSON on stdin has no hook_event_name; Claude Code sends it when it runs the hook")
	}
	path := filepath.Join(StateDir(lockDir), id+".json")
	cur := readState(path, token)
	n := *cur
	event := f[0].String()
	why := reasonOf(event, f[1].String(), f[5].String(), f[6].String())
	st := next(event, f[1].String(), f[2].String())
	if st != "" && st != cur.State {
		n.State, n.Since, n.Event, n.Reason, n.Message = st, now, event, why, ""
		if why == Limit || why == Failed {
			n.Message = clip(f[7].String())
		}
		// A limit notifies however soon after the last notification: its
		// user was there for an answer a moment ago, but nothing more comes
		// until they carry the conversation on (resume --next) or wait.
		if st == Waiting && event != "SessionStart" && wait != nil && (why == Limit || !(now.Sub(cur.Notified) < NotifyEvery)) {
			n.Notified = now
		} else {
			wait = nil
		}
	} else {
		wait = nil
		if st == Waiting && event != "Notification" && why != cur.Reason {
			// Still waiting, for another reason: /clear after an answer
			// (just started again). A Notification only repeats why it
			// waits: the permission_prompt after a question's
			// PermissionRequest, the idle one after an answer.
			n.Reason, n.Event, n.Message = why, event, ""
		}
	}
	if c := f[3].String(); c != "" {
		n.Cwd = c
	}
	if s := f[4].String(); s != "" {
		n.SessionID = s
	}
	if n.State == cur.State && n.Reason == cur.Reason && n.Cwd == cur.Cwd && n.SessionID == cur.SessionID && cur.Token != "" {
		return nil // nothing changed: most PostToolUse events end here
	}
	n.Token = token
	if n.State == "" {
		n.State, n.Since, n.Event, n.Reason = Starting, now, event, Started
	}
	if err := write(lockDir, path, &n); err != nil {
		return err
	}
	if wait != nil {
		wait(&n)
	}
	return nil
}

// AddWorktree records that session id made the worktree at path (our
// WorktreeCreate hook, run for it).
func AddWorktree(lockDir, id, token, path string, now time.Time) error {
	if err := ValidID(id); err != nil {
		return err
	}
	file := filepath.Join(StateDir(lockDir), id+".json")
	n := readState(file, token)
	if slices.Contains(n.Worktrees, path) {
		return nil
	}
	if n.Token == "" {
		n.Token, n.State, n.Since, n.Event, n.Reason = token, Starting, now, "WorktreeCreate", Started
	}
	n.Worktrees = append(n.Worktrees, path)
	return write(lockDir, file, n)
}

// Forget removes session id's state when it is token's: the launcher's last
// act for a session, after Claude exited. It also removes the temporary
// files of id's state that hooks killed between write and rename left
// (fsx.IsTemp): the launcher still holds id's lock, and Claude, whose hooks
// write them, is gone.
func Forget(lockDir, id, token string) {
	if ValidID(id) != nil {
		return
	}
	dir := StateDir(lockDir)
	path := filepath.Join(dir, id+".json")
	if s := readState(path, token); s.Token == token {
		_ = os.Remove(path)
	}
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		if de.Type().IsRegular() && fsx.IsTemp(de.Name(), id+".json") {
			_ = os.Remove(filepath.Join(dir, de.Name()))
		}
	}
}

// readState reads a state of token's; anything else (none, damaged, another
// holder's) reads as an empty state.
func readState(path, token string) *State {
	data, err := os.ReadFile(path)
	if err != nil {
		return &State{}
	}
	s, ok := decodeState(data)
	if !ok || s.Token != token {
		return &State{}
	}
	return s
}

// write replaces the state file: a reader sees the old state or the new one.
// Nothing is synced (fsx.WriteUnsynced), deliberately: the hook runs at every
// prompt and stop while Claude waits for it, and a state lost in a crash
// belongs to a session the crash ended too (Record). A temporary file a
// killed hook leaves goes with the session (Forget).
func write(lockDir, path string, s *State) error {
	data := s.encode()
	err := fsx.WriteUnsynced(path, data, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		// The first state of any session: make the dir, private like the
		// lock dir it is in.
		if err := ensureDir(lockDir); err != nil {
			return fmt.Errorf("hook state: %w", err)
		}
		err = fsx.WriteUnsynced(path, data, 0o600)
	}
	if err != nil {
		return fmt.Errorf("hook state: %v; check that %s is a private directory of yours", err, StateDir(lockDir))
	}
	return nil
}

// BackgroundWait is the state a background session waits in after the hook
// event in (Claude's hook JSON): why (Reason), Claude's line at a failure
// (Message) and the directory it works in (Cwd); ok only when the event
// leaves it blocked until someone acts (NeedsInput: a limit, a permission
// dialog, a question), for nobody watches it then, and not at each answer's
// end. Such a session keeps no state of the launcher's (InBackground), so
// there is no earlier state to tell a new spell of waiting from: a dialog
// notifies at its PermissionRequest, not again at the permission_prompt
// notice Claude sends some seconds later (every release fires both).
func BackgroundWait(in []byte) (s *State, ok bool) {
	f := gjson.GetManyBytes(in, "hook_event_name", "notification_type", "source", "cwd", "tool_name", "error", "last_assistant_message")
	event, note := f[0].String(), f[1].String()
	why := reasonOf(event, note, f[4].String(), f[5].String())
	if next(event, note, f[2].String()) != Waiting || !NeedsInput(why) || note == "permission_prompt" {
		return nil, false
	}
	s = &State{State: Waiting, Event: event, Reason: why, Cwd: f[3].String()}
	if why == Limit {
		s.Message = clip(f[6].String())
	}
	return s, true
}
