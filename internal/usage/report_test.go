package usage

import (
	"strings"
	"testing"
	"time"
)

func TestFreshness(t *testing.T) {
	now := time.Date(2030, 3, 17, 14, 0, 0, 0, time.UTC)
	w := func(p float64, reset time.Duration) *Window {
		if reset == 0 {
			return &Window{UsedPercent: p}
		}
		return &Window{UsedPercent: p, ResetsAt: now.Add(reset)}
	}
	for _, c := range []struct {
		name string
		u    Usage
		want Freshness
	}{
		{"never", Usage{}, Unknown},
		{"dropped, reported once", Usage{UpdatedAt: now.Add(-time.Hour)}, Unknown},
		{"current", Usage{FiveHour: w(42, time.Hour), UpdatedAt: now.Add(-time.Minute)}, Current},
		{"five-hour window reset since", Usage{FiveHour: w(98, -time.Minute), UpdatedAt: now.Add(-time.Hour)}, Old},
		{"five hours old, no reset time", Usage{FiveHour: w(20, 0), UpdatedAt: now.Add(-FiveHours)}, Old},
		{"weekly alone, an hour old", Usage{SevenDay: w(13, 48*time.Hour), UpdatedAt: now.Add(-time.Hour)}, Current},
		{"weekly alone, six hours old", Usage{SevenDay: w(13, 48*time.Hour), UpdatedAt: now.Add(-6 * time.Hour)}, Old},
		{"no time of report", Usage{FiveHour: w(1, time.Hour)}, Old},
	} {
		if got := c.u.Freshness(now); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestFreeAt(t *testing.T) {
	now := time.Date(2030, 3, 17, 14, 0, 0, 0, time.UTC)
	u := Usage{FiveHour: &Window{UsedPercent: 100, ResetsAt: now.Add(time.Hour)},
		SevenDay: &Window{UsedPercent: 97, ResetsAt: now.Add(48 * time.Hour)}}
	if at, ok := u.FreeAt(now, Busy); !ok || !at.Equal(now.Add(48*time.Hour)) {
		t.Errorf("both past: %v %v, want the later reset", at, ok)
	}
	if at, ok := u.FreeAt(now, 100); !ok || !at.Equal(now.Add(time.Hour)) {
		t.Errorf("at 100: %v %v, want the five-hour reset", at, ok)
	}
	if _, ok := (Usage{FiveHour: &Window{UsedPercent: 10}}).FreeAt(now, Busy); ok {
		t.Error("a free account has no time to be free at")
	}
	if _, ok := (Usage{FiveHour: &Window{UsedPercent: 99}}).FreeAt(now, Busy); ok {
		t.Error("a window with no reset time frees at no known time")
	}
	if !u.Limited(now) || u.Limited(now.Add(2*time.Hour)) {
		t.Error("Limited")
	}
}

func TestLongSaysSince(t *testing.T) {
	now := time.Date(2030, 3, 17, 14, 0, 0, 0, time.UTC)
	old := Usage{FiveHour: &Window{UsedPercent: 98, ResetsAt: now.Add(-time.Minute)}, UpdatedAt: now.Add(-2 * time.Hour)}
	if got := old.Long(now); !strings.HasPrefix(got, "old: 5h 98% as of ") || !strings.HasSuffix(got, ", 2 h ago; no interactive session has reported since") {
		t.Errorf("old: %q", got)
	}
	if got := (Usage{}).Long(now); got != "unknown: no interactive session has reported ever" {
		t.Errorf("unknown: %q", got)
	}
	if got := old.Brief(now); !strings.HasPrefix(got, "usage unknown, no interactive session has reported since ") {
		t.Errorf("brief: %q", got)
	}
	if got := string(old.ReportJSON(now)); !strings.Contains(got, `"state":"old"`) {
		t.Errorf("json: %s", got)
	}
}
