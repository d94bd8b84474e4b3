package conversation

import (
	"path/filepath"
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
		t := transcript{account: a.Name, accountDir: a.Dir, where: InArchive, verified: true}
		found := transcriptsIn(d, t)
		if len(found) == 0 {
			continue // a record alone: the runtime has no conversation yet
		}
		// Where the worktree was, as the account's record of the runtime
		// said; its branch is the transcript's own, the latest it ran on
		// (the record's is as of when the copies were last made).
		if rec := ReadRemoved(d); rec != nil {
			for i := range found {
				found[i].worktree, found[i].commonDir, found[i].vouched = rec.Path, rec.CommonDir, rec.Vouched
			}
		}
		for _, c := range found {
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
