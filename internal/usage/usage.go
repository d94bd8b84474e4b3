// Package usage keeps an account's rate-limit figures: what Claude last
// reported of its five-hour and weekly windows, recorded as sessions run and
// read by accounts, ps, the status line and run --account auto.
//
// Claude reports them only to its status-line command (rate_limits in the
// status JSON, from 2.1.80: claudever.RateLimitsInStatus; for a subscriber's
// login, after the first answer of a session), from the
// anthropic-ratelimit-unified-{5h,7d}-{utilization,reset} headers of its API
// answers. Nothing here goes to the network.
package usage

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/jsonx"
)

// FileName is the usage record's file in the account dir.
const FileName = ".claude-account-usage.json"

// Warn is the share of a window past which the status line warns, and Busy
// the share past which a launch suggests an account with more headroom.
const (
	Warn = 90.0
	Busy = 95.0
)

// The windows' lengths, and Slack: how much further ahead than its length a
// window's reset may be and still be believed. The clocks of this machine and
// of Anthropic's servers may differ by minutes, and a reset may be rounded up
// to the hour; an hour covers both and costs nothing, since a window believed
// in error still ends within its length and an hour.
const (
	FiveHours = 5 * time.Hour
	SevenDays = 7 * 24 * time.Hour
	Slack     = time.Hour
)

// Window is one rate-limit window as Claude reported it.
type Window struct {
	UsedPercent float64   // 0–100
	ResetsAt    time.Time // zero when Claude gave none
}

// Usage is an account's last reported figures; a nil window is unknown.
type Usage struct {
	FiveHour, SevenDay *Window
	UpdatedAt          time.Time // when a session last reported them; zero: never
}

// Known reports whether any figure was ever recorded.
func (u Usage) Known() bool { return u.FiveHour != nil || u.SevenDay != nil }

// Path is the usage record of the account kept in accountDir.
func Path(accountDir string) string { return filepath.Join(accountDir, FileName) }

// FromStatus reads rate_limits from Claude's status-line JSON; ok is false
// when it carries none (an older release, an API key, before the first
// answer).
func FromStatus(status []byte) (u Usage, ok bool) {
	if !gjson.ValidBytes(status) {
		return Usage{}, false
	}
	rl := gjson.GetBytes(status, "rate_limits")
	u.FiveHour = window(rl.Get("five_hour"))
	u.SevenDay = window(rl.Get("seven_day"))
	return u, u.Known()
}

func window(v gjson.Result) *Window {
	p := v.Get("used_percentage")
	if p.Type != gjson.Number || math.IsNaN(p.Float()) || math.IsInf(p.Float(), 0) {
		return nil
	}
	w := &Window{UsedPercent: math.Max(0, math.Min(100, p.Float()))}
	if r := v.Get("resets_at"); r.Type == gjson.Number && r.Float() > 0 && r.Float() < 1e11 {
		w.ResetsAt = time.Unix(int64(r.Float()), 0).UTC()
	}
	return w
}

// Believable is u without the windows whose reset is further from now than
// the window is long (plus Slack): a five-hour window cannot reset more
// than five hours ahead, nor a weekly one more than a week. Such a reset
// (one report said the year 5138) is not clamped but dropped, with its
// share: a figure whose reset time is wrong cannot be told to belong to the
// current window, and kept to the clamped time it would stand for a whole
// window, over the true reports of the window (whose earlier reset Record
// takes for an older window's), at 100% while nothing ran on the account.
// Dropped, the window is unknown until the next sane report, which then
// counts at once. A window with no reset time is believed as it is.
func (u Usage) Believable(now time.Time) Usage {
	u.FiveHour = u.FiveHour.believable(now, FiveHours)
	u.SevenDay = u.SevenDay.believable(now, SevenDays)
	return u
}

func (w *Window) believable(now time.Time, length time.Duration) *Window {
	if w == nil || w.ResetsAt.After(now.Add(length+Slack)) {
		return nil
	}
	return w
}

// Read loads an account's record as believable at now (Believable: a
// record an earlier launcher kept with a reset far ahead no longer holds
// the account); a missing one is an unknown Usage.
func Read(accountDir string, now time.Time) (Usage, error) {
	data, err := fsx.ReadFile(Path(accountDir))
	if errors.Is(err, fs.ErrNotExist) {
		return Usage{}, nil
	}
	if err != nil {
		return Usage{}, err
	}
	u, err := decode(data)
	return u.Believable(now), err
}

func decode(data []byte) (Usage, error) {
	if !gjson.ValidBytes(data) {
		return Usage{}, errors.New("not valid JSON")
	}
	doc := gjson.ParseBytes(data)
	u := Usage{FiveHour: stored(doc.Get("fiveHour")), SevenDay: stored(doc.Get("sevenDay"))}
	u.UpdatedAt, _ = time.Parse(time.RFC3339, doc.Get("updatedAt").String())
	return u, nil
}

func stored(v gjson.Result) *Window {
	p := v.Get("usedPercent")
	if p.Type != gjson.Number {
		return nil
	}
	w := &Window{UsedPercent: math.Max(0, math.Min(100, p.Float()))}
	w.ResetsAt, _ = time.Parse(time.RFC3339, v.Get("resetsAt").String())
	return w
}

// Record makes u the account's figures, as of now, merged with what is
// recorded: a window the report lacks (or whose reset is not Believable)
// keeps its figure, and within one window (the same reset time) the share
// only grows — an idle session's status line repeats the figures of its
// last answer, which another session's later answers may have passed. It
// writes only when a figure changed or the record is a minute old: Claude
// runs its status line every few hundred milliseconds while a conversation
// changes.
func Record(accountDir string, u Usage, now time.Time) error {
	u = u.Believable(now)
	if !u.Known() {
		return nil
	}
	old, err := Read(accountDir, now)
	if err == nil {
		u.FiveHour = newer(old.FiveHour, u.FiveHour)
		u.SevenDay = newer(old.SevenDay, u.SevenDay)
		if same(old.FiveHour, u.FiveHour) && same(old.SevenDay, u.SevenDay) &&
			now.Sub(old.UpdatedAt) < time.Minute && !now.Before(old.UpdatedAt) {
			return nil
		}
	}
	u.UpdatedAt = now
	sweep(accountDir, now)
	return fsx.WriteFile(Path(accountDir), u.JSON(), 0o600)
}

// Observe records the figures of Claude's status-line JSON as the usage of
// the account kept in accountDir, and returns the usage to show: those
// figures when any is Believable, else the account's record. A record that
// cannot be written costs the figure, never the line.
func Observe(accountDir string, status []byte, now time.Time) Usage {
	if u, _ := FromStatus(status); u.Believable(now).Known() {
		_ = Record(accountDir, u, now)
		return u.Believable(now)
	}
	u, _ := Read(accountDir, now)
	return u
}

// newer is the window to keep of a recorded one and a reported one: the
// reported one, but for a report that lacks it, that comes from an earlier
// window, or that shows less of the same window.
func newer(old, got *Window) *Window {
	switch {
	case got == nil:
		return old
	case old == nil:
		return got
	case got.ResetsAt.Before(old.ResetsAt):
		return old
	case got.ResetsAt.Equal(old.ResetsAt) && got.UsedPercent < old.UsedPercent:
		return old
	}
	return got
}

// sweep removes what a write killed between its temporary file and the
// rename left (Claude aborts a status line that runs when the next one is
// due): temporary files of the record older than a minute.
func sweep(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !fsx.IsTemp(e.Name(), FileName) {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > time.Minute {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

func same(a, b *Window) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.UsedPercent == b.UsedPercent && a.ResetsAt.Equal(b.ResetsAt)
}

// JSON is the record as accounts --json shows it under "usage": every field
// present, null where unknown.
func (u Usage) JSON() []byte {
	return append(jsonx.Object(false, u.fields()...), '\n')
}

func (u Usage) fields() []jsonx.Field {
	return []jsonx.Field{{Name: "fiveHour", Value: u.FiveHour.json()},
		{Name: "sevenDay", Value: u.SevenDay.json()},
		{Name: "updatedAt", Value: timeJSON(u.UpdatedAt)}}
}

func (w *Window) json() []byte {
	if w == nil {
		return []byte("null")
	}
	return jsonx.Object(false,
		jsonx.Field{Name: "usedPercent", Value: []byte(strconv.FormatFloat(w.UsedPercent, 'f', -1, 64))},
		jsonx.Field{Name: "resetsAt", Value: timeJSON(w.ResetsAt)})
}

func timeJSON(t time.Time) []byte {
	if t.IsZero() {
		return []byte("null")
	}
	return jsonx.String(t.UTC().Format(time.RFC3339))
}

// Used is the share of w in use at now: 0 once the window has reset, -1
// when unknown.
func (w *Window) Used(now time.Time) float64 {
	if w == nil {
		return -1
	}
	if !w.ResetsAt.IsZero() && !now.Before(w.ResetsAt) {
		return 0
	}
	return w.UsedPercent
}

// named is each known window with its short name, five-hour first.
func (u Usage) named() []struct {
	name string
	w    *Window
} {
	var out []struct {
		name string
		w    *Window
	}
	for _, p := range []struct {
		name string
		w    *Window
	}{{"5h", u.FiveHour}, {"7d", u.SevenDay}} {
		if p.w != nil {
			out = append(out, p)
		}
	}
	return out
}

// Short is the figures in a few words, "5h 42% · 7d 13%"; "" when unknown.
// A window that has reset since shows 0%.
func (u Usage) Short(now time.Time) string {
	var parts []string
	for _, p := range u.named() {
		parts = append(parts, p.name+" "+percent(p.w.Used(now)))
	}
	return strings.Join(parts, " · ")
}

// Long is the figures with each reset time and their age, for ps and
// accounts: "5h 42% (resets 14:05) · 7d 13% (resets Nov 30 09:00), 3 min
// ago"; Old ones as they were, with when and why they are old (see
// Freshness): "old: 5h 42% · 7d 13% as of 10:05, 6 h ago; no interactive
// session has reported since"; unknown ones since when: "unknown: no
// interactive session has reported ever".
func (u Usage) Long(now time.Time) string {
	switch u.Freshness(now) {
	case Unknown:
		return "unknown: " + u.Silence(now)
	case Old:
		var parts []string
		for _, p := range u.named() {
			parts = append(parts, p.name+" "+percent(p.w.UsedPercent))
		}
		when := "at an unknown time"
		if !u.UpdatedAt.IsZero() {
			when = Clock(u.UpdatedAt.Local(), now.Local()) + ", " + Age(now.Sub(u.UpdatedAt)) + " ago"
		}
		return "old: " + strings.Join(parts, " · ") + " as of " + when + "; no interactive session has reported since"
	}
	return u.Resets(now) + ", " + Age(now.Sub(u.UpdatedAt)) + " ago"
}

func percent(p float64) string { return strconv.FormatFloat(math.Round(p), 'f', 0, 64) + "%" }

// Clock is a time of day, with its date when it is not today.
func Clock(t, now time.Time) string {
	if t.YearDay() == now.YearDay() && t.Year() == now.Year() {
		return t.Format("15:04")
	}
	return t.Format("Jan 2 15:04")
}

// Age says how long ago, in the largest unit that fits.
func Age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(max(d, 0)/time.Second)) + " s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + " min"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + " h"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + " days"
}

// Headroom orders accounts for run --account auto: the five-hour window
// decides first, then the weekly one. Less used is more headroom; an
// unknown window counts as half used, so a known idle account goes first
// and a known busy one last.
func (u Usage) Headroom(now time.Time) (fiveHour, sevenDay float64) {
	return 100 - guess(u.FiveHour.Used(now)), 100 - guess(u.SevenDay.Used(now))
}

func guess(used float64) float64 {
	if used < 0 {
		return 50
	}
	return used
}

// Busiest is the larger share in use of the two windows at now, -1 when
// neither is known.
func (u Usage) Busiest(now time.Time) float64 {
	return math.Max(u.FiveHour.Used(now), u.SevenDay.Used(now))
}
