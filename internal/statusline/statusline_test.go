package statusline

import (
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/gitcmd"
	"github.com/claude-account/claude-account/internal/usage"
)

func TestState(t *testing.T) {
	for st, want := range map[gitcmd.Status]string{
		{}:                                    "",
		{Upstream: true, Ahead: 2}:            "↑2",
		{Changed: 1, Behind: 3}:               "* ↓3",
		{Changed: 4}:                          "*",
		{Upstream: true, Ahead: 1, Behind: 1}: "↑1 ↓1",
	} {
		if got := State(st); got != want {
			t.Errorf("State(%+v) = %q, want %q", st, got, want)
		}
	}
}

func TestLine(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	busy := usage.Usage{FiveHour: &usage.Window{UsedPercent: 95, ResetsAt: now.Add(time.Hour)}}
	for _, c := range []struct {
		line Line
		want string
	}{
		{Line{}, "?"},
		{Line{Account: "max", Where: "wt (fix)", Git: gitcmd.Status{Changed: 1, Ahead: 2}, Model: "Opus"}, "max · wt (fix) · * ↑2 · Opus"},
		{Line{Account: "max", Model: "Opus", Waiting: 2}, "max · Opus · 2 waiting"},
		{Line{Account: "max", Usage: busy, Now: now}, "max · ⚠ " + busy.Short(now)},
	} {
		if got := c.line.String(); got != c.want {
			t.Errorf("%+v.String() = %q, want %q", c.line, got, c.want)
		}
	}
}

func TestInput(t *testing.T) {
	in := ParseInput([]byte(`{"session_id":"s","cwd":"/c","model":{"id":"claude-x"},"workspace":{"current_dir":"/w"}}`))
	if in.SessionID != "s" || in.Dir("/d") != "/w" || in.ModelName() != "claude-x" {
		t.Errorf("ParseInput = %+v", in)
	}
	in = ParseInput([]byte(`{"cwd":"/c","model":{"id":"claude-x","display_name":"Opus"}}`))
	if in.Dir("/d") != "/c" || in.ModelName() != "Opus" {
		t.Errorf("ParseInput = %+v", in)
	}
	if in := ParseInput([]byte("not json")); in.Dir("/d") != "/d" || in.ModelName() != "" {
		t.Errorf("ParseInput of no JSON = %+v", in)
	}
}
