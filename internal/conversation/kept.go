package conversation

import (
	"path/filepath"

	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitctx"
)

// KeptPrefix begins the name of the dir, in a worktree's archive
// (<account>/archive/<repo>/<worktree>/kept-<fingerprint of the runtime>),
// where the account keeps its own copy of each transcript of a runtime the
// launcher made for it (worktree.KeepCopies): a hard link, so that `rm -rf`
// of the worktree and `git worktree prune` lose no conversation.
const KeptPrefix = "kept-"

// kept lists the account's copies of its runtimes' transcripts, but not one
// whose own runtime, a runtime the launcher made, still holds it (ids, by
// its copies dir and the file's name): a runtime's transcript and the
// account's copy of it are one conversation, listed once, as the runtime's.
// A copy of the same conversation in another runtime (a handoff) is left
// to byID, which keeps the newest by content.
// Only those named only.jsonl, when only is not "" (FindID).
func kept(a Account, only string, ids map[string]bool, ts []transcript) []transcript {
	var out []transcript
	var byName map[string][]string // <id>.jsonl → the runtimes' transcripts of that name
	dirs, _ := filepath.Glob(filepath.Join(a.Dir, "archive", "*", "*", KeptPrefix+"*"))
	for _, d := range dirs {
		t := transcript{account: a.Name, accountDir: a.Dir, where: InArchive, verified: true, only: only}
		found := transcriptsIn(d, t)
		if len(found) == 0 {
			continue // a record alone: the runtime has no conversation yet
		}
		// Where the worktree was, as the account's record of the runtime
		// said, and its branch (or commit) as of its last session that
		// went on with a conversation: what resume makes it again from.
		if rec := ReadRemoved(d); rec != nil {
			for i := range found {
				found[i].worktree, found[i].commonDir, found[i].vouched, found[i].saved = rec.Path, rec.CommonDir, rec.Vouched, rec
			}
		}
		for _, c := range found {
			if ids[filepath.Join(filepath.Base(d), filepath.Base(c.path))] {
				continue
			}
			if byName == nil {
				byName = runtimeNames(ts)
			}
			if linkOfAny(c.path, byName[filepath.Base(c.path)]) {
				// Its runtime holds it under another path (a repository
				// moved whole: the copies dir is named for where the
				// runtime was): the very file, one conversation.
				continue
			}
			out = append(out, c)
		}
	}
	return out
}

// keptIDs names, as <copies dir>/<file>, the transcripts ts of runtimes
// the launcher made (verified), which the account's copies of the same
// runtime and name stand behind. A runtime's transcript is
// <runtime>/projects/<key>/<id>.jsonl; its copies dir is named for the
// runtime's fingerprint.
func keptIDs(ts []transcript) map[string]bool {
	ids := map[string]bool{}
	for _, t := range ts {
		if t.where == InRuntime && t.verified {
			rt := filepath.Dir(filepath.Dir(filepath.Dir(t.path)))
			ids[filepath.Join(KeptPrefix+gitctx.Fingerprint(rt), filepath.Base(t.path))] = true
		}
	}
	return ids
}

// runtimeNames groups the transcripts of runtimes the launcher made by
// their file's name.
func runtimeNames(ts []transcript) map[string][]string {
	m := map[string][]string{}
	for _, t := range ts {
		if t.where == InRuntime && t.verified {
			n := filepath.Base(t.path)
			m[n] = append(m[n], t.path)
		}
	}
	return m
}

// linkOfAny reports whether path is the same file as one of paths (a hard
// link to it).
func linkOfAny(path string, paths []string) bool {
	for _, p := range paths {
		if fsx.SameFile(path, p) {
			return true
		}
	}
	return false
}
