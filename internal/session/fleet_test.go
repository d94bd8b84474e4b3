package session

import (
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/claudever"
)

func TestClassifyFleet(t *testing.T) {
	unknown := claudever.Binary{}
	for _, tc := range []struct {
		args    string
		claude  claudever.Binary
		command string
		fleet   bool
		starts  bool
	}{
		{"--bg fix it", release(2, 1, 332), "--bg", true, true},
		{"--background fix it", release(2, 1, 141), "--bg", true, true},
		{"fix it --bg", release(2, 1, 197), "--bg", true, true},
		{"-p fix --bg", release(2, 1, 332), "--bg", true, true},
		{"--resume 5e6f7a8b --bg", release(2, 1, 332), "--bg", true, true},
		{"--model opus --bg hi", release(2, 1, 332), "--bg", true, true},
		// Before 2.1.141 --bg is no fleet of Claude's: nothing changes.
		{"--bg fix it", release(2, 1, 140), "", false, false},
		{"--bg fix it", release(2, 1, 90), "", false, false},
		{"--bg fix it", unknown, "", false, false},
		// After --, or as an option's value, it is a prompt.
		{"-- --bg", release(2, 1, 332), "", false, false},
		{"--append-system-prompt --bg hi", release(2, 1, 332), "", false, false},
		{"--version --bg", release(2, 1, 332), "--version", false, false},
		{"mcp list --bg", release(2, 1, 332), "mcp", false, false},
		{"agents --json", release(2, 1, 332), "agents", true, false},
		{"agents --json", release(2, 1, 145), "agents", true, false},
		// agents manages subagents before 2.1.145: left as it is.
		{"agents", release(2, 1, 144), "agents", false, false},
		{"attach 1a2b3c4d", release(2, 1, 332), "attach", true, false},
		{"logs 1a2b3c4d", release(2, 1, 197), "logs", true, false},
		{"stop 1a2b3c4d", release(2, 1, 143), "stop", true, false},
		{"kill 1a2b3c4d", release(2, 1, 332), "kill", true, false},
		{"rm 1a2b3c4d", release(2, 1, 332), "rm", true, false},
		{"respawn 1a2b3c4d", release(2, 1, 332), "respawn", true, true},
		{"daemon stop --any", release(2, 1, 332), "daemon", true, false},
		{"daemon status", release(2, 1, 143), "daemon", true, false},
		{"daemon status", release(2, 1, 90), "", false, false},
		{"stop 1a2b3c4d", unknown, "stop", false, false},
		{"hi", release(2, 1, 332), "", false, false},
	} {
		got := Classify(strings.Fields(tc.args), tc.claude)
		if got.Command != tc.command || got.Fleet != tc.fleet || got.Starts != tc.starts || got.Fleet && (got.Session || got.Print) {
			t.Errorf("Classify(%q, %s) = %+v, want command %q fleet %v starts %v", tc.args, tc.claude.Describe(), got, tc.command, tc.fleet, tc.starts)
		}
	}
}

func TestInBackground(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"CLAUDE_JOB_DIR": "/home/u/.claude-max/jobs/1a2b3c4d"}, true},
		{map[string]string{"CLAUDE_CODE_SESSION_KIND": "bg"}, true},
		{map[string]string{"CLAUDE_CODE_SESSION_KIND": "interactive"}, false},
		{map[string]string{"CLAUDE_JOB_DIR": ""}, false},
	} {
		if got := InBackground(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("InBackground(%v) = %v, want %v", tc.env, got, tc.want)
		}
	}
}

func TestBackgroundWait(t *testing.T) {
	for _, tc := range []struct {
		in  string
		ok  bool
		why string
	}{
		{`{"hook_event_name":"Stop","cwd":"/r"}`, false, ""}, // nobody waits on each answer
		{`{"hook_event_name":"PermissionRequest","tool_name":"Bash","cwd":"/r"}`, true, Permission},
		{`{"hook_event_name":"PermissionRequest","tool_name":"AskUserQuestion"}`, true, Question},
		{`{"hook_event_name":"StopFailure","error":"rate_limit","last_assistant_message":"You've hit your 5-hour limit"}`, true, Limit},
		{`{"hook_event_name":"StopFailure","error":"server_error"}`, false, ""},
		{`{"hook_event_name":"Notification","notification_type":"permission_prompt"}`, false, ""}, // follows each PermissionRequest
		{`{"hook_event_name":"Notification","notification_type":"elicitation_dialog"}`, true, Question},
		{`{"hook_event_name":"Notification","notification_type":"idle_prompt"}`, false, ""}, // follows each stop
		{`{"hook_event_name":"SessionStart","source":"startup"}`, false, ""},
		{`{"hook_event_name":"UserPromptSubmit"}`, false, ""},
		{`{}`, false, ""},
	} {
		s, ok := BackgroundWait([]byte(tc.in))
		why := ""
		if s != nil {
			why = s.Reason
		}
		if ok != tc.ok || why != tc.why {
			t.Errorf("%s: got %q %v, want %q %v", tc.in, why, ok, tc.why, tc.ok)
		}
		if ok && tc.why == Limit && s.Message != "You've hit your 5-hour limit" {
			t.Errorf("%s: message %q", tc.in, s.Message)
		}
	}
}
