package configdir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/mcp"
	"github.com/claude-account/claude-account/internal/trust"
	"github.com/tidwall/gjson"
)

// OverlayRel is where a workspace keeps its project MCP servers.
const OverlayRel = ".claude/.mcp.json"

// ManagedFile remembers which settings keys the account declared last time,
// so a key dropped from the declaration is dropped from settings.json too
// instead of lingering as if Claude had written it.
const ManagedFile = ".claude-account.json"

type managed struct {
	SettingsKeys []string `json:"settingsKeys"`
}

// IdentityKeys are copied from the account's .claude.json into a new runtime,
// so a new worktree starts logged in and onboarded.
var IdentityKeys = []string{"oauthAccount", "userID", "hasCompletedOnboarding", "lastOnboardingVersion",
	"customApiKeyResponses", "primaryApiKey", "hasAvailableSubscription"}

// fileError names the file and says what to do, for invalid JSON in a file
// the user or Claude owns: nothing is written when this happens.
func fileError(path string, err error, fix string) error {
	var se *coalesce.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s:%d:%d: %s; %s (nothing was changed)", path, se.Line, se.Column, se.Msg, fix)
	}
	return fmt.Errorf("%s: %v; %s (nothing was changed)", path, err, fix)
}

// mapOptional maps (or reads, when small) a file that may be missing.
func mapOptional(path string) ([]byte, func(), error) {
	data, release, err := fsx.Map(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, release, nil
	}
	return data, release, err
}

// readOptional reads a file that may be missing (nil, nil).
func readOptional(path string) ([]byte, error) {
	data, err := fsx.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if errors.Is(err, syscall.EISDIR) {
		return nil, fmt.Errorf("%s is a directory; remove it (a file belongs there)", path)
	}
	return data, err
}

// planState adds the writes that make settings.json and .claude.json hold what
// the account declares, keeping everything Claude wrote. Every input is read
// and checked before any step is planned: a bad file stops the launch with
// nothing written.
func (p *Plan) planState(in Input, fresh bool) error {
	a := in.Account
	dir := p.ConfigDir
	declared := a.DeclaredDir()

	// A fresh runtime starts from nothing, even where a dir bound to another
	// workspace still holds files that are about to be moved aside.
	current := func(path string) ([]byte, error) {
		if fresh {
			return nil, nil
		}
		return readOptional(path)
	}
	prev := managed{}
	managedPath := filepath.Join(dir, ManagedFile)
	if data, err := current(managedPath); err == nil && data != nil {
		// gjson, not encoding/json: no reflection on the launch path. A
		// damaged record only forgets old keys.
		for _, k := range gjson.GetBytes(data, "settingsKeys").Array() {
			prev.SettingsKeys = append(prev.SettingsKeys, k.String())
		}
	}
	next := prev

	// settings.json: writable and coalesced, unless the account keeps the
	// seed's read-only link, or this config dir is where it is declared.
	target := filepath.Join(dir, "settings.json")
	source := filepath.Join(declared, "settings.json")
	if a.Config.SettingsMode == account.SettingsCoalesce && !fsx.SamePath(target, source) {
		want, err := readOptional(source)
		if err != nil {
			return err
		}
		if err := coalesce.Validate(want); err != nil {
			return fileError(source, err, "fix the account's settings")
		}
		if a.Config.Worktree.UseHooks && in.Exe != "" {
			if want, err = withWorktreeHooks(want, in.Exe, a); err != nil {
				return fileError(source, err, "fix the account's hooks")
			}
		}
		keys, _ := coalesce.TopLevelKeys(want)
		cur, err := current(target)
		if err != nil {
			return err
		}
		if cur != nil || want != nil {
			out, changed, err := coalesce.Settings(cur, want, prev.SettingsKeys)
			if err != nil {
				return fileError(target, err, "fix the JSON or remove the file to start from the account's settings")
			}
			if changed || fresh || isSymlink(target) {
				p.Steps = append(p.Steps, Step{Op: Write, Path: target, Data: out, Mode: 0o600, Why: "account's settings"})
			}
		}
		if keys == nil {
			keys = []string{}
		}
		next.SettingsKeys = keys
	}

	// .claude.json: the merged MCP servers (and any other managed key) are
	// the account's; every other byte is Claude's.
	state := filepath.Join(dir, ".claude.json")
	accountState := filepath.Join(a.Dir, ".claude.json")
	inAccount := fsx.SamePath(state, accountState)
	mcpPath := filepath.Join(a.DeclaredDir(), ".mcp.json")
	declaredMCP, err := readOptional(mcpPath)
	if err != nil {
		return err
	}
	// Without a declared .mcp.json the account declares no servers: its
	// own .claude.json keeps the ones Claude added ('claude mcp add'), and
	// runtimes get those. Replacing them with an empty set would lose them.
	fromAccount := declaredMCP == nil
	var acct []byte
	extra := a.ManagedKeys()[1:]
	if !inAccount && (len(extra) > 0 || fresh || fromAccount || !exists(state)) {
		var release func()
		acct, release, err = mapOptional(accountState)
		p.releases = append(p.releases, release)
		if err != nil {
			return err
		}
	}
	var keys []coalesce.Key
	if !(fromAccount && inAccount) {
		base, err := mcp.Parse(declaredMCP, mcpPath)
		if err != nil {
			return fmt.Errorf("%w; fix the account's MCP servers (nothing was changed)", err)
		}
		if fromAccount {
			raw, _ := coalesce.Get(acct, "mcpServers")
			if base, err = mcp.ParseServers(raw, accountState); err != nil {
				return fmt.Errorf("%w; fix the account's MCP servers (nothing was changed)", err)
			}
		}
		keys = append(keys, coalesce.Key{Name: "mcpServers", Raw: p.withOverlay(in, base).JSON()})
	}
	for _, k := range extra {
		if raw, ok := coalesce.Get(acct, k); ok {
			keys = append(keys, coalesce.Key{Name: k, Raw: raw})
		}
	}
	if fi, err := os.Lstat(state); err == nil && !fi.Mode().IsRegular() {
		// Following it would copy whatever it points to (another account's
		// login) into this config dir.
		return fmt.Errorf("%s is %s, not a plain file; remove it (Claude and claude-account recreate it)", state, describe(state, fi))
	}
	var cur []byte
	if !fresh {
		// Claude's state can be 100 MB: mapped, not read, and never decoded.
		var release func()
		cur, release, err = mapOptional(state)
		p.releases = append(p.releases, release)
		if err != nil {
			return err
		}
	}
	if cur == nil && acct != nil {
		// A new runtime starts from the account's login and onboarding.
		for _, k := range IdentityKeys {
			if raw, ok := coalesce.Get(acct, k); ok {
				keys = append(keys, coalesce.Key{Name: k, Raw: raw})
			}
		}
	}
	fix := "fix the JSON by hand or restore it from " + filepath.Join(dir, "backups")
	var pieces [][]byte
	var check func() error
	err = fsx.Guard(state, func() (err error) {
		pieces, check, err = coalesce.SplicePieces(cur, dedupe(keys))
		return err
	})
	if err != nil {
		return fileError(state, err, fix)
	}
	if pieces != nil {
		p.Steps = append(p.Steps, Step{Op: Write, Path: state, Pieces: pieces, Secret: true, Why: "account's MCP servers",
			Check: func() error {
				if err := fsx.Guard(state, check); err != nil {
					return fileError(state, err, fix)
				}
				return nil
			}})
	}

	if !slices.Equal(next.SettingsKeys, prev.SettingsKeys) || next.SettingsKeys != nil && !exists(managedPath) {
		data, _ := json.Marshal(next) // rare: only when the declaration changes
		p.Steps = append(p.Steps, Step{Op: Write, Path: managedPath, Data: append(data, '\n'), Mode: 0o600, Why: "declared settings keys"})
	}
	return nil
}

// withOverlay applies the trusted project overlay to the account's servers;
// an overlay that is not trusted is reported and skipped.
func (p *Plan) withOverlay(in Input, servers mcp.Servers) mcp.Servers {
	if in.Context.Toplevel == "" || in.Account.Config.ProjectMCP != account.ProjectMCPTrusted {
		return servers
	}
	overlayPath := filepath.Join(in.Context.Toplevel, OverlayRel)
	overlay, err := trust.ReadOverlay(overlayPath)
	if err != nil {
		p.Notes = append(p.Notes, fmt.Sprintf("%v; its servers are not loaded", err))
		return servers
	}
	if overlay == nil {
		return servers
	}
	st, err := in.Trust.Check(overlayPath, overlay)
	if err != nil {
		// A damaged or planted trust store approves nothing; the launch goes on.
		p.Notes = append(p.Notes, fmt.Sprintf("%v; the servers of %s are not loaded", err, overlayPath))
		return servers
	}
	switch st {
	case trust.Untrusted:
		p.Notes = append(p.Notes, fmt.Sprintf("%s is not trusted, so its servers are not loaded; review it, then run 'claude-account trust'", overlayPath))
		return servers
	case trust.Changed:
		p.Notes = append(p.Notes, fmt.Sprintf("%s changed since you trusted it, so its servers are not loaded; review it, then run 'claude-account trust'", overlayPath))
		return servers
	}
	extra, err := mcp.Parse(overlay, overlayPath)
	if err != nil {
		p.Notes = append(p.Notes, fmt.Sprintf("%v; its servers are not loaded", err))
		return servers
	}
	return mcp.Merge(servers, extra)
}

// dedupe keeps the first key of each name: managed values win over seeds.
func dedupe(keys []coalesce.Key) []coalesce.Key {
	seen := make(map[string]bool, len(keys))
	out := keys[:0:0]
	for _, k := range keys {
		if !seen[k.Name] {
			seen[k.Name] = true
			out = append(out, k)
		}
	}
	return out
}

func isSymlink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// withWorktreeHooks adds Claude Code's WorktreeCreate and WorktreeRemove
// hooks, pointing at this launcher, to the declared settings — unless the
// account declares those events itself.
func withWorktreeHooks(settings []byte, exe string, a *account.Account) ([]byte, error) {
	hooks := map[string]json.RawMessage{}
	if raw, ok := coalesce.Get(settings, "hooks"); ok {
		if err := json.Unmarshal(raw, &hooks); err != nil {
			return nil, fmt.Errorf("\"hooks\" is not an object: %v", err)
		}
	}
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	// The hook runs inside Claude, where CLAUDE_ACCOUNT_DIR is not set: name
	// the account dir when it is not the default one.
	args := " --account " + a.Name
	if filepath.Base(a.Dir) != ".claude-"+a.Name {
		args += " --account-dir " + quote(a.Dir)
	}
	for event, verb := range map[string]string{"WorktreeCreate": "worktree-create", "WorktreeRemove": "worktree-remove"} {
		if _, ok := hooks[event]; ok {
			continue
		}
		entry := []map[string]any{{"hooks": []map[string]string{{"type": "command",
			"command": quote(exe) + " hook " + verb + args}}}}
		raw, err := json.Marshal(entry)
		if err != nil {
			return nil, err
		}
		hooks[event] = raw
	}
	raw, err := json.Marshal(hooks)
	if err != nil {
		return nil, err
	}
	out, _, err := coalesce.Splice(settings, []coalesce.Key{{Name: "hooks", Raw: raw}})
	return out, err
}
