package configdir

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/runtimes"
)

// dirFacts is what the launch sees of one directory on the runtime's path.
type dirFacts struct {
	Path   string
	Exists bool
	IsDir  bool
	Kind   string // describe's words, when it is not a directory
	UID    int    // -1 when not known
	Perm   fs.FileMode
}

// runtimeFacts is what deciding a runtime dir's fate reads: observeRuntime
// reads it, decideRuntime decides from it alone.
type runtimeFacts struct {
	Parent, Dir dirFacts // claude-runtime/ and claude-runtime/<account>
	// Made: the account's record names the dir with the inode it has now,
	// so the launcher made it for this account; Quiet is when the launcher
	// last left it alone (runtimes.Record.Quiet).
	Made  bool
	Quiet int64
	// Place is where the record says it belongs (runtimes.Runtime.Known),
	// else empty.
	Place runtimes.Place
	// Binding is the dir's workspace.json (nil when missing or unreadable).
	Binding []byte
	// Projects are the entries of its projects/ (Claude's transcripts by
	// the key of the dir they ran in), read only when the binding names
	// another toplevel: a worktree that moved.
	Projects []string
	Logs     bool // logs/ exists
	// Asides are the names already taken beside the dir by runtimes set
	// aside (<dir>.moved-<time>…), read only when the dir is not the
	// launcher's.
	Asides []string
	// GoneFrom is the runtime the account's record has for the work tree
	// the dir's binding names, gone from there, when the dir is not the
	// launcher's: a repository moved across file systems, or a copy of one
	// since removed, which nothing tells apart (runtimes.Record.GoneFrom).
	GoneFrom string
	// Twins are the account's copies of GoneFrom's conversations that the
	// dir proves it holds (keptTwins), read only when GoneFrom is not "".
	Twins []twin
	UID   int // ours
}

func observeDir(path string) dirFacts {
	d := dirFacts{Path: path, UID: -1}
	fi, err := os.Lstat(path)
	if err != nil {
		return d
	}
	d.Exists, d.IsDir, d.Perm = true, fi.IsDir(), fi.Mode().Perm()
	if !d.IsDir {
		d.Kind = describe(path, fi)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		d.UID = int(st.Uid)
	}
	return d
}

// observeRuntime reads what decideRuntime needs: the runtime dir and the
// dir above it, the account's record of the runtimes it made, the binding.
func observeRuntime(in Input) (runtimeFacts, error) {
	dir := in.Layout.ConfigDir
	f := runtimeFacts{Parent: observeDir(filepath.Dir(dir)), Dir: observeDir(dir), UID: os.Getuid()}
	made, err := runtimes.Read(runtimes.Path(in.Account.Dir))
	if err != nil {
		return f, err
	}
	if !f.Dir.Exists {
		return f, nil
	}
	rt := made.Check(dir)
	f.Made, f.Quiet = rt.Made, rt.Quiet
	if rt.Known {
		f.Place = rt.Place
	}
	if !f.Made {
		f.Asides, _ = filepath.Glob(dir + ".moved-*")
	}
	if data, err := fsx.ReadFile(filepath.Join(dir, WorkspaceFile)); err == nil {
		f.Binding = data
	}
	if !f.Made && exists(filepath.Join(dir, "projects")) {
		f.GoneFrom = made.GoneFrom(bindingToplevel(f.Binding), dir)
	}
	if f.GoneFrom != "" {
		f.Twins = keptTwins(in.Account.Dir, f.GoneFrom, dir)
	}
	if old := f.was(); old != "" && old != in.Context.Toplevel {
		des, _ := os.ReadDir(filepath.Join(dir, "projects"))
		for _, de := range des {
			if de.IsDir() {
				f.Projects = append(f.Projects, de.Name())
			}
		}
	}
	f.Logs = exists(filepath.Join(dir, "logs"))
	return f, nil
}

// was is the work tree the runtime was last used for: the place the
// account's record names, else (a record of an earlier version) its
// workspace.json, which then only renames conversations inside the runtime.
func (f runtimeFacts) was() string {
	if f.Place.Worktree != "" {
		return f.Place.Worktree
	}
	return bindingToplevel(f.Binding)
}

// runtimeDecision is what becomes of the runtime dir before anything in it
// is planned.
type runtimeDecision struct {
	Steps []Step
	Notes []string
	// Fresh: the runtime is made anew (it did not exist, or was set aside).
	Fresh bool
	// SetsAside: the existing dir is moved aside; no other Claude may use it.
	SetsAside bool
	// Quiet is the time before which a file in it may be taken into the
	// account (0: any); see Plan.quiet.
	Quiet int64
	// Binding is the workspace.json to write; nil when it is right.
	Binding []byte
}

// decideRuntime decides, from facts alone, whether the runtime dir may be
// used, must be set aside, or is refused:
//   - a runtime (or the claude-runtime dir above it) that is a symlink would
//     have every write land wherever it points; one owned by someone else,
//     or writable by others, could be holding a planted login for the launch
//     to adopt: refused;
//   - one the launcher did not make for this account came with the
//     repository (an archive, a copied checkout) or was put there by hand:
//     nothing in it is read, it is kept aside as it is, and a new one made;
//   - one whose binding names another toplevel moved with its worktree
//     (git worktree move, a repository moved whole): only the checkout git
//     records for a git dir reaches its runtime (gitctx.Context.Stranger),
//     so it is the same worktree. It keeps its runtime; its conversations,
//     kept by the key of the dir they ran in, follow it to the new keys, so
//     that --resume and --continue find them there.
//
// Pinned by TestDecideRuntime and the testscripts harden-hostile-runtime-dir,
// harden-hostile-runtime-parent (a symlink, never written through),
// harden-hostile-runtime-owner (writable by others, someone else's),
// harden-planted-runtime and workspace-copied-repo (not the launcher's: kept
// aside) and worktree-moved-keeps-conversations (moved: rekeyed).
func decideRuntime(f runtimeFacts, in Input) (runtimeDecision, error) {
	var d runtimeDecision
	for _, x := range []dirFacts{f.Parent, f.Dir} {
		switch {
		case !x.Exists:
		case !x.IsDir:
			return d, fmt.Errorf("%s is %s, not a directory; remove it (claude-account makes the runtime there)", x.Path, x.Kind)
		case x.UID >= 0 && x.UID != f.UID:
			return d, fmt.Errorf("%s belongs to uid %d, not to you; remove it (claude-account makes the runtime there)", x.Path, x.UID)
		case x.Perm&0o022 != 0:
			return d, fmt.Errorf("%s is writable by others (mode %#o); run 'chmod go-w %s'", x.Path, x.Perm, x.Path)
		}
	}
	dir := f.Dir.Path
	aside := asideName(dir+".moved-"+in.Now.UTC().Format("20060102T150405Z"), f.Asides)
	d.Fresh = !f.Dir.Exists
	var brought []Step // after the fresh runtime is made
	if !d.Fresh && !f.Made {
		d.Steps = append(d.Steps, Step{Op: Move, Path: dir, Target: aside, Why: "not the launcher's"})
		d.Fresh, d.SetsAside = true, true
		old := bindingToplevel(f.Binding)
		var ids []string
		if f.GoneFrom != "" {
			// Of a runtime gone from where this one says it came from, the
			// account's own copies of the conversations this one proves it
			// holds come along (across.go).
			brought, ids = bring(f.Twins, dir, old, in.Context.Toplevel)
		}
		kept := fmt.Sprintf("%s was not made by claude-account for this account (it came with the repository?); kept it as %s, read nothing from it, and started fresh", dir, aside)
		switch {
		case len(ids) > 0:
			kept = fmt.Sprintf("%s was not made by claude-account for this account (it came with the repository?); kept it as %s and started fresh", dir, aside)
			d.Notes = append(d.Notes, kept, broughtNote(in.Context.Toplevel, old, aside, ids))
		case f.GoneFrom != "":
			// Its conversations are kept, unverified: say where, and how to
			// continue one, rather than leave a moved repository's user to
			// think them lost.
			d.Notes = append(d.Notes, kept, fmt.Sprintf("if this repository was moved here from %s across file systems (which claude-account cannot tell from a copy), its conversations are in %s: 'claude-account sessions' lists them, and 'claude-account resume ID --unverified' continues one here",
				old, aside))
		default:
			d.Notes = append(d.Notes, kept)
		}
	}
	if !d.Fresh {
		// Files of a runtime the launcher made can still come from
		// elsewhere (an archive extracted over the checkout, a dir that
		// reused the inode): what changed since the launcher last left it
		// alone is never taken into the account (untouched). After a
		// launcher died in a session, what changed until it was last known
		// alive is that session's Claude's; what changed later is not.
		d.Quiet = max(f.Quiet, in.Unclean)
	}
	ws := Workspace{Account: in.Account.Name, AccountDir: in.Account.Dir, Toplevel: in.Context.Toplevel, Fingerprint: in.Context.Fingerprint, GitDir: in.Context.GitDir}
	want := ws.encode()
	if old := f.was(); !d.Fresh && old != "" && old != ws.Toplevel {
		d.Steps = append(d.Steps, rekey(dir, old, ws.Toplevel, f.Projects)...)
		d.Notes = append(d.Notes, fmt.Sprintf("%s moved from %s; it keeps its runtime and its conversations", ws.Toplevel, old))
	}
	place := runtimes.Place{Worktree: in.Context.Toplevel, GitDir: in.Context.GitDir, CommonDir: in.Context.CommonDir}
	switch {
	case d.Fresh:
		d.Quiet = 0
		d.Steps = append(d.Steps, Step{Op: Mkdir, Path: dir, Mode: 0o700, Why: "new runtime"},
			Step{Op: Register, Path: dir, Target: runtimes.Path(in.Account.Dir), Place: place, Why: "made by claude-account for this account"})
	case f.Place != place:
		// Where it belongs is kept on the account's side, where resume and
		// sessions read it, never from its workspace.json: a runtime made by
		// an earlier version gets it now, one that moved gets the new place.
		d.Steps = append(d.Steps, Step{Op: Register, Path: dir, Target: runtimes.Path(in.Account.Dir), Place: place, Why: "where it belongs"})
	}
	if d.Fresh || !f.Logs {
		d.Steps = append(d.Steps, Step{Op: Mkdir, Path: filepath.Join(dir, "logs"), Mode: 0o700, Why: "Claude's logs"})
	}
	d.Steps = append(d.Steps, brought...)
	// A missing, unreadable or damaged binding is rewritten: it cannot prove
	// the dir belongs to another workspace.
	if d.Fresh || !bytes.Equal(f.Binding, want) {
		d.Binding = want
	}
	return d, nil
}

// rekey moves the conversations of a runtime whose worktree moved from old
// to top: Claude keeps them by the key of the dir each ran in
// (conversation.Key: each character of the path, '-' for all but letters
// and digits), and
// looks them up by the key of the dir it starts in. A dir below the worktree
// keeps its place in the key, so a key that begins with the old worktree's
// takes the new one's instead. A key Claude shortened (a path of over 200
// characters) is left where it is, as is one whose new place is taken.
func rekey(dir, old, top string, keys []string) []Step {
	from, to := conversation.Key(old, false), conversation.Key(top, false)
	var steps []Step
	for _, k := range keys {
		nk := newKey(k, from, to)
		if nk == k || slices.Contains(keys, nk) {
			continue
		}
		steps = append(steps, Step{Op: Move, Path: filepath.Join(dir, "projects", k), Target: filepath.Join(dir, "projects", nk),
			Why: "its conversations, by the key of where it is now"})
	}
	return steps
}

// asideName is name, or name-2, name-3 … when taken: two set-asides in one
// second (under the instance lock, so never at once) keep both.
func asideName(name string, taken []string) string {
	for i := 1; ; i++ {
		n := name
		if i > 1 {
			n = fmt.Sprintf("%s-%d", name, i)
		}
		if !slices.Contains(taken, n) {
			return n
		}
	}
}

// freeAside is the name a file or dir at path is kept aside under:
// <path>.moved-<time>, or the first of -2, -3 … that no earlier set-aside
// took (a rename would replace a file of that name, losing it).
func freeAside(path string, now time.Time) string {
	taken, _ := filepath.Glob(path + ".moved-*")
	return asideName(path+".moved-"+now.UTC().Format("20060102T150405Z"), taken)
}
