package configdir

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/ledger"
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
	// Mechanism says how Claude keeps the login, which differs by system
	// (claudever.Binary.OS) and release: the Login* constants.
	Mechanism string `json:"mechanism,omitempty"`
}

// How Claude keeps the login (Shared.Mechanism). On Linux it is a file,
// .credentials.json; on macOS a keychain item named for a hash of a dir's
// path: the account dir's from 2.1.144 (CLAUDE_SECURESTORAGE_CONFIG_DIR),
// before that the config dir's, so each worktree's runtime has its own.
const (
	LoginFile           = "file .credentials.json in the account dir"
	LoginLink           = "link to the account's .credentials.json in each config dir"
	LoginKeychain       = "keychain item keyed by the account dir"
	LoginKeychainPerDir = "keychain item per config dir: each worktree logs in once"
	LoginKeychainYours  = "keychain item keyed by $CLAUDE_SECURESTORAGE_CONFIG_DIR"
	LoginFileYours      = "file .credentials.json in $CLAUDE_SECURESTORAGE_CONFIG_DIR"
)

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
		out = append(out, Shared{Name: "login", Via: "environment", Variable: "CLAUDE_SECURESTORAGE_CONFIG_DIR", Path: a.Dir,
			Mechanism: pick(c.Keychain(), LoginKeychain, LoginFile)})
		if !c.Keychain() {
			out = append(out, Shared{Name: "login", Via: "link", Path: creds, Mechanism: LoginLink,
				Note: "the release of this Claude is unknown: a release before 2.1.144 reads the login only through this link"})
		}
	case c.Has(claudever.SecureStorageDir):
		out = append(out, Shared{Name: "login", Via: "environment", Variable: "CLAUDE_SECURESTORAGE_CONFIG_DIR", Path: a.Dir,
			Mechanism: pick(c.Keychain(), LoginKeychain, LoginFile)})
	case c.Keychain():
		out = append(out, Shared{Name: "login", Via: "none", Path: l.ConfigDir, Needs: claudever.SecureStorageDir.String(),
			Note: "Claude keeps the login in a keychain item named by the config dir: log in once in each worktree", Mechanism: LoginKeychainPerDir})
	default:
		out = append(out, Shared{Name: "login", Via: "link", Path: creds, Mechanism: LoginLink})
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

func pick(darwin bool, keychain, file string) string {
	if darwin {
		return keychain
	}
	return file
}

// userLogin is the login row when the user set CLAUDE_SECURESTORAGE_CONFIG_DIR.
func userLogin(s Shared, v string, c claudever.Binary) Shared {
	s.Path, s.FromUser = v, true
	s.Mechanism = pick(c.Keychain(), LoginKeychainYours, LoginFileYours)
	return s
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
	viaLedger := []Shared{{Name: "mcpServers", Via: "ledger", Path: ledger.Path(a.Dir)},
		{Name: "trust", Via: "ledger", Path: ledger.Path(a.Dir)}}
	if !l.IsRuntime {
		dir := []Shared{{Name: "login", Via: "configDir", Path: a.Dir, Mechanism: pick(c.Keychain(), LoginKeychain, LoginFile)},
			{Name: "memory", Via: "configDir", Path: a.Dir}, {Name: "plugins", Via: "configDir", Path: filepath.Join(a.Dir, "plugins")}}
		if v := e.Get("CLAUDE_SECURESTORAGE_CONFIG_DIR"); v != "" && c.MayHave(claudever.SecureStorageDir) {
			dir[0] = userLogin(Shared{Name: "login", Via: "environment", Variable: "CLAUDE_SECURESTORAGE_CONFIG_DIR"}, v, c)
		}
		return append(append(dir, Shared{Name: "settings", Via: "configDir", Path: filepath.Join(a.Dir, "settings.json")}), viaLedger...)
	}
	var out []Shared
	for _, s := range SharedVia(a, l, c) {
		if s.Via == "environment" {
			if v := e.Get(s.Variable); v != "" {
				s.Path, s.FromUser = v, true
				if s.Name == "login" {
					s = userLogin(s, v, c)
				}
			}
		}
		out = append(out, s)
	}
	return append(append(out, Shared{Name: "settings", Via: "link", Path: filepath.Join(a.Dir, "settings.json")}), viaLedger...)
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
			found = append(found, fmt.Sprintf("%s (%s; the account's login is shared now)", creds, fsx.Kind(fi.Mode())))
		}
	}
	if fi, err := os.Lstat(filepath.Join(dir, "settings.json")); err == nil && fi.Mode().IsRegular() {
		found = append(found, filepath.Join(dir, "settings.json")+" (a file of its own; the account's settings are shared now)")
	}
	if !c.Has(claudever.RemoteMemoryDir) {
		return found, "", ""
	}
	var mem []string
	for _, d := range memoryDirs(dir) {
		files, _ := filepath.Glob(filepath.Join(d, "*"))
		mem = append(mem, files...)
	}
	if len(mem) > 0 {
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

// memoryDirs are the runtime's projects/<key>/memory dirs, reached through
// no link (fsx.LinkIn): a projects or key link that came with the
// repository would offer another account's memory as this runtime's, and
// the change-time check would look at that memory, not at the link.
func memoryDirs(dir string) []string {
	found, _ := filepath.Glob(filepath.Join(dir, "projects", "*", "memory"))
	var out []string
	for _, m := range found {
		if rel, err := filepath.Rel(dir, m); err == nil && fsx.LinkIn(dir, rel) == "" {
			out = append(out, m)
		}
	}
	return out
}

// migrateMemory moves the auto-memory a runtime made by an earlier version
// kept in itself (projects/<key>/memory/) to the account, where every
// worktree of the repository reads it. Nothing is overwritten: a file the
// account already has with other content arrives under a name of its own.
func (p *Plan) migrateMemory(in Input) {
	for _, from := range memoryDirs(p.ConfigDir) {
		key := filepath.Base(filepath.Dir(from))
		to := filepath.Join(in.Account.Dir, "projects", key, "memory")
		des, err := os.ReadDir(from)
		if err != nil {
			continue
		}
		if changed := treeChangedSince(from, p.quiet); changed != "" {
			// Set aside, not left: left, the next launch would find it
			// older than the session between and move it to the account.
			aside := freeAside(from, in.Now)
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
