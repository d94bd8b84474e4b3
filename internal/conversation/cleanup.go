package conversation

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/fsx"
)

// DefaultCleanupDays is how many days Claude keeps a transcript nobody
// touches when settings.json does not say (cleanupPeriodDays, 30 in every
// release we support): at its start (2.0.77) or ten minutes into a session
// (2.1.x), Claude deletes each projects/*/*.jsonl, and each file of a
// transcript's side dir, whose modification time is older than that.
const DefaultCleanupDays = 30

// Spare is how long a transcript the launcher puts where Claude looks is
// safe from that cleanup at least: one older than the cleanup period less
// Spare is put there with the current time, so that the next launch in
// that worktree, days later, still finds it.
const Spare = 7 * 24 * time.Hour

// Keep is how long Claude keeps an untouched transcript in a config dir, as
// the first settings.json of dirs that names cleanupPeriodDays says (the
// config dir's, then the account's, which runtimes link to); 0 means
// forever (0 turns cleanup off in 2.0.77; later releases refuse 0 and then
// skip cleanup). A longer setting is honoured: a transcript it keeps is put
// back with its own time, which the pickers sort by.
func Keep(dirs ...string) time.Duration {
	for _, d := range dirs {
		if d == "" {
			continue
		}
		data, err := fsx.ReadFile(filepath.Join(d, "settings.json"))
		if err != nil || !gjson.ValidBytes(data) {
			continue
		}
		v := gjson.GetBytes(data, "cleanupPeriodDays")
		if v.Type != gjson.Number {
			continue
		}
		days := v.Float()
		switch {
		case days == 0:
			return 0
		case days > 100*365:
			return 0 // as good as forever, and no overflow
		case days < 0 || days != float64(int64(days)):
			continue // invalid: Claude falls back to its default
		}
		return time.Duration(days) * 24 * time.Hour
	}
	return DefaultCleanupDays * 24 * time.Hour
}

// Due reports whether Claude's cleanup, keeping transcripts for keep (Keep),
// would delete a file last modified at mod within Spare of now: such a file
// is never the only copy the launcher leaves where Claude looks.
func Due(mod, now time.Time, keep time.Duration) bool {
	if keep <= 0 {
		return false
	}
	spare := Spare
	if spare > keep/2 {
		spare = keep / 2
	}
	return now.Sub(mod) > keep-spare
}

// Refresh gives the transcript at path, and each file of its side dir
// (<id>/: tool results, subagents, which the cleanup deletes file by file),
// the time now when Due says Claude's cleanup would soon delete it: the copy
// the launcher put where Claude looks then lives a full cleanup period, as
// if it had just been written.
func Refresh(path string, now time.Time, keep time.Duration) error {
	if err := refreshFile(path, now, keep); err != nil {
		return err
	}
	side := strings.TrimSuffix(path, ".jsonl")
	if fi, err := os.Lstat(side); err != nil || !fi.IsDir() {
		return nil
	}
	return filepath.WalkDir(side, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		return refreshFile(p, now, keep)
	})
}

func refreshFile(path string, now time.Time, keep time.Duration) error {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || !Due(fi.ModTime(), now, keep) {
		return err
	}
	return os.Chtimes(path, now, now)
}
