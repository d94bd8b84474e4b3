package usage

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestFromStatus(t *testing.T) {
	for _, c := range []struct {
		name, in string
		ok       bool
		five     float64
		reset    int64
		seven    bool
	}{
		{"both", `{"rate_limits":{"five_hour":{"used_percentage":42,"resets_at":1900000000},"seven_day":{"used_percentage":13.5,"resets_at":1900500000}}}`, true, 42, 1900000000, true},
		{"five only", `{"rate_limits":{"five_hour":{"used_percentage":7}}}`, true, 7, 0, false},
		{"none (2.0.77, an API key)", `{"model":{"id":"x"}}`, false, 0, 0, false},
		{"over 100 is 100", `{"rate_limits":{"five_hour":{"used_percentage":180,"resets_at":1}}}`, true, 100, 1, false},
		{"a string is not a figure", `{"rate_limits":{"five_hour":{"used_percentage":"42"}}}`, false, 0, 0, false},
		{"milliseconds are not seconds", `{"rate_limits":{"five_hour":{"used_percentage":1,"resets_at":1900000000000}}}`, true, 1, 0, false},
		{"not JSON", `{"rate_limits":`, false, 0, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			u, ok := FromStatus([]byte(c.in))
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v", ok, c.ok)
			}
			if !ok {
				return
			}
			if u.FiveHour.UsedPercent != c.five {
				t.Errorf("five-hour = %v, want %v", u.FiveHour.UsedPercent, c.five)
			}
			if got := u.FiveHour.ResetsAt; (c.reset == 0) != got.IsZero() || (c.reset != 0 && got.Unix() != c.reset) {
				t.Errorf("resets at %v, want %d", got, c.reset)
			}
			if (u.SevenDay != nil) != c.seven {
				t.Errorf("seven-day = %v, want known %v", u.SevenDay, c.seven)
			}
		})
	}
}

func TestRecordRoundTrip(t *testing.T) {
	dir := t.TempDir()
	// 3h46m40s before the five-hour reset below, 6d22h40m before the weekly.
	now := time.Date(2030, 3, 17, 14, 0, 0, 0, time.UTC)
	u, _ := FromStatus([]byte(`{"rate_limits":{"five_hour":{"used_percentage":42,"resets_at":1900000000},"seven_day":{"used_percentage":13,"resets_at":1900500000}}}`))
	if err := Record(dir, u, now); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(Path(dir))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("record: %v, mode %v; want 0600", err, st.Mode().Perm())
	}
	got, err := Read(dir, now)
	if err != nil {
		t.Fatal(err)
	}
	if !got.UpdatedAt.Equal(now) || got.FiveHour.UsedPercent != 42 || got.SevenDay.ResetsAt.Unix() != 1900500000 {
		t.Fatalf("read back %+v %+v %+v", got, got.FiveHour, got.SevenDay)
	}
	// The same figures a second later: nothing written.
	if err := Record(dir, u, now.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if got, _ := Read(dir, now); !got.UpdatedAt.Equal(now) {
		t.Fatalf("rewritten for the same figures: %v", got.UpdatedAt)
	}
	// A minute later the age is renewed; new figures at once.
	if err := Record(dir, u, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got, _ := Read(dir, now); !got.UpdatedAt.Equal(now.Add(time.Minute)) {
		t.Fatalf("not renewed after a minute: %v", got.UpdatedAt)
	}
	u.FiveHour.UsedPercent = 43
	if err := Record(dir, u, now.Add(61*time.Second)); err != nil {
		t.Fatal(err)
	}
	if got, _ := Read(dir, now); got.FiveHour.UsedPercent != 43 {
		t.Fatalf("new figure not recorded: %v", got.FiveHour.UsedPercent)
	}
}

func TestReadUnknown(t *testing.T) {
	u, err := Read(t.TempDir(), time.Now())
	if err != nil || u.Known() {
		t.Fatalf("Read of nothing = %+v, %v", u, err)
	}
	if got := string(u.JSON()); got != `{"fiveHour":null,"sevenDay":null,"updatedAt":null}`+"\n" {
		t.Fatalf("JSON = %s", got)
	}
	if u.Long(time.Now()) != "unknown: no interactive session has reported ever" || u.Short(time.Now()) != "" || u.Busiest(time.Now()) != -1 {
		t.Fatal("unknown usage reads as known")
	}
}

func TestUsedAfterReset(t *testing.T) {
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	u := Usage{FiveHour: &Window{UsedPercent: 97, ResetsAt: now.Add(-time.Second)}, SevenDay: &Window{UsedPercent: 40, ResetsAt: now.Add(time.Hour)}, UpdatedAt: now.Add(-2 * time.Hour)}
	if got := u.Short(now); got != "5h 0% · 7d 40%" {
		t.Fatalf("Short = %q", got)
	}
	if f, s := u.Headroom(now); f != 100 || s != 60 {
		t.Fatalf("Headroom = %v, %v", f, s)
	}
	if got := (Usage{}).Headroom; true {
		f, s := got(now)
		if f != 50 || s != 50 {
			t.Fatalf("unknown headroom = %v, %v", f, s)
		}
	}
}

func FuzzFromStatus(f *testing.F) {
	f.Add([]byte(`{"rate_limits":{"five_hour":{"used_percentage":42,"resets_at":1900000000},"seven_day":{"used_percentage":13,"resets_at":1900500000}}}`))
	f.Add([]byte(`{"rate_limits":{"five_hour":{"used_percentage":1e308,"resets_at":-5}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		u, ok := FromStatus(data)
		if ok != u.Known() {
			t.Fatal("ok disagrees with Known")
		}
		for _, w := range []*Window{u.FiveHour, u.SevenDay} {
			if w != nil && (w.UsedPercent < 0 || w.UsedPercent > 100) {
				t.Fatalf("share out of range: %v", w.UsedPercent)
			}
		}
		// What is recorded reads back the same.
		back, err := decode(u.JSON())
		if err != nil || !same(back.FiveHour, u.FiveHour) || !same(back.SevenDay, u.SevenDay) {
			t.Fatalf("round trip: %+v → %s → %+v, %v", u, u.JSON(), back, err)
		}
	})
}

func TestRecordMerges(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	r5, r7 := now.Add(time.Hour), now.Add(72*time.Hour)
	report := func(five, seven *Window, at time.Time) Usage {
		t.Helper()
		if err := Record(dir, Usage{FiveHour: five, SevenDay: seven}, at); err != nil {
			t.Fatal(err)
		}
		u, err := Read(dir, at)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	u := report(&Window{91, r5}, &Window{97, r7}, now)
	// An idle session repeats an older, lower figure of the same window.
	u = report(&Window{12, r5}, &Window{97, r7}, now.Add(2*time.Minute))
	if u.FiveHour.UsedPercent != 91 {
		t.Fatalf("a lower share of the same window replaced a higher one: %v", u.FiveHour.UsedPercent)
	}
	// A report without the weekly window keeps the one recorded.
	u = report(&Window{40, r5}, nil, now.Add(3*time.Minute))
	if u.SevenDay == nil || u.SevenDay.UsedPercent != 97 {
		t.Fatalf("a report without the weekly window erased it: %+v", u.SevenDay)
	}
	// A new window (a later reset) starts again from its own share.
	u = report(&Window{3, r5.Add(5 * time.Hour)}, nil, now.Add(6*time.Hour))
	if u.FiveHour.UsedPercent != 3 {
		t.Fatalf("a new window's share was not taken: %v", u.FiveHour.UsedPercent)
	}
	// An earlier window's figures, reported late, do not come back.
	u = report(&Window{99, r5}, nil, now.Add(6*time.Hour+time.Minute))
	if u.FiveHour.UsedPercent != 3 {
		t.Fatalf("an earlier window's figure replaced the current one: %v", u.FiveHour.UsedPercent)
	}
}

func TestRecordSweepsTemps(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	old := filepath.Join(dir, "."+FileName+"12345")
	fresh := filepath.Join(dir, "."+FileName+"67890")
	for _, p := range []string{old, fresh} {
		if err := os.WriteFile(p, []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(old, now.Add(-time.Hour), now.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := Record(dir, Usage{FiveHour: &Window{UsedPercent: 1}}, now); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("a temporary file an hour old was left: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a temporary file of a write that may still run was removed: %v", err)
	}
}

func TestStoredClamped(t *testing.T) {
	u, err := decode([]byte(`{"fiveHour":{"usedPercent":-1e300,"resetsAt":null},"sevenDay":{"usedPercent":1e300}}`))
	if err != nil || u.FiveHour.UsedPercent != 0 || u.SevenDay.UsedPercent != 100 {
		t.Fatalf("decode = %+v %+v, %v", u.FiveHour, u.SevenDay, err)
	}
}

func TestBelievable(t *testing.T) {
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name         string
		five, seven  time.Time
		keep5, keep7 bool
	}{
		{"within the windows", now.Add(4 * time.Hour), now.Add(6 * 24 * time.Hour), true, true},
		{"at their lengths and the slack", now.Add(FiveHours + Slack), now.Add(SevenDays + Slack), true, true},
		{"a second past", now.Add(FiveHours + Slack + time.Second), now.Add(SevenDays + Slack + time.Second), false, false},
		{"a five-hour window a day ahead, a weekly one in time", now.Add(24 * time.Hour), now.Add(24 * time.Hour), false, true},
		{"the year 5138", time.Unix(99999999999, 0), time.Unix(99999999999, 0), false, false},
		{"no reset time, or one passed", time.Time{}, now.Add(-time.Hour), true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := Usage{FiveHour: &Window{100, c.five}, SevenDay: &Window{100, c.seven}, UpdatedAt: now}
			b := u.Believable(now)
			if (b.FiveHour != nil) != c.keep5 || (b.SevenDay != nil) != c.keep7 {
				t.Fatalf("Believable kept five-hour %v, weekly %v; want %v, %v", b.FiveHour != nil, b.SevenDay != nil, c.keep5, c.keep7)
			}
			if u.FiveHour == nil || u.SevenDay == nil {
				t.Fatal("Believable changed the Usage it was given")
			}
		})
	}
	if b := (Usage{}).Believable(now); b.Known() {
		t.Fatalf("unknown usage became known: %+v", b)
	}
}

// TestRecordFarReset: one report of a reset further ahead than its window
// is long (the year 5138) held the account at 100% for good: Used believed
// the reset, and Record took every later, true report for an older window's.
func TestRecordFarReset(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	far := time.Unix(99999999999, 0).UTC()
	if err := Record(dir, Usage{FiveHour: &Window{100, far}, SevenDay: &Window{100, far}}, now); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(Path(dir)); !os.IsNotExist(err) {
		t.Fatalf("a report of nothing believable was recorded: %v", err)
	}
	// One window far ahead: the other is recorded.
	if err := Record(dir, Usage{FiveHour: &Window{100, far}, SevenDay: &Window{30, now.Add(72 * time.Hour)}}, now); err != nil {
		t.Fatal(err)
	}
	if u, _ := Read(dir, now); u.FiveHour != nil || u.SevenDay == nil || u.SevenDay.UsedPercent != 30 {
		t.Fatalf("read back %+v", u)
	}
	// A record an earlier launcher kept with the reset far ahead.
	poisoned := []byte(`{"fiveHour":{"usedPercent":100,"resetsAt":"5138-11-16T09:46:39Z"},"sevenDay":{"usedPercent":100,"resetsAt":"5138-11-16T09:46:39Z"},"updatedAt":"2026-01-01T00:00:00Z"}`)
	if err := os.WriteFile(Path(dir), poisoned, 0o600); err != nil {
		t.Fatal(err)
	}
	u, err := Read(dir, now)
	if err != nil || u.Known() || u.Busiest(now) != -1 {
		t.Fatalf("a reset in 5138 still counts: %+v, %v", u, err)
	}
	// The next sane report is taken.
	r5 := now.Add(2 * time.Hour)
	if err := Record(dir, Usage{FiveHour: &Window{20, r5}}, now); err != nil {
		t.Fatal(err)
	}
	u, _ = Read(dir, now)
	if u.FiveHour == nil || u.FiveHour.UsedPercent != 20 || !u.FiveHour.ResetsAt.Equal(r5) || u.SevenDay != nil {
		t.Fatalf("after a sane report: %+v", u)
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"fiveHour":{"usedPercent":42,"resetsAt":"2026-11-26T12:00:00Z"},"sevenDay":{"usedPercent":13,"resetsAt":"2026-11-30T09:00:00Z"},"updatedAt":"2026-11-26T10:00:00Z"}`))
	f.Add([]byte(`{"fiveHour":{"usedPercent":100,"resetsAt":"5138-11-16T09:46:39Z"},"sevenDay":{"usedPercent":1e300,"resetsAt":null},"updatedAt":"x"}`))
	f.Add([]byte(`{"fiveHour":null,"sevenDay":{"usedPercent":-1}}`))
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(Path(dir), data, 0o600); err != nil {
			t.Fatal(err)
		}
		u, err := Read(dir, now)
		if err != nil {
			if u.Known() {
				t.Fatalf("an unreadable record has figures: %+v", u)
			}
			return
		}
		for _, p := range []struct {
			w      *Window
			length time.Duration
		}{{u.FiveHour, FiveHours}, {u.SevenDay, SevenDays}} {
			if p.w == nil {
				continue
			}
			if p.w.UsedPercent < 0 || p.w.UsedPercent > 100 {
				t.Fatalf("share out of range: %v", p.w.UsedPercent)
			}
			if p.w.ResetsAt.After(now.Add(p.length + Slack)) {
				t.Fatalf("a reset %v ahead was believed", p.w.ResetsAt.Sub(now))
			}
		}
		// A record made of it reads back the same.
		if err := Record(dir, u, now); err != nil {
			t.Fatal(err)
		}
		back, err := Read(dir, now)
		if err != nil || u.Known() && (!same(back.FiveHour, u.FiveHour) || !same(back.SevenDay, u.SevenDay)) {
			t.Fatalf("round trip: %+v → %+v, %v", u, back, err)
		}
	})
}
