package conversation

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestKeep(t *testing.T) {
	day := 24 * time.Hour
	for _, c := range []struct {
		settings string
		want     time.Duration
	}{
		{"", DefaultCleanupDays * day},
		{`{}`, DefaultCleanupDays * day},
		{`{"cleanupPeriodDays": 90}`, 90 * day},
		{`{"cleanupPeriodDays": 7}`, 7 * day},
		{`{"cleanupPeriodDays": 0}`, 0},                           // 2.0.77: no cleanup
		{`{"cleanupPeriodDays": -1}`, DefaultCleanupDays * day},   // invalid: Claude's default
		{`{"cleanupPeriodDays": 1.5}`, DefaultCleanupDays * day},  // invalid: Claude's default
		{`{"cleanupPeriodDays": "90"}`, DefaultCleanupDays * day}, // invalid: Claude's default
		{`{"cleanupPeriodDays": 1e300}`, 0},                       // forever
		{`{"cleanupPeriodDays": 90`, DefaultCleanupDays * day},    // unparsable
	} {
		dir := t.TempDir()
		if c.settings != "" {
			if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(c.settings), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if got := Keep(dir); got != c.want {
			t.Errorf("Keep(%s) = %v, want %v", c.settings, got, c.want)
		}
	}
}

func TestKeepFirstThatSays(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	_ = os.WriteFile(filepath.Join(a, "settings.json"), []byte(`{"model":"opus"}`), 0o600)
	_ = os.WriteFile(filepath.Join(b, "settings.json"), []byte(`{"cleanupPeriodDays": 60}`), 0o600)
	if got := Keep(a, b); got != 60*24*time.Hour {
		t.Errorf("Keep = %v, want the second dir's 60 days", got)
	}
}

func TestDue(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	for _, c := range []struct {
		age, keep time.Duration
		want      bool
	}{
		{40 * day, 30 * day, true},
		{24 * day, 30 * day, true}, // within a week of deletion
		{22 * day, 30 * day, false},
		{40 * day, 90 * day, false}, // a longer setting is honoured
		{400 * day, 0, false},       // no cleanup
		{3 * day, 4 * day, true},    // a short period: half of it is spare
		{day, 4 * day, false},
	} {
		if got := Due(now.Add(-c.age), now, c.keep); got != c.want {
			t.Errorf("Due(age %v, keep %v) = %v, want %v", c.age, c.keep, got, c.want)
		}
	}
}

func TestRefreshSideFiles(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "id.jsonl")
	side := filepath.Join(dir, "id", "subagents", "a.jsonl")
	young := filepath.Join(dir, "id", "young.txt")
	for _, p := range []string{tr, side, young} {
		_ = os.MkdirAll(filepath.Dir(p), 0o700)
		_ = os.WriteFile(p, []byte("x"), 0o600)
	}
	now := time.Now()
	old := now.Add(-40 * 24 * time.Hour)
	recent := now.Add(-time.Hour)
	_ = os.Chtimes(tr, old, old)
	_ = os.Chtimes(side, old, old)
	_ = os.Chtimes(young, recent, recent)
	if err := Refresh(tr, now, 30*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]time.Time{tr: now, side: now, young: recent} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if !fi.ModTime().Equal(want) {
			t.Errorf("%s dated %v, want %v", p, fi.ModTime(), want)
		}
	}
}

// FuzzKeep: whatever settings.json holds, Keep neither panics nor returns a
// negative period.
func FuzzKeep(f *testing.F) {
	for _, s := range []string{`{"cleanupPeriodDays": 30}`, `{"cleanupPeriodDays": 0}`, `{"cleanupPeriodDays": -5}`, `{"cleanupPeriodDays": 9e18}`, `[1]`, `{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		if k := Keep(dir); k < 0 {
			t.Fatalf("Keep(%q) = %v", s, k)
		}
	})
}
