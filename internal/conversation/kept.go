package conversation

import (
	"path/filepath"
	"strings"
)

// KeptPrefix begins the name of the dir, in a worktree's archive
// (<account>/archive/<repo>/<worktree>/kept-<fingerprint of the runtime>),
// where the account keeps its own copy of each transcript of a runtime the
// launcher made for it (worktree.KeepCopies): a hard link, so that `rm -rf`
// of the worktree and `git worktree prune` lose no conversation.
const KeptPrefix = "kept-"

// kept lists the account's copies of its runtimes' transcripts, but not one
// whose conversation a runtime the launcher made still holds (ids, by the
// file's name): a runtime's transcript and the account's copy of it are one
// conversation, listed once, as the runtime's.
func kept(a Account, ids map[string]bool) []transcript {
	var out []transcript
	dirs, _ := filepath.Glob(filepath.Join(a.Dir, "archive", "*", "*", KeptPrefix+"*"))
	for _, d := range dirs {
		saved := ReadRemoved(d)
		t := transcript{account: a.Name, accountDir: a.Dir, where: InArchive, verified: true, saved: saved}
		if saved != nil {
			t.worktree, t.commonDir, t.vouched = saved.Path, saved.CommonDir, saved.Vouched
		}
		for _, c := range transcriptsIn(d, t) {
			if !ids[filepath.Base(c.path)] {
				out = append(out, c)
			}
		}
	}
	return out
}

// keptIDs are the names of the transcripts ts of runtimes the launcher made
// (verified), which the account's copies of the same names stand behind.
func keptIDs(ts []transcript) map[string]bool {
	ids := map[string]bool{}
	for _, t := range ts {
		if t.where == InRuntime && t.verified {
			ids[filepath.Base(t.path)] = true
		}
	}
	return ids
}

// IsKept reports whether path is one of the account's kept copies (below a
// kept-* dir of its archive).
func IsKept(path string) bool {
	for _, part := range strings.Split(filepath.ToSlash(path), "/") {
		if strings.HasPrefix(part, KeptPrefix) {
			return true
		}
	}
	return false
}
