package cli

import (
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/fleet"
	"github.com/claude-account/claude-account/internal/session"
	"github.com/claude-account/claude-account/internal/usage"
)

// TestOrder: rows rank by why they wait, a background session that needs
// input as a question, one that is done or failed last.
func TestOrder(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	infos := []session.Info{
		{Account: "started", Kind: session.Foreground, State: session.Waiting, Reason: session.Started, Since: t0},
		{Account: "done", Kind: session.Background, State: fleet.Done, Reason: session.Ended, Since: t0},
		{Account: "working", Kind: session.Foreground, State: session.Working, Reason: session.Busy, Since: t0},
		{Account: "bg-input", Kind: session.Background, State: fleet.NeedsInput, Reason: session.Question, Since: t0.Add(time.Minute)},
		{Account: "permission", Kind: session.Foreground, State: session.Waiting, Reason: session.Permission, Since: t0.Add(2 * time.Minute)},
		{Account: "ended", Kind: session.Foreground, State: session.Waiting, Reason: session.Ended, Since: t0},
		{Account: "limit", Kind: session.Foreground, State: session.Waiting, Reason: session.Limit, Since: t0.Add(3 * time.Minute)},
		{Account: "question-older", Kind: session.Foreground, State: session.Waiting, Reason: session.Question, Since: t0},
	}
	sort.SliceStable(infos, func(i, j int) bool {
		if oi, oj := order(infos[i]), order(infos[j]); oi != oj {
			return oi < oj
		}
		return infos[i].Since.Before(infos[j].Since)
	})
	var got []string
	for _, in := range infos {
		got = append(got, in.Account)
	}
	want := []string{"limit", "permission", "question-older", "bg-input", "ended", "started", "working", "done"}
	if !slices.Equal(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}

func TestLimitWordsFromFigures(t *testing.T) {
	now := time.Date(2026, 11, 27, 16, 0, 0, 0, time.UTC)
	msg := "You've hit your session limit · resets 5:01pm (UTC)"
	full := usage.Usage{FiveHour: &usage.Window{UsedPercent: 100, ResetsAt: now.Add(time.Hour)},
		SevenDay: &usage.Window{UsedPercent: 13, ResetsAt: now.Add(48 * time.Hour)}}
	if name, at, resets := limitWords(full, msg, now); name != "5-hour" || !at.Equal(now.Add(time.Hour)) || resets != usage.Clock(at.Local(), now.Local()) {
		t.Errorf("figures: %q %v %q", name, at, resets)
	}
	both := full
	both.SevenDay = &usage.Window{UsedPercent: 100, ResetsAt: now.Add(48 * time.Hour)}
	if name, at, _ := limitWords(both, msg, now); name != "weekly" || !at.Equal(now.Add(48*time.Hour)) {
		t.Errorf("both full: the later reset decides: %q %v", name, at)
	}
	// A window that has reset since, or none at 100%: Claude's words.
	for _, u := range []usage.Usage{{}, {FiveHour: &usage.Window{UsedPercent: 100, ResetsAt: now.Add(-time.Minute)}},
		{FiveHour: &usage.Window{UsedPercent: 97, ResetsAt: now.Add(time.Hour)}}} {
		if name, at, resets := limitWords(u, msg, now); name != "session" || !at.IsZero() || resets != "5:01pm (UTC)" {
			t.Errorf("%+v: %q %v %q", u, name, at, resets)
		}
	}
}
