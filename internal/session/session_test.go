package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/claude-account/claude-account/internal/claudever"
)

func TestSpecEventsFollowTheRelease(t *testing.T) {
	spec := Spec{Exe: "/bin/claude-account", ID: "max-0123", Token: "1-2"}
	for _, tc := range []struct {
		release     claudever.Binary
		stopFailure bool
	}{
		{claudever.Binary{Known: true, Version: claudever.V(2, 0, 77)}, false},
		{claudever.Binary{Known: true, Version: claudever.V(2, 1, 77)}, false},
		{claudever.Binary{Known: true, Version: claudever.V(2, 1, 78)}, true},
		{claudever.Binary{Known: true, Version: claudever.V(2, 1, 330)}, true},
		{claudever.Binary{}, false}, // unknown: only what every release knows (2.0.77 drops settings naming StopFailure)
	} {
		spec.Claude = tc.release
		var v struct {
			Hooks map[string]json.RawMessage `json:"hooks"`
		}
		if err := json.Unmarshal(spec.JSON(), &v); err != nil {
			t.Fatalf("%v: %v\n%s", tc.release.Version, err, spec.JSON())
		}
		if _, ok := v.Hooks["StopFailure"]; ok != tc.stopFailure {
			t.Errorf("%v: StopFailure registered = %v, want %v", tc.release.Version, ok, tc.stopFailure)
		}
		for _, e := range []string{"SessionStart", "UserPromptSubmit", "Stop", "Notification", "PermissionRequest", "PostToolUse"} {
			if _, ok := v.Hooks[e]; !ok {
				t.Errorf("%v: %s missing", tc.release.Version, e)
			}
		}
	}
}

func TestSpecJSONIsWhatEncodingJSONReads(t *testing.T) {
	spec := Spec{Exe: `/odd path/it's "here"/claude-account`, ID: "max-0123", Token: "1-2", StatusLine: true,
		WorktreeHooks: " --account max --account-dir '/a b'"}
	var v struct {
		Hooks map[string][]struct {
			Hooks []struct{ Type, Command string }
		} `json:"hooks"`
		StatusLine struct{ Type, Command string } `json:"statusLine"`
	}
	if err := json.Unmarshal(spec.JSON(), &v); err != nil {
		t.Fatalf("%v\n%s", err, spec.JSON())
	}
	want := `'/odd path/it'\''s "here"/claude-account' hook state --id max-0123 --token 1-2`
	if got := v.Hooks["Stop"][0].Hooks[0].Command; got != want {
		t.Errorf("Stop command = %s, want %s", got, want)
	}
	if got := v.StatusLine.Command; !strings.HasSuffix(got, "' statusline") {
		t.Errorf("statusLine command = %s", got)
	}
	if got := v.Hooks["WorktreeCreate"][0].Hooks[0].Command; !strings.Contains(got, "hook worktree-create --account max --account-dir '/a b' --session max-0123 --token 1-2") {
		t.Errorf("WorktreeCreate command = %s", got)
	}
}

func TestWithSettings(t *testing.T) {
	ours := []byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"ours"}]}]},"statusLine":{"type":"command","command":"our line"}}`)
	dir := t.TempDir()
	file := filepath.Join(dir, "mine.json")
	if err := os.WriteFile(file, []byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"a && b > c"}]}]},"model":"opus"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := WithSettings([]string{"-p", "hi"}, ours, dir)
	if err != nil || len(got) != 4 || got[0] != "--settings" || got[1] != string(ours) || got[2] != "-p" {
		t.Fatalf("no settings of theirs: %q, %v", got, err)
	}
	got, err = WithSettings([]string{"-p", "--settings", "mine.json", "hi", "--", "--settings", "x"}, ours, dir)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got[2:], " ") != "-p hi -- --settings x" {
		t.Errorf("args = %q: theirs before -- replaced, after it kept", got)
	}
	var v struct {
		Hooks      map[string][]json.RawMessage `json:"hooks"`
		StatusLine struct{ Command string }     `json:"statusLine"`
		Model      string                       `json:"model"`
	}
	if err := json.Unmarshal([]byte(got[1]), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Hooks["Stop"]) != 2 || !strings.Contains(string(v.Hooks["Stop"][0]), "a && b > c") || !strings.Contains(string(v.Hooks["Stop"][1]), "ours") {
		t.Errorf("Stop hooks = %s: theirs, then ours, unescaped", v.Hooks["Stop"])
	}
	if v.StatusLine.Command != "our line" || v.Model != "opus" {
		t.Errorf("merged = %s", got[1])
	}
	// Several: the later wins a key, as on 2.1.330.
	got, err = WithSettings([]string{`--settings={"model":"a"}`, "--settings", `{"model":"b","statusLine":{"command":"theirs"}}`}, ours, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !strings.Contains(got[1], `"model":"b"`) || !strings.Contains(got[1], `"command":"theirs"`) || strings.Contains(got[1], "our line") {
		t.Errorf("several = %q", got)
	}
	if _, err := WithSettings([]string{"--settings", "missing.json"}, ours, dir); err == nil {
		t.Error("a missing file of theirs is an error, for the caller to pass their args on as given")
	}
	if _, err := WithSettings([]string{"--settings", "[1]"}, ours, dir); err == nil {
		t.Error("settings that are not an object are an error")
	}
}

// TestRecordWait: the hook's notification comes once a session moves into
// waiting, with why, never at its start, once a spell, once in NotifyEvery.
func TestRecordWait(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lock")
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	var got []string
	step := func(after time.Duration, event, extra string) {
		t.Helper()
		now = now.Add(after)
		in := `{"session_id":"s","cwd":"/w","hook_event_name":"` + event + `"` + extra + `}`
		err := Record(dir, "max-01", "7-1", []byte(in), now, func(s *State) {
			if s.State != Waiting || !s.Notified.Equal(now) || s.Token != "7-1" {
				t.Errorf("wait got %+v", s)
			}
			got = append(got, s.Reason)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	step(0, "SessionStart", `,"source":"startup"`)
	step(time.Second, "UserPromptSubmit", "")
	step(20*time.Second, "Stop", "")
	step(60*time.Second, "Notification", `,"notification_type":"idle_prompt"`)
	step(time.Second, "SessionStart", `,"source":"clear"`)
	step(time.Second, "UserPromptSubmit", "")
	step(time.Second, "PermissionRequest", "") // 63 s after the last: notifies
	step(time.Second, "PostToolUse", "")
	step(5*time.Second, "Stop", "") // 6 s after the last: too soon
	step(time.Second, "UserPromptSubmit", "")
	step(10*time.Second, "Notification", `,"notification_type":"elicitation_dialog"`)
	step(time.Second, "UserPromptSubmit", "")
	step(10*time.Second, "StopFailure", `,"error":"rate_limit","last_assistant_message":"You've hit your 5-hour limit · resets 5:01pm (UTC)"`)
	step(time.Second, "UserPromptSubmit", "")
	step(9*time.Second, "Stop", "") // 10 s after the last
	step(time.Second, "UserPromptSubmit", "")
	// 2 s after the last, but a limit needs its user: no answer comes until
	// they move the conversation or wait for the reset.
	step(time.Second, "StopFailure", `,"error":"rate_limit","last_assistant_message":"You've hit your 5-hour limit · resets 5:01pm (UTC)"`)
	want := []string{Ended, Permission, Question, Limit, Ended, Limit}
	if !slices.Equal(got, want) {
		t.Errorf("notified %q, want %q", got, want)
	}
	if s := readState(filepath.Join(StateDir(dir), "max-01.json"), "7-1"); !s.Notified.Equal(now) {
		t.Errorf("the state keeps when it last notified: %v", s.Notified)
	}
}

func TestRecord(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lock")
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	step := func(event, extra string) *State {
		t.Helper()
		now = now.Add(time.Second)
		in := `{"session_id":"s","cwd":"/w","hook_event_name":"` + event + `"` + extra + `}`
		if err := Record(dir, "max-01", "7-1", []byte(in), now, nil); err != nil {
			t.Fatal(err)
		}
		return readState(filepath.Join(StateDir(dir), "max-01.json"), "7-1")
	}
	if s := step("SessionStart", `,"source":"startup"`); s.State != Waiting {
		t.Errorf("after SessionStart: %s", s.State)
	}
	s := step("UserPromptSubmit", `,"prompt":"p"`)
	if s.State != Working || !s.Since.Equal(now) || s.Cwd != "/w" || s.SessionID != "s" {
		t.Errorf("after a prompt: %+v", s)
	}
	started := now
	if s := step("PostToolUse", ""); s.State != Working || !s.Since.Equal(started) {
		t.Errorf("a tool keeps working since the prompt: %+v", s)
	}
	if s := step("SessionStart", `,"source":"compact"`); s.State != Working {
		t.Errorf("a compaction is mid-turn: %s", s.State)
	}
	if s := step("Notification", `,"notification_type":"permission_prompt"`); s.State != Waiting {
		t.Errorf("a permission prompt waits: %s", s.State)
	}
	if s := step("PostToolUse", ""); s.State != Working {
		t.Errorf("the tool ran: %s", s.State)
	}
	if s := step("StopFailure", ""); s.State != Waiting {
		t.Errorf("a failed turn waits: %s", s.State)
	}
	if s := step("Notification", `,"notification_type":"auth_success"`); s.State != Waiting {
		t.Errorf("a notification for nobody changes nothing: %s", s.State)
	}
	Forget(dir, "max-01", "8-1")
	if _, err := os.Stat(filepath.Join(StateDir(dir), "max-01.json")); err != nil {
		t.Error("another holder's Forget removed the state")
	}
	Forget(dir, "max-01", "7-1")
	if _, err := os.Stat(filepath.Join(StateDir(dir), "max-01.json")); err == nil {
		t.Error("Forget left the state")
	}
	for _, id := range []string{"", "..", "../x", "a/b", ".hidden"} {
		if Record(dir, id, "7-1", []byte(`{"hook_event_name":"Stop"}`), now, nil) == nil {
			t.Errorf("id %q accepted", id)
		}
	}
}

// TestForgetSweepsTemps: the temporary files of a session's state that
// killed hooks left go when the session ends, and only that session's.
func TestForgetSweepsTemps(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lock")
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	if err := Record(dir, "max-01", "7-1", []byte(`{"hook_event_name":"Stop"}`), now, nil); err != nil {
		t.Fatal(err)
	}
	if err := Record(dir, "max-02", "8-1", []byte(`{"hook_event_name":"Stop"}`), now, nil); err != nil {
		t.Fatal(err)
	}
	sd := StateDir(dir)
	for _, name := range []string{".max-01.json123", ".max-01.json4567890", ".max-02.json123"} {
		if err := os.WriteFile(filepath.Join(sd, name), []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	Forget(dir, "max-01", "7-1")
	var left []string
	des, _ := os.ReadDir(sd)
	for _, de := range des {
		left = append(left, de.Name())
	}
	if want := []string{".max-02.json123", "max-02.json"}; !slices.Equal(left, want) {
		t.Errorf("left %q, want %q", left, want)
	}
}

func FuzzRecord(f *testing.F) {
	f.Add([]byte(`{"hook_event_name":"Stop","cwd":"/x","session_id":"s"}`))
	f.Add([]byte(`{"hook_event_name":"Notification","notification_type":"idle_prompt"}`))
	f.Add([]byte(`{"hook_event_name":1}`))
	f.Add([]byte(`not json`))
	dir := filepath.Join(f.TempDir(), "lock")
	f.Fuzz(func(t *testing.T, in []byte) {
		if err := Record(dir, "max-fuzz", "1-1", in, time.Unix(1, 0), nil); err != nil {
			return
		}
		data, err := os.ReadFile(filepath.Join(StateDir(dir), "max-fuzz.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(data) {
			t.Fatalf("state is not JSON: %s", data)
		}
		if s := readState(filepath.Join(StateDir(dir), "max-fuzz.json"), "1-1"); s.Token != "1-1" {
			t.Fatalf("state does not read back: %s", data)
		}
	})
}

func FuzzMerge(f *testing.F) {
	ours := Spec{Exe: "/x/claude-account", ID: "max-1", Token: "1-1", StatusLine: true}.JSON()
	f.Add([]byte(`{"hooks":{"Stop":[{"hooks":[]}]},"model":"x"}`))
	f.Add([]byte(`{"hooks":[]}`))
	f.Add([]byte(`{"statusLine":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, theirs []byte) {
		out, err := Merge(theirs, ours)
		if err != nil {
			return
		}
		var v map[string]json.RawMessage
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("merged is not an object: %v\n%s", err, out)
		}
		if !strings.Contains(string(v["hooks"]), "hook state --id max-1") {
			t.Fatalf("our hooks are lost: %s", out)
		}
	})
}

// BenchmarkRecord is the hook's own work per event, in process: a prompt
// and a stop (a write each) and a tool (nothing to write).
func BenchmarkRecord(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "lock")
	events := [][]byte{
		[]byte(`{"session_id":"3d5eba2f","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":"hi"}`),
		[]byte(`{"session_id":"3d5eba2f","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"true"},"tool_response":{"stdout":""}}`),
		[]byte(`{"session_id":"3d5eba2f","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"stub reply"}`),
	}
	now := time.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := Record(dir, "max-0123456789abcdef", "1-1", events[i%3], now, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLaunchArgs is what sessions add to the launch path before Claude
// starts: reading the arguments and building the --settings value.
func BenchmarkLaunchArgs(b *testing.B) {
	args := []string{"--model", "opus", "-p", "summarise this repository"}
	spec := Spec{Exe: "/nix/store/0123456789abcdef0123456789abcdef-claude-account-1.0/bin/claude-account",
		ID: "max-0123456789abcdef", Token: "41822-1795471062470932412", StatusLine: true, WorktreeHooks: " --account max"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if !Classify(args, spec.Claude).Session {
			b.Fatal("not a session")
		}
		if _, err := WithSettings(args, spec.JSON(), "/"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRecordReason: the state keeps why it waits, and a notice that only
// repeats it (a permission_prompt after a question, an idle notice after an
// answer) keeps the reason and the time it began.
func TestRecordReason(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "lock")
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	step := func(event, extra string) *State {
		t.Helper()
		now = now.Add(time.Second)
		in := `{"session_id":"s","cwd":"/w","hook_event_name":"` + event + `"` + extra + `}`
		if err := Record(dir, "max-01", "7-1", []byte(in), now, nil); err != nil {
			t.Fatal(err)
		}
		return readState(filepath.Join(StateDir(dir), "max-01.json"), "7-1")
	}
	for _, tc := range []struct {
		event, extra, reason string
	}{
		{"SessionStart", `,"source":"startup"`, Started},
		{"UserPromptSubmit", "", Busy},
		{"PermissionRequest", `,"tool_name":"AskUserQuestion"`, Question},
		{"Notification", `,"notification_type":"permission_prompt"`, Question},
		{"PostToolUse", "", Busy},
		{"PermissionRequest", `,"tool_name":"Bash"`, Permission},
		{"PostToolUse", "", Busy},
		{"StopFailure", `,"error":"rate_limit","last_assistant_message":"You've hit your 5-hour limit · resets 5:01pm (UTC)"`, Limit},
		{"UserPromptSubmit", "", Busy},
		{"StopFailure", `,"error":"server_error"`, Failed},
		{"UserPromptSubmit", "", Busy},
		{"Stop", "", Ended},
		{"Notification", `,"notification_type":"idle_prompt"`, Ended},
		{"SessionStart", `,"source":"clear"`, Started},
	} {
		s := step(tc.event, tc.extra)
		if s.Reason != tc.reason {
			t.Errorf("after %s%s: reason %q, want %q", tc.event, tc.extra, s.Reason, tc.reason)
		}
		if tc.event == "Notification" && s.Since.Equal(now) {
			t.Errorf("after %s%s: a repeated notice restarted the wait", tc.event, tc.extra)
		}
		if (s.Message != "") != (tc.reason == Limit || tc.reason == Failed && strings.Contains(tc.extra, "message")) {
			t.Errorf("after %s: message %q", tc.event, s.Message)
		}
	}
}

// TestLegacyReason: a state an earlier launcher wrote, with no reason, reads
// one from its state and event.
func TestLegacyReason(t *testing.T) {
	for _, tc := range []struct{ state, event, want string }{
		{Working, "UserPromptSubmit", Busy},
		{Starting, "WorktreeCreate", Started},
		{Waiting, "Stop", Ended},
		{Waiting, "StopFailure", Failed},
		{Waiting, "SessionStart", Started},
		{Waiting, "PermissionRequest", Permission},
		{Waiting, "Notification", Permission},
	} {
		data := []byte(`{"token":"1-1","state":"` + tc.state + `","event":"` + tc.event + `","since":"2026-11-23T12:00:00Z"}`)
		s, ok := decodeState(data)
		if !ok || s.Reason != tc.want {
			t.Errorf("%s after %s: %q, want %q", tc.state, tc.event, s.Reason, tc.want)
		}
	}
	if s, _ := decodeState([]byte(`{"token":"1-1","state":"waiting","event":"Stop","reason":"bogus"}`)); s.Reason != Ended {
		t.Errorf("an unknown reason reads from the event: %q", s.Reason)
	}
}

func TestLimitWords(t *testing.T) {
	for _, tc := range []struct{ msg, limit, resets string }{
		{"You've hit your 5-hour limit · resets 5:01pm (UTC)", "5-hour", "5:01pm (UTC)"},
		{"You've hit your session limit · resets 5:01pm (UTC)", "session", "5:01pm (UTC)"},
		{"You've hit your weekly limit · resets Dec 2, 9am\nsecond line", "weekly", "Dec 2, 9am"},
		{"API Error: 500", "", ""},
		{"", "", ""},
		{"hit your " + strings.Repeat("x", 100) + " limit · resets " + strings.Repeat("y", 100), "", ""},
	} {
		if l, r := LimitWords(tc.msg); l != tc.limit || r != tc.resets {
			t.Errorf("%q: %q %q, want %q %q", tc.msg, l, r, tc.limit, tc.resets)
		}
	}
}

func FuzzLimitWords(f *testing.F) {
	f.Add("You've hit your 5-hour limit · resets 5:01pm (UTC)")
	f.Add("hit your  limit resets ")
	f.Fuzz(func(t *testing.T, msg string) {
		l, r := LimitWords(msg)
		if strings.Contains(l, "\n") || strings.Contains(r, "\n") || len(l) > 40 || len(r) > 60 {
			t.Fatalf("%q: %q %q", msg, l, r)
		}
		if c := clip(msg); len(c) > maxMessage || !utf8.ValidString(c) {
			t.Fatalf("clip(%q) = %q", msg, c)
		}
	})
}
