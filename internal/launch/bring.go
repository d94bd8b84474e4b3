package launch

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/claudeproc"
	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/session"
)

// bring puts the conversation a session resumes where its Claude looks for
// it: Bring when a command chose one ('claude-account resume'), else the one
// named by --resume ID among Claude's arguments. Of its copies (every
// account's, every worktree's runtime, the archive, the account dir) the
// one that holds every turn of the others is resumed (conversation.Compare):
// it is copied here when this config dir's copy under the key of the
// directory Claude starts in is older or missing (claude --resume finds only
// what is under its own config dir, and before 2.1.223 only under that key),
// the older kept beside it (conversation.Place). One from the account's
// archive moves back, unless Claude's cleanup would delete it (then the
// archive keeps it, and the copy is dated now). It refuses copies continued
// apart (a *conversation.DivergedError names them and the command that
// picks one) and a conversation running in another session now (unless
// Claude is asked for a copy of its own, --fork-session). Without --resume
// ID it costs one scan of the arguments.
func (w *Workspace) bring(args []string, io IO) error {
	c := w.Bring
	id := resumeID(args)
	if c == nil && id == "" {
		return nil
	}
	if c != nil {
		id = c.ID
	}
	key := conversation.KeyFor(w.Context.Dir, w.Claude)
	keep := conversation.Keep(w.Layout.ConfigDir, w.Account.Dir)
	here := filepath.Join(w.Layout.ConfigDir, "projects", key, id+".jsonl")
	found := c
	if c == nil {
		accts := []conversation.Account{{Name: w.Account.Name, Dir: w.Account.Dir}}
		if w.Accounts != nil {
			accts = w.Accounts()
		}
		found = conversation.FindID(accts, id)
	}
	if !hasArg(args, "--fork-session") {
		if err := w.notRunning(id, found); err != nil {
			return err
		}
	}
	if c == nil {
		switch {
		case found != nil && found.Verified && found.Diverged:
			return &conversation.DivergedError{Conv: *found}
		case found == nil || !found.Verified || fsx.SameFile(found.Transcript, here):
			if _, err := os.Lstat(here); err == nil {
				// Where Claude looks, the usual case; dated now if its
				// cleanup would delete it as it starts.
				_ = conversation.Refresh(here, w.now(), keep)
			}
			return nil // else Claude says it finds no such conversation
		}
		c = found
	}
	move := c.Where == conversation.InArchive && c.Account == w.Account.Name
	if _, err := os.Lstat(c.Transcript); err != nil {
		// The launch brought it back already: the archive of a worktree
		// made again with its name is restored before Claude starts.
		here, _ := filepath.Glob(filepath.Join(w.Layout.ConfigDir, "projects", "*", c.ID+".jsonl"))
		if len(here) == 0 {
			io.Note("conversation " + c.ID + " is no longer at " + c.Transcript + "; Claude may not find it")
			return nil
		}
		moved := *c
		moved.Transcript, move = here[0], false
		c = &moved
	}
	p, err := conversation.Place(*c, w.Layout.ConfigDir, key, move, w.now(), keep)
	var apart *conversation.ApartError
	switch {
	case errors.As(err, &apart):
		return err
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
	if w.Resend != nil && err == nil {
		return dropRefusal(p.Path, *w.Resend)
	}
	return nil
}

// dropRefusal rewrites this account's copy at path without the turn a usage
// limit refused (conversation.WithoutRefusal), which the session sends
// again. Written anew and renamed over it: a copy that is a hard link of the
// limited account's leaves that one as it was.
func dropRefusal(path string, r conversation.Refusal) error {
	data, err := fsx.ReadFileNoFollow(path, 1<<30)
	if err != nil {
		return fmt.Errorf("conversation %s: %v; nothing was sent", filepath.Base(path), err)
	}
	out, ok := conversation.WithoutRefusal(data, r)
	if !ok {
		return nil // already without it: a copy handed over before
	}
	return fsx.WriteFile(path, out, 0o600)
}

// notRunning refuses a conversation that runs now in another session,
// naming it and how to stop it: one of the launcher's (its hooks report the
// session id: 2.0.77, 2.1.90 and 2.1.330 measured), or a Claude the launcher
// did not start that records it in a config dir holding a copy of it
// (claudeRunning).
func (w *Workspace) notRunning(id string, c *conversation.Conversation) error {
	if running, err := session.List(w.lockDir); err == nil {
		for _, r := range running {
			if r.State == nil || r.State.SessionID != id || r.Lock.PID == os.Getpid() {
				continue
			}
			in := session.Describe(r, w.env.Get)
			return fmt.Errorf("conversation %s is running now in another session: claude (%s) in %s, PID %d; finish it there, or stop it with 'claude-account close --account %s %s', or continue a copy of it of its own with --fork-session",
				id, in.Account, in.Path, in.PID, in.Account, in.Path)
		}
	}
	// Only config dirs the account's side vouches for: a runtime set aside
	// came with a repository, and its sessions/ says what it likes (a
	// record naming any live Claude would refuse the user's conversation).
	dirs := []string{w.Layout.ConfigDir}
	if c != nil {
		if c.Verified {
			dirs = append(dirs, configDirOf(c.Transcript))
		}
		for _, cp := range c.Copies {
			if cp.Verified {
				dirs = append(dirs, configDirOf(cp.Transcript))
			}
		}
	}
	if pid, dir := claudeRunning(dirs, id); pid != 0 {
		return fmt.Errorf("conversation %s is running now in a Claude that claude-account did not start (PID %d, config dir %s); finish it there, or continue a copy of it of its own with --fork-session", id, pid, dir)
	}
	return nil
}

// configDirOf is the config dir a transcript is in
// (<dir>/projects/<key>/<id>.jsonl), "" when it is in none.
func configDirOf(transcript string) string {
	projects := filepath.Dir(filepath.Dir(transcript))
	if filepath.Base(projects) != "projects" {
		return ""
	}
	return filepath.Dir(projects)
}

// sessionRecordLimit bounds the read of one of Claude's sessions/<pid>.json
// (a few hundred bytes: pid, sessionId, cwd, times).
const sessionRecordLimit = 64 << 10

// claudeRunning is the PID of a Claude that runs conversation id now by its
// own record in one of dirs, and that dir: from 2.1.90 Claude keeps
// <config dir>/sessions/<pid>.json ({"pid", "sessionId", …}) while it runs
// (measured on 2.1.90 and 2.1.330; 2.0.77 keeps none). A record whose PID is
// no Claude now (it ended without removing it) does not count. 0 when none.
func claudeRunning(dirs []string, id string) (int, string) {
	var procs *claudeproc.Snapshot
	seen := map[string]bool{"": true}
	for _, dir := range dirs {
		if seen[dir] {
			continue
		}
		seen[dir] = true
		files, _ := filepath.Glob(filepath.Join(dir, "sessions", "*.json"))
		for _, f := range files {
			// Never through a link, never more than a record's size (a
			// link to /dev/zero would be read without end).
			data, err := fsx.ReadFileNoFollow(f, sessionRecordLimit)
			if err != nil || len(data) > sessionRecordLimit || !bytes.Contains(data, []byte(id)) {
				continue
			}
			rec := gjson.GetManyBytes(data, "sessionId", "pid")
			pid := int(rec[1].Int())
			if rec[0].String() != id || pid <= 0 || pid == os.Getpid() {
				continue
			}
			if procs == nil {
				procs = claudeproc.Current()
			}
			if procs.IsClaude(pid) {
				return pid, dir
			}
		}
	}
	return 0, ""
}

// hasArg reports whether Claude's arguments hold flag, before any "--".
func hasArg(args []string, flag string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == flag {
			return true
		}
	}
	return false
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
