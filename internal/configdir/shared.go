package configdir

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"syscall"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/mcp"
	"github.com/claude-account/claude-account/internal/shared"
)

// Shared is one thing a config dir shares with its account, how, and where it
// resolves: for status and doctor.
type Shared struct {
	Name     string `json:"name"`               // login, memory, plugins, settings, mcpServers, trust
	Via      string `json:"via"`                // environment, link, ledger, configDir (outside a runtime, Claude's own default), none (not shared on this Claude)
	Variable string `json:"variable,omitempty"` // with via environment
	Path     string `json:"path"`               // where it resolves
	FromUser bool   `json:"fromUser,omitempty"` // the user set the variable; the launcher left it
	// Needs is the Claude Code release that shares this fully, when the one
	// in use does less (via none, or memory kept per worktree).
	Needs string `json:"needs,omitempty"`
	Note  string `json:"note,omitempty"` // what it means for the user, with Needs
}

// SharedVia lists what a runtime shares with the account through Claude's
// environment or a link, as the Claude in use can read it
// (claudever.SecureStorageDir and the others). Links cannot share most of
// these: Claude writes absolute paths into its plugin records and keys its
// macOS keychain entry by the config dir's path, so a link through one
// worktree's runtime would break when that worktree goes. The login file on
// Linux is the exception Claude before 2.1.144 needs: it reads and writes
// only $CLAUDE_CONFIG_DIR/.credentials.json, with writeFileSync, which
// follows a link — so a link to the account's login shares it both ways.
//
// Memory: Claude's documented autoMemoryDirectory setting names one fixed
// directory; in the account's settings.json (shared by every repository) it
// would put all repositories' memories in one place, and as a --settings flag
// it would collide with the user's own. CLAUDE_CODE_REMOTE_MEMORY_DIR only
// replaces the base directory, so Claude keeps its own per-repository key
// (the main worktree's root): <account>/projects/<key>/memory, exactly where
// Claude keeps it with CLAUDE_CONFIG_DIR=<account>. autoMemoryDirectory, when
// the user sets it, still wins (Claude reads it first).
//
// A Claude whose release could not be read gets what works on every
// release: the login both through the variable and (on Linux) the link —
// measured harmless together on 2.0.77, 2.1.90 and 2.1.331, each logged in —
// and memory and plugins through their variables, which an older release
// ignores.
func SharedVia(a *account.Account, l Layout, c claudever.Binary) []Shared {
	creds := filepath.Join(a.Dir, Credentials)
	var out []Shared
	switch {
	case !c.Known:
		out = append(out, Shared{Name: "login", Via: "environment", Variable: "CLAUDE_SECURESTORAGE_CONFIG_DIR", Path: a.Dir})
		if goruntime.GOOS != "darwin" {
			out = append(out, Shared{Name: "login", Via: "link", Path: creds,
				Note: "the release of this Claude is unknown: a release before 2.1.144 reads the login only through this link"})
		}
	case c.Has(claudever.SecureStorageDir):
		out = append(out, Shared{Name: "login", Via: "environment", Variable: "CLAUDE_SECURESTORAGE_CONFIG_DIR", Path: a.Dir})
	case goruntime.GOOS == "darwin":
		out = append(out, Shared{Name: "login", Via: "none", Path: l.ConfigDir, Needs: claudever.SecureStorageDir.String(),
			Note: "Claude keeps the login in a keychain entry named by the config dir: log in once in each worktree"})
	default:
		out = append(out, Shared{Name: "login", Via: "link", Path: creds})
	}
	memory := Shared{Name: "memory", Via: "environment", Variable: "CLAUDE_CODE_REMOTE_MEMORY_DIR", Path: a.Dir}
	switch {
	case !c.MayHave(claudever.RemoteMemoryDir):
		memory = Shared{Name: "memory", Via: "none", Path: l.ConfigDir, Needs: claudever.RemoteMemoryDir.String(),
			Note: "what memory this Claude keeps stays in the worktree's runtime and goes with it"}
	case !c.MayHave(claudever.MemoryPerRepository):
		memory.Needs = claudever.MemoryPerRepository.String()
		memory.Note = "this Claude keeps one memory per worktree (in the account dir, so it outlives the worktree); one per repository"
	}
	out = append(out, memory)
	if c.MayHave(claudever.PluginCacheDir) {
		out = append(out, Shared{Name: "plugins", Via: "environment", Variable: "CLAUDE_CODE_PLUGIN_CACHE_DIR", Path: filepath.Join(a.Dir, "plugins")})
	} else {
		out = append(out, Shared{Name: "plugins", Via: "none", Path: filepath.Join(l.ConfigDir, "plugins"), Needs: claudever.PluginCacheDir.String(),
			Note: "each worktree adds its own marketplaces and installs its own plugins"})
	}
	return out
}

// SharedEnv is what SharedVia shares through Claude's environment, as it
// will have it: a variable the user set is kept, and reported as theirs.
// Outside a runtime the config dir is the account dir, so Claude's defaults
// already share everything.
func SharedEnv(a *account.Account, l Layout, e env.Env, c claudever.Binary) []Shared {
	if !l.IsRuntime {
		return nil
	}
	var out []Shared
	for _, s := range SharedVia(a, l, c) {
		if s.Via != "environment" {
			continue
		}
		if v := e.Get(s.Variable); v != "" {
			s.Path, s.FromUser = v, true
		}
		out = append(out, s)
	}
	return out
}

// SharedState lists everything a config dir shares with its account and where
// it resolves: the environment and links (SharedVia), the settings link, and
// the ledger of MCP servers and trust.
func SharedState(a *account.Account, l Layout, e env.Env, c claudever.Binary) []Shared {
	ledger := []Shared{{Name: "mcpServers", Via: "ledger", Path: shared.Path(a.Dir)},
		{Name: "trust", Via: "ledger", Path: shared.Path(a.Dir)}}
	if !l.IsRuntime {
		dir := []Shared{{Name: "login", Via: "configDir", Path: a.Dir}, {Name: "memory", Via: "configDir", Path: a.Dir},
			{Name: "plugins", Via: "configDir", Path: filepath.Join(a.Dir, "plugins")}}
		if v := e.Get("CLAUDE_SECURESTORAGE_CONFIG_DIR"); v != "" && c.MayHave(claudever.SecureStorageDir) {
			dir[0] = Shared{Name: "login", Via: "environment", Variable: "CLAUDE_SECURESTORAGE_CONFIG_DIR", Path: v, FromUser: true}
		}
		return append(append(dir, Shared{Name: "settings", Via: "configDir", Path: filepath.Join(a.Dir, "settings.json")}), ledger...)
	}
	var out []Shared
	for _, s := range SharedVia(a, l, c) {
		if s.Via == "environment" {
			if v := e.Get(s.Variable); v != "" {
				s.Path, s.FromUser = v, true
			}
		}
		out = append(out, s)
	}
	return append(append(out, Shared{Name: "settings", Via: "link", Path: filepath.Join(a.Dir, "settings.json")}), ledger...)
}

// Earlier lists what a runtime still keeps for itself that the account
// shares now, with the Claude in use (a runtime made by an earlier version of
// the launcher, or used by an older Claude): a login, a settings.json of its
// own, memory files, plugins. The next launch, or doctor --fix, moves them to
// the account. Plugins that cannot move (pluginsMove) are returned apart,
// with the reason.
func Earlier(dir, accountDir string, c claudever.Binary) (found []string, plugins, why string) {
	creds := filepath.Join(dir, Credentials)
	if fi, err := os.Lstat(creds); err == nil {
		// A link to the account's login is how an older Claude shares it.
		target, _ := os.Readlink(creds)
		wanted := fi.Mode()&os.ModeSymlink != 0 && !c.Has(claudever.SecureStorageDir) && target == filepath.Join(accountDir, Credentials)
		if !wanted {
			found = append(found, fmt.Sprintf("%s (a %s; the account's login is shared now)", creds, kindName(fi)))
		}
	}
	if fi, err := os.Lstat(filepath.Join(dir, "settings.json")); err == nil && fi.Mode().IsRegular() {
		found = append(found, filepath.Join(dir, "settings.json")+" (a file of its own; the account's settings are shared now)")
	}
	if !c.Has(claudever.RemoteMemoryDir) {
		return found, "", ""
	}
	if mem, _ := filepath.Glob(filepath.Join(dir, "projects", "*", "memory", "*")); len(mem) > 0 {
		found = append(found, fmt.Sprintf("%d memory file(s) under %s (memory is the repository's now, in the account dir)", len(mem), filepath.Join(dir, "projects")))
	}
	if !c.Has(claudever.PluginCacheDir) {
		return found, "", ""
	}
	from, _, _, cannot := pluginsMove(dir, accountDir)
	switch cannot {
	case "none":
	case "":
		found = append(found, from+" (plugins installed in this worktree; the account's plugins are shared now)")
	default:
		plugins, why = from, cannot
	}
	return found, plugins, why
}

func kindName(fi os.FileInfo) string {
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return "link"
	case fi.IsDir():
		return "directory"
	}
	return "file"
}

// migrateMemory moves the auto-memory a runtime made by an earlier version
// kept in itself (projects/<key>/memory/) to the account, where every
// worktree of the repository reads it. Nothing is overwritten: a file the
// account already has with other content arrives under a name of its own.
func (p *Plan) migrateMemory(in Input) {
	dirs, _ := filepath.Glob(filepath.Join(p.ConfigDir, "projects", "*", "memory"))
	for _, from := range dirs {
		key := filepath.Base(filepath.Dir(from))
		to := filepath.Join(in.Account.Dir, "projects", key, "memory")
		des, err := os.ReadDir(from)
		if err != nil {
			continue
		}
		if changed := treeChangedSince(from, p.quiet); changed != "" {
			// Set aside, not left: left, the next launch would find it
			// older than the session between and move it to the account.
			aside := from + ".moved-" + in.Now.UTC().Format("20060102T150405Z")
			p.Steps = append(p.Steps, Step{Op: Move, Path: from, Target: aside, Why: "changed while no Claude ran here"})
			p.Notes = append(p.Notes, fmt.Sprintf("%s changed while no Claude ran in this worktree (it came with the repository?); kept that memory as %s, not moved to %s", changed, aside, to))
			continue
		}
		moved := 0
		for _, de := range des {
			if !de.Type().IsRegular() {
				p.Notes = append(p.Notes, fmt.Sprintf("%s is not a file; move it to %s yourself", filepath.Join(from, de.Name()), to))
				continue
			}
			src := filepath.Join(from, de.Name())
			dst := filepath.Join(to, de.Name())
			if same, _ := sameContent(src, dst); same {
				p.Steps = append(p.Steps, Step{Op: Unlink, Path: src, Why: "the account's memory has it"})
				continue
			}
			if exists(dst) {
				ext := filepath.Ext(de.Name())
				dst = filepath.Join(to, strings.TrimSuffix(de.Name(), ext)+".from-"+in.Context.Fingerprint[:8]+ext)
			}
			if moved == 0 {
				p.Steps = append(p.Steps, Step{Op: Mkdir, Path: to, Mode: 0o700, Why: "the repository's memory, for every worktree"})
			}
			p.Steps = append(p.Steps, Step{Op: Move, Path: src, Target: dst, Why: "memory is the repository's"})
			moved++
		}
		if moved > 0 {
			p.Notes = append(p.Notes, fmt.Sprintf("moved %d memory file(s) from %s to %s, where every worktree of the repository reads them", moved, from, to))
		}
	}
}

func sameContent(a, b string) (bool, error) {
	x, err := os.ReadFile(a)
	if err != nil {
		return false, err
	}
	y, err := os.ReadFile(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(x, y), nil
}

// Harvest plans the recording of what Claude changed during a session in what
// the account shares — servers it added, changed or removed, the repository's
// trust — in the account's ledger, so that the account's other worktrees get
// it at their next launch. It writes nothing else.
func Harvest(in Input, since StateStamp) (*Plan, error) {
	p := &Plan{Layout: in.Layout}
	if Stamp(in.Layout) == since {
		return p, nil // Claude did not write its state: nothing to take in
	}
	ledgerPath := shared.Path(in.Account.Dir)
	ledger, err := shared.Read(ledgerPath)
	if err != nil {
		return nil, err
	}
	declared, err := declaredServers(in.Account)
	if err != nil {
		return nil, err
	}
	state := filepath.Join(p.ConfigDir, ".claude.json")
	cur, release, err := mapOptional(state)
	p.releases = append(p.releases, release)
	if err != nil || cur == nil {
		return p, err
	}
	rf := loadRecord(filepath.Join(p.ConfigDir, ManagedFile), false)
	if rf.r.Servers == nil {
		return p, nil // not launched by this version: the next launch harvests it
	}
	root := RepositoryRoot(in.Context)
	var next *shared.Ledger
	err = fsx.Guard(state, func() error {
		raw, _, err := coalesce.Lookup(cur, "mcpServers")
		if err != nil {
			return err
		}
		current, err := mcp.ParseClaudes(raw, state)
		if err != nil {
			return err
		}
		res := shared.Reconcile(shared.Input{Ledger: ledger, Rebuilt: ledger == nil, Declared: declared, Overlay: p.overlay(in),
			Current: current, Seen: rf.r.Servers, File: state})
		next = res.Ledger
		// Claude's own servers are now in the ledger; what it did to the
		// declared ones is still to be undone, and told, at the next launch.
		seen := shared.SeenOf(current)
		for _, d := range declared {
			if before, ok := rf.r.Servers[d.Name]; ok {
				seen[d.Name] = before
			} else {
				delete(seen, d.Name)
			}
		}
		rf.r.Servers = seen
		// The account's keys Claude changed in this session (onboarding,
		// /config, /theme) hold for the account: the later exit wins.
		names := accountKeyNames(in.Account)
		have, err := lookupKeys(func(n string) ([]byte, bool, error) { return coalesce.Lookup(cur, n) }, names)
		if err != nil {
			return err
		}
		next.HarvestKeys(names, have, rf.r.AccountKeys)
		rf.r.AccountKeys = have
		if !p.IsRuntime {
			rf.r.Stamp = Stamp(in.Layout) // the account dir's: harvested now
		}
		if p.IsRuntime && root != "" && !next.IsTrusted(root) {
			// Claude keys trust by the main worktree's root (before 2.1.63
			// by each worktree's own: trustPaths); it holds for every
			// worktree of the repository.
			for _, path := range trustPaths(in) {
				v, ok, err := coalesce.Path(cur, "projects", path, "hasTrustDialogAccepted")
				if err == nil && ok && string(v) == "true" {
					next.Trusted = append(next.Trusted, root)
					rf.r.TrustSeeded = true
					break
				}
			}
		}
		return nil
	})
	if err != nil {
		// Claude's file is Claude's to fix; the next launch reports it.
		return p, nil
	}
	p.Notes = nil // the overlay's notes were given at launch
	if !shared.Same(ledger, next) {
		p.Steps = append(p.Steps, Step{Op: Write, Path: ledgerPath, Data: next.Encode(), Secret: true, Why: "what Claude shared in this session"})
	}
	if rf.changed() {
		p.Steps = append(p.Steps, Step{Op: Write, Path: rf.path, Data: rf.encode(), Secret: true, Why: "launcher's record"})
	}
	return p, nil
}

// StateStamp identifies one version of a config dir's .claude.json: Claude
// replaces it by rename, so a new inode, size or mtime means a new version.
type StateStamp struct {
	Ino        int64 `json:"ino"`
	Size       int64 `json:"size"`
	MtimeNanos int64 `json:"mtimeNs"`
}

// Stamp is the config dir's .claude.json as it is now; zero when missing.
func Stamp(l Layout) StateStamp { return stampOf(filepath.Join(l.ConfigDir, ".claude.json")) }

func stampOf(path string) StateStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return StateStamp{}
	}
	st := StateStamp{Size: fi.Size(), MtimeNanos: fi.ModTime().UnixNano()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.Ino = int64(sys.Ino)
	}
	return st
}
