package launch

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/conversation"
)

// bring puts the conversation a session resumes where its Claude looks for
// it: Bring when a command chose one ('claude-account resume'), else the one
// named by --resume ID among Claude's arguments, when this config dir does
// not hold it under the key of the directory Claude starts in (claude
// --resume finds only what is under its own config dir, and before 2.1.223
// only under that key): it is looked for among the account's conversations
// (every worktree's runtime, the archive, the account dir) and copied here;
// one from the account's archive moves back, unless Claude's cleanup would
// delete it (then the archive keeps it, and the copy is dated now:
// conversation.Place). Without --resume ID it costs one scan of the
// arguments.
func (w *Workspace) bring(args []string, io IO) {
	c := w.Bring
	if c == nil && resumeID(args) == "" {
		return
	}
	key := conversation.KeyFor(w.Context.Dir, w.Claude)
	keep := conversation.Keep(w.Layout.ConfigDir, w.Account.Dir)
	if c == nil {
		id := resumeID(args)
		here := filepath.Join(w.Layout.ConfigDir, "projects", key, id+".jsonl")
		if _, err := os.Lstat(here); err == nil {
			// Where Claude looks, the usual case; dated now if its cleanup
			// would delete it as it starts.
			_ = conversation.Refresh(here, w.now(), keep)
			return
		}
		for _, found := range conversation.Find([]conversation.Account{{Name: w.Account.Name, Dir: w.Account.Dir}}) {
			if found.ID == id && found.Verified {
				c = &found
				break
			}
		}
		if c == nil {
			return // Claude says it finds no such conversation
		}
	}
	move := c.Where == conversation.InArchive && c.Account == w.Account.Name
	if _, err := os.Lstat(c.Transcript); err != nil {
		// The launch brought it back already: the archive of a worktree
		// made again with its name is restored before Claude starts.
		here, _ := filepath.Glob(filepath.Join(w.Layout.ConfigDir, "projects", "*", c.ID+".jsonl"))
		if len(here) == 0 {
			io.Note("conversation " + c.ID + " is no longer at " + c.Transcript + "; Claude may not find it")
			return
		}
		moved := *c
		moved.Transcript, move = here[0], false
		c = &moved
	}
	p, err := conversation.Place(*c, w.Layout.ConfigDir, key, move, w.now(), keep)
	switch {
	case err != nil:
		io.Note("conversation " + c.ID + " could not be put where Claude looks for it: " + err.Error() + "; it stays in " + c.Transcript)
	case p.Already:
	case p.Kept:
		io.Note("copied conversation " + c.ID + " back from the archive, which keeps it too: it is older than Claude keeps untouched transcripts (cleanupPeriodDays), so the copy is dated now")
	case move:
		io.Note("brought conversation " + c.ID + " back from the archive (" + c.Transcript + ")")
	default:
		io.Note("copied conversation " + c.ID + " from " + c.Transcript + " to this worktree; the original stays")
	}
	if p.Replaced != "" {
		io.Note("kept the older copy of conversation " + c.ID + " here as " + p.Replaced)
	}
}

// resumeID is the session id Claude's arguments resume (--resume ID, -r ID,
// --resume=ID), "" when they resume none by id (the picker, a title).
func resumeID(args []string) string {
	for i, a := range args {
		var v string
		switch {
		case a == "--":
			return ""
		case (a == "--resume" || a == "-r") && i+1 < len(args):
			v = args[i+1]
		case strings.HasPrefix(a, "--resume="):
			v = strings.TrimPrefix(a, "--resume=")
		default:
			continue
		}
		if IsSessionID(v) {
			return v
		}
		return ""
	}
	return ""
}

// IsSessionID reports whether s is a session id as Claude makes them: a
// UUID, 8-4-4-4-12 lower-case hex digits.
func IsSessionID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		switch i {
		case 8, 13, 18, 23:
			if r != '-' {
				return false
			}
		default:
			if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
				return false
			}
		}
	}
	return true
}
