package configdir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/jsonx"
	"github.com/claude-account/claude-account/internal/ledger"
	"github.com/claude-account/claude-account/internal/runtimes"
	"github.com/claude-account/claude-account/internal/trust"
)

// Op is what a Step does.
type Op string

const (
	Mkdir  Op = "mkdir"
	Link   Op = "link"
	Unlink Op = "unlink"
	Write  Op = "write"
	Move   Op = "move"
	// Register records Path in the account's record of the runtimes the
	// launcher made (Target: the record's file), once Path exists, with
	// where it belongs (Place).
	Register Op = "register"
)

// Step is one change to the file system. A plan is a list of them, so it can
// be printed and tested without touching disk.
type Step struct {
	Op     Op
	Path   string
	Target string   // Link: the link's target; Move: the new path
	Data   []byte   // Write
	Pieces [][]byte // Write, instead of Data: written one after the other
	// Check, with Pieces: validates the input the pieces were cut from. It
	// runs while the pieces are written to a temporary file, and the step
	// (and every other) is applied only if it passes.
	Check   func() error
	Mode    fs.FileMode
	Secret  bool           // Write: 0600 from the first byte
	Replace bool           // Link: replaces a file that is not a link, atomically
	Place   runtimes.Place // Register: where the runtime belongs
	Why     string
}

func (s Step) String() string {
	switch s.Op {
	case Link:
		return fmt.Sprintf("link  %s -> %s (%s)", s.Path, s.Target, s.Why)
	case Move:
		return fmt.Sprintf("move  %s -> %s (%s)", s.Path, s.Target, s.Why)
	case Register:
		return fmt.Sprintf("register %s in %s (%s)", s.Path, s.Target, s.Why)
	default:
		return fmt.Sprintf("%-5s %s (%s)", s.Op, s.Path, s.Why)
	}
}

// Plan is everything a launch must change before Claude starts.
type Plan struct {
	Layout
	Steps []Step
	Notes []string // one-line notices for the user
	// SetsAside: the plan moves the existing runtime dir aside (it belongs
	// to another workspace, or is not the launcher's). No other Claude may
	// be using it then.
	SetsAside bool
	// quiet is when the launcher last left the runtime alone: a file it
	// would take into the account that changed later did not come from a
	// Claude it started (runtimes.ChangedSince); 0 when that is not known.
	quiet    int64
	releases []func() // unmap what was mapped; see Close
	scanned  int      // config dirs' .claude.json read (SyncStamp spares it)
}

// Close releases the files the plan mapped. The plan's steps read from them:
// call it after Apply, or when the plan is not applied. Unmapping a large
// file takes milliseconds (its page tables torn down), and nothing reads it
// any more: it is done on another thread while the launch goes on to start
// Claude.
func (p *Plan) Close() {
	if p == nil || len(p.releases) == 0 {
		return
	}
	releases := p.releases
	p.releases = nil
	go func() {
		for _, r := range releases {
			r()
		}
	}()
}

// Linked are the account entries a runtime links to, whole (account.Content).
// settings.json is linked too (planSettingsLink); the login, the plugins and
// the memory are the account's through environment variables (see Env).
var Linked = account.Content

// WorkspaceFile binds a runtime dir to the workspace it was made for.
const WorkspaceFile = "workspace.json"

// Workspace is the body of workspace.json.
type Workspace struct {
	Account     string `json:"account"`
	AccountDir  string `json:"accountDir"`
	Toplevel    string `json:"toplevel"`
	Fingerprint string `json:"fingerprint"`
	GitDir      string `json:"gitDir"`
}

// bindingToplevel is the work tree a runtime's workspace.json names, as
// JSON.parse reads it (the last "toplevel" of a valid object); "" when it
// names none. Read on every launch, without encoding/json's reflection,
// whose first use in a process was 7% of the plan's CPU.
func bindingToplevel(data []byte) string {
	if coalesce.Validate(data) != nil {
		return ""
	}
	raw, ok := coalesce.Get(data, "toplevel")
	if !ok {
		return ""
	}
	v := gjson.ParseBytes(raw)
	if v.Type != gjson.String {
		return ""
	}
	return v.String()
}

// encode is json.MarshalIndent of ws with a final newline, without its
// reflection cost on every launch.
func (ws Workspace) encode() []byte {
	return jsonx.Object(true,
		jsonx.Field{Name: "account", Value: jsonx.String(ws.Account)},
		jsonx.Field{Name: "accountDir", Value: jsonx.String(ws.AccountDir)},
		jsonx.Field{Name: "toplevel", Value: jsonx.String(ws.Toplevel)},
		jsonx.Field{Name: "fingerprint", Value: jsonx.String(ws.Fingerprint)},
		jsonx.Field{Name: "gitDir", Value: jsonx.String(ws.GitDir)})
}

// Input is what a plan is made from.
type Input struct {
	Account *account.Account
	Context gitctx.Context
	Layout  Layout
	Trust   trust.Store
	Now     time.Time
	// Claude is the Claude Code the config dir is made for: what it can
	// share with the account depends on its release (SharedVia).
	Claude claudever.Binary
	// Unclean: the last Claude in this config dir ended without the
	// launcher (it was killed), which was last known alive at this time
	// (Unix nanoseconds; lock.Unclean): what changed in it until then may be
	// that Claude's, what changed later is not. 0: it ended with it.
	Unclean int64
}

// MakePlan reads the current state and lists the steps that bring it to the
// wanted one. Nothing is listed for what is already right, so a second launch
// plans nothing.
func MakePlan(in Input) (*Plan, error) {
	p := &Plan{Layout: in.Layout}
	if in.Layout.ReadOnly != "" {
		p.Notes = append(p.Notes, fmt.Sprintf("%s is read-only; this workspace's runtime is %s", in.Layout.ReadOnly, in.Layout.ConfigDir))
	}
	if in.Layout.Stranger != "" {
		note := fmt.Sprintf("%s reaches the git dir %s, which git records as %s's; that checkout keeps its runtime, and this work tree runs with its own, %s",
			in.Context.Toplevel, in.Context.GitDir, in.Layout.Stranger, in.Layout.ConfigDir)
		if !exists(in.Layout.Stranger) {
			note = fmt.Sprintf("git records %s as the checkout of the git dir %s, and it is gone; if this work tree moved from there, run 'git worktree repair' in it, and it keeps its runtime and conversations; until then it runs with its own, %s",
				in.Layout.Stranger, in.Context.GitDir, in.Layout.ConfigDir)
		}
		p.Notes = append(p.Notes, note)
	}
	if !in.Layout.IsRuntime {
		// The account dir is its own config dir: only its state is coalesced.
		if err := p.planState(in, false); err != nil {
			return nil, err
		}
		p.sweepTemps(in.Account.Dir, false)
		return p, nil
	}
	dir := in.Layout.ConfigDir
	facts, err := observeRuntime(in)
	if err != nil {
		return nil, err
	}
	rt, err := decideRuntime(facts, in)
	if err != nil {
		return nil, err
	}
	p.Steps, p.Notes = append(p.Steps, rt.Steps...), append(p.Notes, rt.Notes...)
	fresh := rt.Fresh
	p.SetsAside, p.quiet = rt.SetsAside, rt.Quiet

	for _, name := range Linked {
		p.link(in, name, fresh)
	}
	p.planLogin(in, fresh)
	if !fresh {
		p.setAsideStrayLinks(in)
		// What an older Claude kept in this runtime moves to the account
		// once the Claude in use reads it from there; before that, moving it
		// would lose it to Claude.
		if in.Claude.Has(claudever.RemoteMemoryDir) {
			p.migrateMemory(in)
		}
		if in.Claude.Has(claudever.PluginCacheDir) {
			p.migratePlugins(in)
		}
	}

	if err := p.planState(in, fresh); err != nil {
		return nil, err
	}

	if rt.Binding != nil {
		p.Steps = append(p.Steps, Step{Op: Write, Path: filepath.Join(dir, WorkspaceFile), Data: rt.Binding, Mode: 0o600, Why: "workspace binding"})
	}
	// A fresh runtime has no temporary files of ours (a dir set aside may
	// have any: it is kept as it is).
	p.sweepTemps(in.Account.Dir, !fresh)
	return p, nil
}

// written are the files a launch writes in a config dir and in the account
// dir, atomically: through a temporary file "."+name+digits beside them.
var written = []string{".claude.json", "settings.json", WorkspaceFile, ManagedFile, ledger.FileName, runtimes.FileName, Credentials}

// Temps lists the temporary files that a launch killed in the middle of a
// write left behind in dir (".claude.json<digits>" and the like): full
// copies of Claude's state or the ledger, secrets included.
func Temps(dir string) []string {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, de := range des {
		if !de.Type().IsRegular() || len(de.Name()) < 2 || de.Name()[0] != '.' {
			continue
		}
		for _, w := range written {
			if fsx.IsTemp(de.Name(), w) {
				out = append(out, filepath.Join(dir, de.Name()))
			}
		}
	}
	return out
}

// sweepTemps plans the removal of Temps in the config dir and the account
// dir. The instance lock and the account's lock, held when the plan is
// applied, mean no other launch is writing them now.
func (p *Plan) sweepTemps(accountDir string, configDir bool) {
	dirs := []string{accountDir}
	if configDir && !fsx.SamePath(p.ConfigDir, accountDir) {
		dirs = append(dirs, p.ConfigDir)
	}
	for _, dir := range dirs {
		for _, t := range Temps(dir) {
			p.Steps = append(p.Steps, Step{Op: Unlink, Path: t, Why: "left by an interrupted write"})
		}
	}
}

// describe says what kind of file path is, for messages: "a symbolic link
// to X", "a directory", "a FIFO".
func describe(path string, fi fs.FileInfo) string {
	if fi.Mode()&fs.ModeSymlink != 0 {
		if t, err := os.Readlink(path); err == nil {
			return "a symbolic link to " + t
		}
	}
	return fsx.Kind(fi.Mode())
}

// link plans runtime/name -> accountDir/name when the account has that entry,
// and the removal of such a link when it no longer has. Anything else there
// that changed while no Claude ran (runtimes.ChangedSince) came with the
// repository, or was put there by hand: an archive extracted over the
// checkout keeps the runtime's inode and lays its own hooks/ or a link to
// another account's skills where the account's belong, for Claude to run
// and load. It is kept aside, never followed, and the account's link made.
// What Claude made there in a session (agents/ when the account has none)
// stays: its change time is before the launcher left the runtime alone.
func (p *Plan) link(in Input, name string, fresh bool) {
	dir, accountDir := p.ConfigDir, in.Account.Dir
	target := filepath.Join(accountDir, name)
	path := filepath.Join(dir, name)
	want := exists(target)
	if fresh {
		if want {
			p.Steps = append(p.Steps, Step{Op: Link, Path: path, Target: target, Why: "account's " + name})
		}
		return
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if want {
			p.Steps = append(p.Steps, Step{Op: Link, Path: path, Target: target, Why: "account's " + name})
		}
	case err != nil:
		p.Notes = append(p.Notes, fmt.Sprintf("%s: %v", path, err))
	case fi.Mode()&fs.ModeSymlink != 0:
		cur, _ := os.Readlink(path)
		switch {
		case want && cur != target:
			p.Steps = append(p.Steps, Step{Op: Link, Path: path, Target: target, Why: "was " + cur})
		case !want && cur == target:
			p.Steps = append(p.Steps, Step{Op: Unlink, Path: path, Why: "the account has no " + name})
		case !want:
			// Not the launcher's: it links only to the account's entry.
			p.strayLink(in, path, cur)
		}
	case runtimes.ChangedSince(path, p.quiet):
		aside := freeAside(path, in.Now)
		p.Steps = append(p.Steps, Step{Op: Move, Path: path, Target: aside, Why: "changed while no Claude ran here"})
		did := "made none in its place (the account has no " + name + ")"
		if want {
			p.Steps = append(p.Steps, Step{Op: Link, Path: path, Target: target, Why: "account's " + name})
			did = "linked the account's " + name
		}
		p.Notes = append(p.Notes, fmt.Sprintf("%s is %s that changed while no Claude ran in this worktree (it came with the repository?); kept it as %s, read nothing from it, and %s", path, fsx.Kind(fi.Mode()), aside, did))
	case want:
		p.Notes = append(p.Notes, fmt.Sprintf("%s is %s, not a link to %s; left as it is (run 'claude-account doctor --account %s' in this worktree)", path, fsx.Kind(fi.Mode()), target, filepath.Base(p.ConfigDir)))
	}
}

// Credentials is Claude's login file on Linux.
const Credentials = ".credentials.json"

// planLogin shares the account's login with a runtime the way the Claude in
// use reads it (SharedVia): from 2.1.144 Claude reads the account dir itself
// (CLAUDE_SECURESTORAGE_CONFIG_DIR) and the runtime holds no login; before,
// it reads and writes only the config dir's .credentials.json, so on Linux
// that is a link to the account's. A login Claude wrote in the runtime as a
// file of its own (after a logout there, or under a Claude of the other
// kind) becomes the account's when it is the newer one: written through a
// symlinked account login, never over it. Only runtimes the launcher made get
// this far (MakePlan), so a login that came with a repository never does.
func (p *Plan) planLogin(in Input, fresh bool) {
	path := filepath.Join(p.ConfigDir, Credentials)
	acct := filepath.Join(in.Account.Dir, Credentials)
	link := false
	for _, s := range SharedVia(in.Account, p.Layout, in.Claude) {
		link = link || s.Name == "login" && s.Via == "link"
	}
	linkStep := Step{Op: Link, Path: path, Target: acct, Why: "the account's login, which this Claude reads only from its config dir"}
	if fresh {
		if link {
			p.Steps = append(p.Steps, linkStep)
		}
		return
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if link {
			p.Steps = append(p.Steps, linkStep)
		}
		return
	case err != nil:
		p.Notes = append(p.Notes, fmt.Sprintf("%s: %v", path, err))
		return
	case fi.Mode()&fs.ModeSymlink != 0:
		cur, _ := os.Readlink(path)
		switch {
		case link && cur != acct:
			p.Steps = append(p.Steps, linkStep)
		case !link:
			p.Steps = append(p.Steps, Step{Op: Unlink, Path: path, Why: "Claude reads the account's login from the account dir"})
		}
		return
	case !fi.Mode().IsRegular():
		p.Notes = append(p.Notes, fmt.Sprintf("%s is %s; Claude keeps the login in %s, so remove it", path, describe(path, fi), in.Account.Dir))
		return
	}
	target := acct
	if resolved, err := filepath.EvalSymlinks(target); err == nil {
		target = resolved
	}
	replace := Step{Op: Unlink, Path: path, Why: "moved to the account"}
	if link {
		replace = linkStep
		replace.Replace = true
	}
	if !p.untouched(path) {
		// Not written by a Claude the launcher started: never the account's,
		// and not this worktree's either (it would log Claude in as whoever
		// wrote it). Kept aside.
		aside := freeAside(path, in.Now)
		p.Steps = append(p.Steps, Step{Op: Move, Path: path, Target: aside, Why: "changed while no Claude ran here"})
		if link {
			p.Steps = append(p.Steps, linkStep)
		}
		p.Notes = append(p.Notes, fmt.Sprintf("%s changed while no Claude ran in this worktree (it came with the repository?); kept it as %s and use the account's login", path, aside))
		return
	}
	if a, err := os.Stat(target); err == nil && !fi.ModTime().After(a.ModTime()) {
		replace.Why = "older than the account's login"
		p.Steps = append(p.Steps, replace)
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		p.Notes = append(p.Notes, fmt.Sprintf("%s: %v; left as it is", path, err))
		return
	}
	p.Steps = append(p.Steps, Step{Op: Write, Path: target, Data: data, Secret: true, Why: "newer login from " + path}, replace)
	p.Notes = append(p.Notes, fmt.Sprintf("moved the login in %s to %s, where every worktree reads it", path, target))
}

// untouched reports whether path did not change since the launcher last left
// the runtime alone, so that it may be taken into the account.
func (p *Plan) untouched(path string) bool { return !runtimes.ChangedSince(path, p.quiet) }

// ReadWorkspace reads a runtime's binding; (nil, nil) when there is none.
func ReadWorkspace(path string) (*Workspace, error) {
	data, err := fsx.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ws Workspace
	if err := json.Unmarshal(data, &ws); err != nil {
		// A damaged binding cannot prove the dir is someone else's; rewrite it.
		return nil, nil
	}
	return &ws, nil
}

// Apply carries out the steps in order. Large writes are staged first: each
// is written to its temporary file while its input is validated on another
// core, and only when every check has passed is anything changed, so a
// broken input still leaves everything as it was.
func (p *Plan) Apply() error {
	staged, err := p.stage()
	if err != nil {
		return err
	}
	for i, s := range p.Steps {
		var err error
		switch {
		case staged[i] != nil:
			err = staged[i].Commit()
			staged[i] = nil
		case s.Op == Mkdir:
			err = os.MkdirAll(s.Path, s.Mode)
		case s.Op == Link && s.Replace:
			err = fsx.ReplaceWithSymlink(s.Target, s.Path)
		case s.Op == Link:
			_, err = fsx.Symlink(s.Target, s.Path)
		case s.Op == Unlink:
			err = os.Remove(s.Path)
		case s.Op == Write && s.Pieces != nil:
			err = fsx.WriteSecretPieces(s.Path, s.Pieces)
		case s.Op == Write && s.Secret:
			err = fsx.WriteSecret(s.Path, s.Data)
		case s.Op == Write:
			err = fsx.WriteFile(s.Path, s.Data, s.Mode)
		case s.Op == Move:
			err = move(s.Path, s.Target)
		case s.Op == Register:
			err = runtimes.Register(s.Target, s.Path, s.Place)
		}
		if err != nil {
			discard(staged)
			return applyError(s, err)
		}
	}
	return nil
}

// Verify runs every step's check, for --dry-run and doctor: what Apply
// would refuse, they report.
func (p *Plan) Verify() error {
	for _, s := range p.Steps {
		if s.Check != nil {
			if err := s.Check(); err != nil {
				return err
			}
		}
	}
	return nil
}

// stage writes the checked steps to temporary files while their checks run.
// A step after one that makes or moves directories (a fresh runtime, whose
// input is empty anyway) is only checked here and written in its turn.
func (p *Plan) stage() (map[int]*fsx.Staged, error) {
	staged := map[int]*fsx.Staged{}
	checks := map[int]chan error{}
	reshaped := false // an earlier step makes or moves directories
	for i, s := range p.Steps {
		reshaped = reshaped || s.Op == Mkdir || s.Op == Move
		if s.Check == nil {
			continue
		}
		if reshaped {
			if err := s.Check(); err != nil {
				return nil, err
			}
			continue
		}
		ch := make(chan error, 1)
		go func(check func() error) { ch <- check() }(s.Check)
		checks[i] = ch
		st, err := fsx.StageSecret(s.Path, s.Pieces)
		if err != nil {
			for _, c := range checks {
				<-c
			}
			discard(staged)
			return nil, applyError(s, err)
		}
		staged[i] = st
	}
	var first error
	for _, ch := range checks {
		if err := <-ch; err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		discard(staged)
		return nil, first
	}
	return staged, nil
}

func discard(staged map[int]*fsx.Staged) {
	for _, st := range staged {
		if st != nil {
			st.Discard()
		}
	}
}

// Lines renders the plan for --dry-run, a line for the config dir and one
// for each step.
func (p *Plan) Lines() []string {
	lines := []string{"config dir " + p.ConfigDir}
	for _, s := range p.Steps {
		lines = append(lines, s.String())
	}
	return lines
}

// applyError names the file a step was about (not renameio's temporary file)
// and, for a full disk, the fix.
func applyError(s Step, err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		switch errno {
		case syscall.ENOSPC, syscall.EDQUOT, syscall.EFBIG:
			return fmt.Errorf("writing %s: %v; free some disk space and run again (the file was not changed)", s.Path, errno)
		case syscall.EACCES, syscall.EPERM, syscall.EROFS:
			return fmt.Errorf("%s %s: %v; check that %s is yours and writable", s.Op, s.Path, errno, filepath.Dir(s.Path))
		case syscall.EISDIR:
			return fmt.Errorf("%s %s: it is a directory; remove it (claude-account writes a file there)", s.Op, s.Path)
		}
		return fmt.Errorf("%s %s: %v", s.Op, s.Path, errno)
	}
	return fmt.Errorf("%s %s: %w", s.Op, s.Path, err)
}

// move renames a file or directory; a file that must cross file systems (a
// runtime in the git dir, the account in HOME) is copied, synced, and removed.
func move(from, to string) error {
	err := os.Rename(from, to)
	if !errors.Is(err, syscall.EXDEV) {
		return err
	}
	fi, err := os.Lstat(from)
	if err != nil || !fi.Mode().IsRegular() {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EXDEV}
	}
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := fsx.WriteFile(to, data, fi.Mode().Perm()); err != nil {
		return err
	}
	return os.Remove(from)
}
