package conversation

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/runtimes"
)

// Where a conversation is kept.
const (
	InRuntime = "runtime"   // a worktree's runtime the launcher made for the account
	SetAside  = "set-aside" // a runtime dir set aside (<runtime>.moved-<time>): not proven the account's
	InArchive = "archive"   // the account's archive of removed worktrees
	InAccount = "account"   // the account dir: sessions outside git, or brought by init --from
)

// setAsideWhy is why a conversation of a runtime set aside is not verified.
const setAsideWhy = "a runtime set aside that claude-account cannot prove is yours (it may have come with the repository)"

// Account is an account to look in.
type Account struct {
	Name, Dir string
}

// Conversation is one transcript, and where it belongs.
type Conversation struct {
	ID         string    `json:"id"`
	Account    string    `json:"account"`
	AccountDir string    `json:"accountDir"`
	Repository string    `json:"repository"` // the repository's root (its main worktree), "" outside git
	Worktree   string    `json:"worktree"`   // the work tree it ran in
	Branch     string    `json:"branch"`
	Removed    bool      `json:"removed"` // that work tree is gone
	Title      string    `json:"title"`
	Updated    time.Time `json:"updated"`
	Where      string    `json:"where"`    // runtime, set-aside, archive or account
	Verified   bool      `json:"verified"` // kept where only the launcher or Claude put it
	// Why it is not verified, when it is not: what the account's record
	// says of its runtime.
	Why        string `json:"why,omitempty"`
	Transcript string `json:"transcript"`
	Cwd        string `json:"cwd"`
	// CommonDir is the repository's common git dir: its identity.
	CommonDir string `json:"-"`
	// Vouched: the account's side names Worktree and CommonDir (the
	// record of the runtimes the launcher made, the archive's record of a
	// removed worktree); else they come from git's admin files or the
	// transcript, and resume makes no worktree outside the repository there.
	Vouched bool `json:"-"`
	// Saved is what worktree rm kept of its removed worktree (archive only).
	Saved *Removed `json:"-"`
	// Accounts are the accounts that hold a copy of it, its own first.
	Accounts []string `json:"accounts"`
	// Diverged: copies were continued apart, each with turns the other
	// lacks; this one is the latest of them, and resume picks none
	// unless told which (Copies names them).
	Diverged bool `json:"diverged"`
	// Copies is every copy of it the launcher can reach, this one first;
	// none when it has one (never handed over, nor resumed elsewhere).
	Copies []Copy `json:"copies,omitempty"`
	// others are the conversations of the other copies (Choose).
	others []Conversation
}

// Copy is one copy of a conversation, and how it stands to the one listed.
type Copy struct {
	Account    string    `json:"account"`
	AccountDir string    `json:"accountDir"`
	Worktree   string    `json:"worktree"`
	Where      string    `json:"where"`
	Verified   bool      `json:"verified"`
	Updated    time.Time `json:"updated"`
	Transcript string    `json:"transcript"`
	// Standing: "newest" (the one listed), "same" (the same messages),
	// "older" (its messages are all in the newest), "diverged" (it has
	// turns the listed one lacks), "unverified" (a copy not proven the
	// account's, never compared).
	Standing string `json:"standing"`
}

// Removed is what worktree rm records of a worktree it removed, in the
// archived projects dir (RemovedFile): enough to make the worktree again.
type Removed struct {
	Path      string    `json:"path"`
	Branch    string    `json:"branch,omitempty"`
	Head      string    `json:"head,omitempty"`
	Saved     string    `json:"savedWork,omitempty"` // the ref holding its uncommitted work, when there was some
	Base      string    `json:"base,omitempty"`
	Root      string    `json:"repository"`
	CommonDir string    `json:"commonDir"`
	RemovedAt time.Time `json:"removedAt"`
	// Vouched: Path is where the account's record of the runtimes the
	// launcher made put the worktree, not only git's admin files (which
	// came with the repository): resume makes it again there wherever it
	// is, else only inside the repository.
	Vouched bool `json:"vouched,omitempty"`
}

// RemovedFile is Removed's file in an archived projects dir: a file, where
// Claude's projects/ holds only dirs, so no transcript is taken for it.
const RemovedFile = ".worktree.json"

// ReadRemoved reads the record in an archived projects dir; nil when there
// is none (an archive of an earlier version).
func ReadRemoved(dir string) *Removed {
	data, err := fsx.ReadFile(filepath.Join(dir, RemovedFile))
	if err != nil {
		return nil
	}
	var r Removed
	if json.Unmarshal(data, &r) != nil {
		return nil
	}
	return &r
}

// transcript is one file found, before it is read.
type transcript struct {
	path, where, account, accountDir string
	verified                         bool
	why                              string
	// What the account's side says of where it ran (the record of its
	// runtime, an archive's record); the transcript's own cwd fills what
	// it leaves out.
	worktree, commonDir string
	vouched             bool
	saved               *Removed
	// only: the one id looked for (FindID), "" for every transcript.
	only string
}

// Find lists every conversation kept for accts, newest first: one per id,
// the copy that holds every turn of the others (byID), with every copy named
// in Copies. A place that cannot be read is skipped.
func Find(accts []Account) []Conversation {
	return find(accts, "")
}

// FindID is the conversation id names (a whole session id) among accts, as
// Find lists it, with its copies; nil when none holds it. It reads only the
// transcripts named for id: what a launch with --resume ID pays.
func FindID(accts []Account, id string) *Conversation {
	if id == "" || strings.ContainsAny(id, `/\*?[`) {
		return nil
	}
	for _, c := range find(accts, id) {
		if c.ID == id { // every place lists only id.jsonl; this says so here too
			return &c
		}
	}
	return nil
}

// find is Find, of the transcripts named only.jsonl when only is not "".
func find(accts []Account, only string) []Conversation {
	var ts []transcript
	for _, a := range accts {
		ts = append(ts, ofAccount(a, only)...)
	}
	out := make([]Conversation, len(ts))
	ok := make([]bool, len(ts))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0)*2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], ok[i] = read(ts[i])
			}
		}()
	}
	for i := range ts {
		next <- i
	}
	close(next)
	wg.Wait()
	var convs []Conversation
	for i := range out {
		if ok[i] {
			convs = append(convs, out[i])
		}
	}
	return byID(convs)
}

// ofAccount lists the transcripts of one account, everywhere it keeps them.
func ofAccount(a Account, only string) []transcript {
	var out []transcript
	in := func(dir string, t transcript, projects ...string) []transcript {
		t.only = only
		return transcriptsIn(dir, t, projects...)
	}
	// Where a runtime belongs is what the account's record says, never what
	// its workspace.json says (a planted one names any path).
	rts, _ := runtimes.List(a.Dir)
	for _, rt := range rts {
		base := transcript{account: a.Name, accountDir: a.Dir, worktree: rt.Place.Worktree, commonDir: rt.Place.CommonDir, vouched: rt.Known}
		t := base
		t.where, t.verified, t.why = InRuntime, rt.Made, rt.Why
		// One that is not the dir the launcher made is listed, unverified,
		// until a launch sets it aside: never silently dropped.
		out = append(out, in(rt.Dir, t)...)
		asides, _ := filepath.Glob(rt.Dir + ".moved-*")
		for _, d := range asides {
			t := base
			t.where, t.why = SetAside, setAsideWhy
			out = append(out, in(d, t)...)
		}
	}
	// The account's copies of its runtimes' transcripts (KeepCopies), but
	// for those a runtime of it still holds: one conversation, listed once.
	out = append(out, kept(a, only, keptIDs(out), out)...)
	// The archive: archive/<repository>/<worktree>/projects[-<time>]/.
	dirs, _ := filepath.Glob(filepath.Join(a.Dir, "archive", "*", "*", "projects*"))
	for _, d := range dirs {
		saved := ReadRemoved(d)
		t := transcript{account: a.Name, accountDir: a.Dir, where: InArchive, verified: true, saved: saved}
		if saved != nil {
			t.worktree, t.commonDir, t.vouched = saved.Path, saved.CommonDir, saved.Vouched
		}
		out = append(out, in(filepath.Dir(d), t, filepath.Base(d))...)
	}
	// Kept apart: what worktree rm took from runtimes set aside, not proven
	// the account's (worktree.SetAsideDir).
	dirs, _ = filepath.Glob(filepath.Join(a.Dir, "archive", "*", "*", "set-aside", "projects*"))
	for _, d := range dirs {
		t := transcript{account: a.Name, accountDir: a.Dir, where: InArchive, why: setAsideWhy}
		if rec := ReadRemoved(d); rec != nil {
			// The repository and worktree it was kept from; its transcripts
			// say where they ran.
			t.commonDir = rec.CommonDir
		}
		out = append(out, in(filepath.Dir(d), t, filepath.Base(d))...)
	}
	out = append(out, in(a.Dir, transcript{account: a.Name, accountDir: a.Dir, where: InAccount, verified: true})...)
	return out
}

// transcriptsIn lists <dir>/<projects>/<key>/<id>.jsonl (projects by
// default), never through a link.
func transcriptsIn(dir string, t transcript, projects ...string) []transcript {
	name := "projects"
	if len(projects) > 0 {
		name = projects[0]
	}
	root := filepath.Join(dir, name)
	if !realDir(dir) || !realDir(root) {
		return nil
	}
	keys, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []transcript
	for _, k := range keys {
		if !k.IsDir() {
			continue
		}
		if t.only != "" {
			p := filepath.Join(root, k.Name(), t.only+".jsonl")
			if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
				c := t
				c.path = p
				out = append(out, c)
			}
			continue
		}
		files, err := os.ReadDir(filepath.Join(root, k.Name()))
		if err != nil {
			continue
		}
		for _, f := range files {
			n := f.Name()
			if _, ok := SessionFile(n); !ok || !f.Type().IsRegular() {
				continue // subagents' own transcripts (2.0.77), backups, links, dirs
			}
			c := t
			c.path = filepath.Join(root, k.Name(), n)
			out = append(out, c)
		}
	}
	return out
}

func realDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

// read reads one transcript; false when it holds no conversation (a file
// of summaries only, an empty one).
func read(t transcript) (Conversation, bool) {
	m, err := ReadMeta(t.path)
	if err != nil || m.Cwd == "" {
		return Conversation{}, false
	}
	c := Conversation{ID: m.ID, Account: t.account, AccountDir: t.accountDir, Branch: m.Branch, Title: m.Title,
		Updated: m.Updated, Where: t.where, Verified: t.verified, Why: t.why, Transcript: t.path, Cwd: m.Cwd,
		Worktree: t.worktree, CommonDir: t.commonDir, Vouched: t.vouched, Saved: t.saved}
	if c.Worktree == "" || c.CommonDir == "" {
		c.Vouched = false
		// Where the transcript says it ran, when its place does not say.
		if ctx, err := gitctx.Detect(m.Cwd, func(string) string { return "" }); err == nil && ctx.Toplevel != "" {
			c.Worktree, c.CommonDir = ctx.Toplevel, ctx.CommonDir
		} else if c.Worktree == "" {
			c.Worktree = m.Cwd
		}
	}
	if c.CommonDir != "" {
		c.Repository = rootOf(c.CommonDir)
	}
	if _, err := os.Stat(c.Worktree); err != nil {
		c.Removed = true
	}
	if c.Saved != nil && c.Saved.Branch != "" && c.Branch == "" {
		c.Branch = c.Saved.Branch
	}
	return c, true
}

// rootOf is the repository a common git dir belongs to: its main worktree
// (<root>/.git), or the git dir itself (a bare repository).
func rootOf(common string) string {
	if filepath.Base(common) == ".git" {
		return filepath.Dir(common)
	}
	return common
}
