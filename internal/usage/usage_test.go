package usage

import (
	"os"
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
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	u, _ := FromStatus([]byte(`{"rate_limits":{"five_hour":{"used_percentage":42,"resets_at":1900000000},"seven_day":{"used_percentage":13,"resets_at":1900500000}}}`))
	if err := Record(dir, u, now); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(Path(dir))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("record: %v, mode %v; want 0600", err, st.Mode().Perm())
	}
	got, err := Read(dir)
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
	if got, _ := Read(dir); !got.UpdatedAt.Equal(now) {
		t.Fatalf("rewritten for the same figures: %v", got.UpdatedAt)
	}
	// A minute later the age is renewed; new figures at once.
	if err := Record(dir, u, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got, _ := Read(dir); !got.UpdatedAt.Equal(now.Add(time.Minute)) {
		t.Fatalf("not renewed after a minute: %v", got.UpdatedAt)
	}
	u.FiveHour.UsedPercent = 43
	if err := Record(dir, u, now.Add(61*time.Second)); err != nil {
		t.Fatal(err)
	}
	if got, _ := Read(dir); got.FiveHour.UsedPercent != 43 {
		t.Fatalf("new figure not recorded: %v", got.FiveHour.UsedPercent)
	}
}

func TestReadUnknown(t *testing.T) {
	u, err := Read(t.TempDir())
	if err != nil || u.Known() {
		t.Fatalf("Read of nothing = %+v, %v", u, err)
	}
	if got := string(u.JSON()); got != `{"fiveHour":null,"sevenDay":null,"updatedAt":null}`+"\n" {
		t.Fatalf("JSON = %s", got)
	}
	if u.Long(time.Now()) != "unknown" || u.Short(time.Now()) != "" || u.Busiest(time.Now()) != -1 {
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
