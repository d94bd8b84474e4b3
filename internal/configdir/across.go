package configdir

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitctx"
)

// A repository moved across file systems (mv there copies, then removes
// the original) arrives with a runtime of new inodes, which nothing tells
// from one an archive planted: it is set aside, unread, as a copy's is.
// But the account keeps its own copy of each transcript its Claude wrote
// (worktree.KeepCopies), and the account's record says which of its
// runtimes is gone from the work tree the arriving runtime's workspace.json
// names (runtimes.Record.GoneFrom: the binding only says where to look).
// A transcript of the same name in the arriving runtime that holds the very
// bytes of the account's copy (conversation.ByPrefix: Same) proves the
// repository already holds that conversation, no more and no less: the
// account's copy, brought into the fresh runtime, tells it nothing it did
// not have, and takes nothing of the repository's as the account's. Those,
// and only those, come along, under the key of the work tree where it is
// now, so that --continue, resume and sessions find them there, verified.
// Not one that merely begins with the account's (a copy that left the
// user's hands could come back with turns added: they would be listed as
// the user's own, and kept into the account), nor one the account's begins
// with (an old archive would learn the later turns): a genuine move keeps
// every byte, and anything else stays in the set-aside dir, listed
// unverified. A repository that merely names the user's deleted path holds
// none of the bytes, and gets nothing.

// twin is a file the account keeps of the gone runtime's conversations
// (a transcript, or a file of its side dir) and the file of the same name
// in the arriving runtime, proven one by their bytes.
type twin struct {
	Rel  string // below projects/: <key>/<id>.jsonl or <key>/<id>/<file>
	Kept string // the account's copy
	ID   string // the conversation, for a transcript; "" for a side file
}

// keptTwins lists the twins of the account's copies of the transcripts of
// gone, the runtime dir the record has gone from where dir's binding says
// dir came from; each read never through a link (dir came with the
// repository; a link there could name the account's own copy).
func keptTwins(accountDir, gone, dir string) []twin {
	dirs, _ := filepath.Glob(filepath.Join(accountDir, "archive", "*", "*", conversation.KeptPrefix+gitctx.Fingerprint(gone)))
	seen := map[string]bool{}
	var out []twin
	for _, d := range dirs {
		if rel, _ := filepath.Rel(accountDir, d); fsx.LinkIn(accountDir, filepath.Join(rel, "projects")) != "" {
			continue
		}
		root := filepath.Join(d, "projects")
		keys, _ := readDirNoLink(root)
		for _, k := range keys {
			files, _ := readDirNoLink(filepath.Join(root, k))
			for _, n := range files {
				id, ok := conversation.SessionFile(n)
				rel := filepath.Join(k, n)
				if !ok || seen[rel] {
					continue
				}
				t, ok := prove(filepath.Join(root, rel), dir, rel, true)
				if !ok {
					continue
				}
				seen[rel], t.ID = true, id
				out = append(out, t)
				out = append(out, sideTwins(root, dir, filepath.Join(k, id))...)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out
}

// prove is the twin of the account's file kept at <dir>/projects/rel,
// when its bytes prove it (conversation.ByPrefix).
func prove(kept, dir, rel string, lines bool) (twin, bool) {
	if fsx.LinkIn(dir, filepath.Join("projects", rel)) != "" {
		return twin{}, false
	}
	o, ok := conversation.ByPrefix(kept, filepath.Join(dir, "projects", rel), lines)
	return twin{Rel: rel, Kept: kept}, ok && o == conversation.Same
}

// sideTwins are the twins of the files of a transcript's side dir (<id>/:
// subagents' transcripts, tool results), each proven on its own: the
// transcript's proof says nothing of them.
func sideTwins(root, dir, side string) []twin {
	src := filepath.Join(root, side)
	if fi, err := os.Lstat(src); err != nil || !fi.IsDir() {
		return nil
	}
	var out []twin
	_ = filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if t, ok := prove(p, dir, rel, strings.HasSuffix(p, ".jsonl")); ok {
			out = append(out, t)
		}
		return nil
	})
	return out
}

// readDirNoLink lists the names of the entries of dir, a directory and no
// link.
func readDirNoLink(dir string) ([]string, error) {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return nil, err
	}
	des, err := os.ReadDir(dir)
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names, err
}

// bring plans the twins' coming along into the fresh runtime dir, from the
// account's copies (the runtime set aside holds the same bytes):
// copied, their time kept, under the key of where the work tree, old
// before, is now, top (newKey). It returns the ids of the conversations
// brought.
func bring(twins []twin, dir, old, top string) ([]Step, []string) {
	var steps []Step
	var ids []string
	made := map[string]bool{}
	from, to := conversation.Key(old, false), conversation.Key(top, false)
	for _, t := range twins {
		key, rest, _ := strings.Cut(t.Rel, string(filepath.Separator))
		src := t.Kept
		dst := filepath.Join(dir, "projects", newKey(key, from, to), rest)
		if parent := filepath.Dir(dst); !made[parent] {
			made[parent] = true
			steps = append(steps, Step{Op: Mkdir, Path: parent, Mode: 0o700, Why: "conversations brought along"})
		}
		steps = append(steps, Step{Op: Copy, Path: src, Target: dst, Why: "a conversation this repository holds, which the account keeps"})
		if t.ID != "" {
			ids = append(ids, t.ID)
		}
	}
	return steps, ids
}

// newKey is where a conversation kept under key k, of a runtime whose work
// tree was at the path keyed from, goes when it is at the one keyed to: a
// dir below the work tree keeps its place in the key (rekey's rule); a key
// Claude shortened, or not below the work tree, stays as it is.
func newKey(k, from, to string) string {
	if len(k) > 200 || k != from && !strings.HasPrefix(k, from+"-") {
		return k
	}
	if nk := to + k[len(from):]; len(nk) <= 200 {
		return nk
	}
	return k
}

// broughtNote says what came along from the gone runtime, and where the
// rest of the runtime set aside is.
func broughtNote(top, old, aside string, ids []string) string {
	n := fmt.Sprintf("the %d conversations", len(ids))
	if len(ids) == 1 {
		n = "the 1 conversation"
	}
	shown := ids
	if len(ids) > 3 {
		shown = append(ids[:3:3], fmt.Sprintf("and %d more", len(ids)-3))
	}
	return fmt.Sprintf("%s came here from %s, which is gone (moved across file systems?): brought %s the account keeps of it that this repository holds too (%s); anything else of its runtime is in %s: 'claude-account sessions' lists it, and 'claude-account resume ID --unverified' continues one here",
		top, old, n, strings.Join(shown, ", "), aside)
}
