package cli

import (
	"strings"
	"testing"

	"github.com/claude-account/claude-account/internal/session"
)

func TestPickSession(t *testing.T) {
	infos := []session.Info{
		{Account: "max", Branch: "main", PID: 10, LauncherPID: 9, SessionID: "s-max"},
		{Account: "work", Branch: "main", PID: 20, LauncherPID: 19},
		{Account: "max", Slug: "refactor/parser", Branch: "x", PID: 30, LauncherPID: 29},
	}
	for id, want := range map[string]int{"10": 10, "9": 10, "max/main": 10, "work/main": 20, "s-max": 10,
		"refactor+parser": 30, "refactor/parser": 30, "max/refactor/parser": 30, "max/refactor+parser": 30} {
		got, err := pickSession(infos, id)
		if err != nil || got.PID != want {
			t.Errorf("pickSession(%q) = PID %d, %v; want %d", id, got.PID, err, want)
		}
	}
	for id, want := range map[string]string{"main": `2 sessions are "main": max/main (PID 10), work/main (PID 20)`,
		"0": "no running Claude session is", "other/main": "no running", "": "no running", "-1": "no running"} {
		if _, err := pickSession(infos, id); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("pickSession(%q) = %v, want %q", id, err, want)
		}
	}
}

func TestCannotJump(t *testing.T) {
	in := session.Info{Pane: "%3", TmuxSocket: "/tmp/tmux-1/default"}
	for _, tc := range []struct {
		in   session.Info
		ours string
		want string
	}{
		{in, "/tmp/tmux-1/default,42,0", ""},
		{in, "", "this terminal is not in tmux"},
		{in, "/tmp/tmux-1/other,42,0", "this terminal is in the one at /tmp/tmux-1/other"},
		{in, "garbage", "this terminal is in the one at "},
		{session.Info{}, "/tmp/tmux-1/default,42,0", "it was not started in tmux"},
	} {
		if got := cannotJump(tc.in, tc.ours); tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("cannotJump(%+v, %q) = %q, want %q", tc.in, tc.ours, got, tc.want)
		}
	}
}
