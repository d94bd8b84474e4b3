package worktree

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitcmd"
	"github.com/claude-account/claude-account/internal/shell"
)

// Options are the settings of a new worktree.
type Options struct {
	Slug        string
	Base        string // a ref; "" = the remote's default branch, else HEAD
	Ephemeral   bool   // remove after use when it holds no work
	SymlinkDirs []string
	SparsePaths []string
	Now         time.Time
	// Background is as RemoveOptions.Background: a worktree the launcher
	// did not make where Claude's fleet lives is Claude's, never reused.
	Background func(path, gitDir string) []Hosted
	// Alive is as RemoveOptions.Alive: a worktree of ours that Claude
	// adopted in a session that has ended is still ours.
	Alive func(pid int) bool
}

// Result says what New did.
type Result struct {
	Path    string
	Branch  string
	Created bool     // false: an existing worktree was reused
	Notes   []string // what else it did, one line each
}

// New makes the worktree of a slug, or returns the one that exists. It never
// resets a branch: an existing worktree-<slug> branch is checked out as it is,
// so commits found nowhere else cannot be lost (git worktree add -B would).
func (r *Repo) New(o Options) (*Result, error) {
	if err := ValidateSlug(o.Slug); err != nil {
		return nil, err
	}
	path := r.PathFor(o.Slug)
	branch := Branch(o.Slug)
	res := &Result{Path: path, Branch: branch}
	// git worktree add is not safe to run in parallel (one reads another's
	// half-made .git/worktrees entry): agents starting at once take turns.
	unlock, err := r.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	// .claude/worktrees (or a [worktree] dir inside the repository) and
	// .git/info, where the exclude lines go: a tracked or planted link there
	// would put the worktree, or our writes, in another project.
	if rel, err := filepath.Rel(r.Root, r.Dir); err == nil && !r.Bare {
		if err := noLinkOut(r.Root, rel); err != nil {
			return nil, err
		}
	}
	if err := noLinkOut(r.Common, "info"); err != nil {
		return nil, err
	}
	if exists(path) {
		// Only then ask git which worktrees it has: reuse, or refuse.
		e, err := r.Find(path)
		if err != nil {
			return nil, err
		}
		if e == nil {
			return nil, fmt.Errorf("%s exists but is not a worktree of this repository; move it away or pick another name", path)
		}
		if err := claudesOwn(r, e, o); err != nil {
			return nil, err
		}
		res.Notes = append(res.Notes, "reusing the existing worktree "+path)
		res.Branch = e.Branch
		return res, nil
	}
	if len(path) > MaxPathLen {
		return nil, fmt.Errorf("worktree %s would be %d characters long; the limit is %d: Claude Code (2.0.77) names a directory after the whole path it runs in, and a file name holds %d; pick a shorter name, or a shorter [worktree] dir in account.toml", path, len(path), MaxPathLen, MaxPathLen)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if err := r.excludeWorktrees(); err != nil {
		return nil, err
	}

	base := o.Base
	if base == "" || base == "HEAD" {
		base = r.defaultBase()
	}
	add := []string{"worktree", "add", "--quiet"}
	if len(o.SparsePaths) > 0 {
		add = append(add, "--no-checkout")
	}
	// Work rm --force saved of a worktree of this name comes back with it,
	// when it was saved on the commit the new one starts on.
	var saved *Saved
	if r.mayHaveSaved(filepath.Base(path)) {
		start := "refs/heads/" + branch
		if !r.hasRef(start) {
			start = base
		}
		if oid, err := r.Git.Run("rev-parse", "--verify", "--quiet", "--end-of-options", start+"^{commit}"); err == nil {
			if saved, err = r.checkSaved(o.Slug, path, oid); err != nil {
				return nil, err
			}
		}
	}
	madeBranch := false
	if r.hasRef("refs/heads/" + branch) {
		res.Notes = append(res.Notes, "checked out the existing branch "+branch+" as it is")
		add = append(add, "--", path, branch)
	} else {
		madeBranch = true
		// git resolves the base itself: asking it first would cost a process.
		add = append(add, "-b", branch, "--", path, base+"^{commit}")
	}
	if _, err := r.Git.Run(add...); err != nil {
		// Say git's refusals as one sentence with the way out.
		if e := r.holderOf(branch); e != nil {
			return nil, fmt.Errorf("branch %s is already checked out in %s; use that worktree, or pick another name", branch, e.Path)
		}
		if ok, _ := r.Git.OK("rev-parse", "--verify", "--quiet", "--end-of-options", base+"^{commit}"); !ok {
			return nil, fmt.Errorf("base %q is not a commit in this repository; pass --base with a branch, tag or commit", base)
		}
		return nil, err
	}
	res.Created = true
	wt := r.Git.In(path)
	gitDir, err := GitDir(path)
	if err != nil {
		return nil, err
	}
	baseOID := r.headOID(gitDir)
	if baseOID == "" {
		if baseOID, err = wt.Run("rev-parse", "HEAD"); err != nil {
			return nil, err
		}
	}
	if err := writeMeta(gitDir, Meta{Slug: o.Slug, Ephemeral: o.Ephemeral || IsEphemeralSlug(o.Slug),
		Base: base, BaseOID: baseOID, Created: o.Now.UTC(), MadeBranch: madeBranch}); err != nil {
		return nil, err
	}
	if len(o.SparsePaths) > 0 {
		if _, err := wt.Run(append([]string{"sparse-checkout", "set", "--"}, o.SparsePaths...)...); err != nil {
			return nil, err
		}
		if _, err := wt.Run("checkout", "--quiet"); err != nil {
			return nil, err
		}
		for _, p := range o.SparsePaths {
			if err := noLinkOut(path, p); err != nil {
				return nil, r.undo(path, branch, madeBranch, err)
			}
		}
		res.Notes = append(res.Notes, "sparse checkout of "+strings.Join(o.SparsePaths, ", "))
	}
	if saved != nil {
		if err := r.putBack(path, *saved); err != nil {
			return res, fmt.Errorf("the worktree %s is made, but the saved work could not be put back: %w; it stays in %s", path, err, saved.Ref)
		}
		res.Notes = append(res.Notes, fmt.Sprintf("put back the uncommitted work saved in %s, uncommitted as it was; the ref is dropped", saved.Ref))
	}
	notes, err := r.setup(path, wt, o.SymlinkDirs)
	res.Notes = append(res.Notes, notes...)
	var lo *LinkOutError
	if errors.As(err, &lo) {
		return nil, r.undo(path, branch, madeBranch, err)
	}
	return res, err
}

// undo removes a worktree New has just made, and the branch it made for
// it, after a refusal: left in place, the next New would reuse it as it is.
// git removes the links in it without following them.
func (r *Repo) undo(path, branch string, madeBranch bool, why error) error {
	if _, err := r.Git.Run("worktree", "remove", "--force", "--", path); err != nil {
		return fmt.Errorf("%w (and removing the new worktree failed: %v)", why, err)
	}
	if madeBranch {
		if _, err := r.Git.Run("branch", "-D", "--", branch); err != nil {
			return fmt.Errorf("%w (and deleting the new branch %s failed: %v)", why, branch, err)
		}
	}
	return why
}

// lock serialises worktree changes of one repository across processes.
func (r *Repo) lock() (func(), error) {
	f, err := os.OpenFile(filepath.Join(r.Common, "claude-account-worktree.lock"), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

// holderOf is the worktree that has branch checked out, or nil.
func (r *Repo) holderOf(branch string) *Entry {
	entries, err := r.Entries()
	if err != nil {
		return nil
	}
	for i := range entries {
		if entries[i].Branch == branch {
			return &entries[i]
		}
	}
	return nil
}

// defaultBase is the remote's default branch (origin/HEAD), else the main
// worktree's branch (its name, not "HEAD": that would mean each worktree's
// own HEAD wherever it is resolved).
//
// Both come from files of the repository: a target that is no valid ref
// name, or (for origin/HEAD) names no ref, is passed over, and a short name
// that would read as an option stays a full one (refs/remotes/-x).
func (r *Repo) defaultBase() string {
	if ref, ok := r.symref("refs/remotes/origin/HEAD"); ok && strings.HasPrefix(ref, "refs/remotes/") &&
		gitcmd.CheckRefName(ref) == nil && r.hasRef(ref) {
		return gitcmd.ShortRef(ref, "refs/remotes/")
	}
	if ref, ok := r.symref("HEAD"); ok && strings.HasPrefix(ref, "refs/heads/") && gitcmd.CheckRefName(ref) == nil {
		branch := strings.TrimPrefix(ref, "refs/heads/")
		if r.Bare && r.hasRef("refs/remotes/origin/"+branch) {
			return gitcmd.ShortRef("refs/remotes/origin/"+branch, "refs/remotes/")
		}
		return gitcmd.ShortRef(ref, "refs/heads/")
	}
	if oid, err := r.Git.Run("rev-parse", "--verify", "--quiet", "HEAD"); err == nil {
		return oid
	}
	return "HEAD"
}

// setup does what a new worktree needs beyond git's checkout: the files
// Claude Code copies for its own worktrees, and the repository's
// submodules.
func (r *Repo) setup(path string, wt Git, symlinkDirs []string) ([]string, error) {
	var notes []string
	if r.Bare {
		return notes, nil
	}
	local := filepath.Join(".claude", "settings.local.json")
	if exists(filepath.Join(r.Root, local)) {
		// Read from the main worktree and written into the new one: a link
		// on either side (.claude in a fetched commit) must not lead out.
		if err := noLinkOut(r.Root, local); err != nil {
			return notes, err
		}
		if err := noLinkOutParents(path, local); err != nil {
			return notes, err
		}
	}
	if data, err := os.ReadFile(filepath.Join(r.Root, local)); err == nil {
		if err := os.MkdirAll(filepath.Join(path, ".claude"), 0o755); err != nil {
			return notes, err
		}
		// Same mode as the original: it often holds API keys in "env".
		mode := fs.FileMode(0o600)
		if fi, err := os.Stat(filepath.Join(r.Root, local)); err == nil {
			mode = fi.Mode().Perm()
		}
		if err := fsx.WriteFile(filepath.Join(path, local), data, mode); err != nil {
			return notes, err
		}
		// A copy of a local file is not a change of the worktree.
		if err := r.exclude("/" + filepath.ToSlash(local)); err != nil {
			return notes, err
		}
		notes = append(notes, "copied "+local)
	}
	// Hooks are left as they are: linked worktrees share the repository's
	// config and $GIT_COMMON_DIR/hooks already, and pointing core.hooksPath
	// at tracked scripts (.husky/) would run the repository's code at every
	// plain git commit without the user having asked for it.
	for _, d := range symlinkDirs {
		if filepath.IsAbs(d) || strings.Contains(d, "..") {
			continue
		}
		src := filepath.Join(r.Root, d)
		dst := filepath.Join(path, d)
		if err := noLinkOutParents(r.Root, d); err != nil {
			return notes, err
		}
		if err := noLinkOutParents(path, d); err != nil {
			return notes, err
		}
		if _, err := os.Stat(src); err != nil || exists(dst) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return notes, err
		}
		if err := os.Symlink(src, dst); err != nil {
			return notes, err
		}
		// ".gitignore: node_modules/" does not match a link named
		// node_modules: hide it, or every worktree would look dirty.
		if err := r.exclude("/" + filepath.ToSlash(d)); err != nil {
			return notes, err
		}
		notes = append(notes, "linked "+d)
	}
	n, err := r.copyIncluded(path)
	if err != nil {
		return notes, err
	}
	if n > 0 {
		notes = append(notes, fmt.Sprintf("copied %d ignored file(s) listed in .worktreeinclude", n))
	}
	if _, err := os.Stat(filepath.Join(path, ".gitmodules")); err == nil {
		// git's own rules apply, as in clone: the submodules' URLs come
		// with the repository, and git refuses a local path or file:// one
		// (protocol.file.allow, CVE-2022-39253) unless the user allows it.
		// The worktree stands without them; the note says how to finish.
		if _, err := wt.Run("submodule", "update", "--init", "--recursive", "--quiet"); err != nil {
			why := err.Error()
			var ge *gitError
			if errors.As(err, &ge) {
				why = ge.msg
			}
			why = strings.TrimPrefix(why, "fatal: ")
			if strings.Contains(why, "transport 'file' not allowed") {
				// The command that works: a user who read .gitmodules
				// allows it for this one command, as git's advice says.
				notes = append(notes, fmt.Sprintf("submodules not initialised: .gitmodules names a local repository, which git clones only when you allow it (protocol.file.allow); read %s, then run 'git -C %s -c protocol.file.allow=always submodule update --init --recursive'",
					shell.Quote(filepath.Join(path, ".gitmodules")), shell.Quote(path)))
			} else {
				notes = append(notes, fmt.Sprintf("submodules not initialised: %s; run 'git -C %s submodule update --init --recursive' once they can be reached", why, shell.Quote(path)))
			}
		} else {
			notes = append(notes, "initialised submodules")
		}
	}
	return notes, nil
}

// copyIncluded copies the files of the main worktree that are both ignored
// by git and listed in .worktreeinclude (gitignore syntax): .env and the
// like, which a fresh checkout lacks. Git does the matching both ways.
func (r *Repo) copyIncluded(path string) (int, error) {
	include := filepath.Join(r.Root, ".worktreeinclude")
	if _, err := os.Stat(include); err != nil {
		return 0, nil
	}
	ignored, err := r.Git.Run("ls-files", "-z", "--others", "--ignored", "--exclude-standard")
	if err != nil {
		return 0, err
	}
	listed, err := r.Git.Run("ls-files", "-z", "--others", "--ignored", "--exclude-from="+include)
	if err != nil {
		return 0, err
	}
	want := map[string]bool{}
	for _, f := range strings.Split(listed, "\x00") {
		want[f] = f != ""
	}
	n := 0
	for _, f := range strings.Split(ignored, "\x00") {
		if !want[f] || strings.HasPrefix(f, filepath.Base(r.Dir)+"/") {
			continue
		}
		src, dst := filepath.Join(r.Root, f), filepath.Join(path, f)
		if err := noLinkOutParents(r.Root, f); err != nil {
			return n, err
		}
		if err := noLinkOutParents(path, f); err != nil {
			return n, err
		}
		fi, err := os.Lstat(src)
		if err != nil || !fi.Mode().IsRegular() || exists(dst) {
			continue
		}
		data, err := os.ReadFile(src)
		if err != nil {
			return n, err
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return n, err
		}
		if err := fsx.WriteFile(dst, data, fi.Mode().Perm()); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// excludeWorktrees keeps the worktrees dir out of `git status`.
func (r *Repo) excludeWorktrees() error {
	rel, err := filepath.Rel(r.Root, r.Dir)
	if err != nil || strings.HasPrefix(rel, "..") || r.Bare {
		return nil // outside the work tree: nothing to hide
	}
	return r.exclude("/" + filepath.ToSlash(rel) + "/")
}

// exclude adds line to $GIT_COMMON_DIR/info/exclude unless it is there:
// never to a tracked .gitignore. The read-modify-write holds a flock so
// parallel `worktree new` calls do not drop each other's line.
func (r *Repo) exclude(line string) error {
	info := filepath.Join(r.Common, "info")
	if err := os.MkdirAll(info, 0o755); err != nil {
		return err
	}
	lockPath := filepath.Join(info, ".claude-account-exclude.lock")
	lf, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	path := filepath.Join(info, "exclude")
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == line {
			return nil
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	data = append(data, []byte("# claude-account worktrees\n"+line+"\n")...)
	return fsx.WriteFile(path, data, 0o644)
}

// claudesOwn refuses the existing worktree e when it is Claude's own: one
// Claude Code made (or adopted) for a background session or an agent at the
// same place and on the same branch New uses (.claude/worktrees/NAME,
// worktree-NAME; EnterWorktree), known by Claude's git lock on it, or one
// the launcher did not make where a session of Claude's fleet lives. Its
// work and its session are Claude's: sharing it would put two sessions'
// edits in one checkout.
func claudesOwn(r *Repo, e *Entry, o Options) error {
	gitDir, _ := GitDir(e.Path)
	ours := ReadMeta(gitDir) != nil // made by New: ours to reuse
	// The lock is read only when git lists one: a launch reuses its
	// worktree here.
	if e.Locked {
		if l := r.lockOf(e.Path); l != nil && l.Claude {
			live := o.Alive == nil || o.Alive(l.PID)
			switch {
			case ours && !live:
				// Claude adopted our worktree (EnterWorktree at its
				// path) in a session that has ended, and left its lock.
			case ours:
				return fmt.Errorf("%s is claude-account's, but Claude Code's %s %s works in it now (PID %d); stop that session first, or pick another name", e.Path, l.Kind, l.Name, l.PID)
			case !live:
				return fmt.Errorf("%s is the worktree Claude Code made for its %s %s, not one of claude-account's; pick another name (its session, PID %d, has ended: 'claude-account worktree rm --force %s' removes it, saving its work)", e.Path, l.Kind, l.Name, l.PID, e.Path)
			default:
				return fmt.Errorf("%s is the worktree Claude Code made for its %s %s (git-locked by PID %d), not one of claude-account's; pick another name", e.Path, l.Kind, l.Name, l.PID)
			}
		}
	}
	if ours || o.Background == nil {
		return nil
	}
	if hs := o.Background(e.Path, gitDir); len(hs) > 0 {
		return fmt.Errorf("%s is Claude Code's own worktree: its %s works there; pick another name", e.Path, hs[0].What)
	}
	return nil
}
