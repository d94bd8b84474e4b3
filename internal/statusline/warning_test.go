package statusline

import (
	"strings"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/usage"
)

func TestWarning(t *testing.T) {
	now := time.Date(2030, 3, 17, 14, 0, 0, 0, time.UTC)
	at := func(p float64) usage.Usage {
		return usage.Usage{FiveHour: &usage.Window{UsedPercent: p, ResetsAt: now.Add(time.Hour)}, UpdatedAt: now}
	}
	idle := at(10)
	for _, c := range []struct {
		name string
		w    Warning
		want string // a part of the row; "" for none
	}{
		{"below the warning", Warning{Account: "max", Usage: at(89), Now: now, Room: "work", RoomUsage: idle}, ""},
		{"unknown", Warning{Account: "max", Now: now}, ""},
		{"near", Warning{Account: "max", Usage: at(92), Now: now, Room: "work", RoomUsage: idle}, "⚠ max near its limit: 5h 92% (resets "},
		{"near, room", Warning{Account: "max", Usage: at(92), Now: now, Room: "work", RoomUsage: idle}, " · work has headroom (5h 10%)"},
		{"limit", Warning{Account: "max", Usage: at(100), Now: now, Room: "work", RoomUsage: idle}, " · carry on with work: " + Next},
		{"none", Warning{Account: "max", Usage: at(100), Now: now, First: "work", FirstAt: now.Add(time.Minute)}, " · no account has headroom; the first, work, resets "},
		{"none, itself first", Warning{Account: "max", Usage: at(100), Now: now, First: "max", FirstAt: now.Add(time.Hour)}, " · no other account has headroom"},
	} {
		got := c.w.String()
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want it to hold %q", c.name, got, c.want)
		}
	}
}
