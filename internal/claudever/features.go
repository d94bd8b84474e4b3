package claudever

// The first release of Claude Code that does each thing the launcher builds
// on, each boundary measured by behaviour on the releases either side of it
// (README-CLAUDE-CODE.md, "Which Claude Code").
var (
	// TaskListID: CLAUDE_CODE_TASK_LIST_ID names the task list.
	TaskListID = V(2, 1, 16)
	// RemoteMemoryDir: CLAUDE_CODE_REMOTE_MEMORY_DIR moves auto-memory out of
	// the config dir.
	RemoteMemoryDir = V(2, 1, 38)
	// MemoryPerRepository: auto-memory is keyed by the main worktree's root,
	// one per repository (before: by each worktree's own path).
	MemoryPerRepository = V(2, 1, 63)
	// TrustPerRepository: the trust dialog's answer is kept under the main
	// worktree's root, for every worktree (before: under each worktree's
	// own path).
	TrustPerRepository = V(2, 1, 63)
	// PluginCacheDir: CLAUDE_CODE_PLUGIN_CACHE_DIR moves plugins out of the
	// config dir.
	PluginCacheDir = V(2, 1, 42)
	// SecureStorageDir: CLAUDE_SECURESTORAGE_CONFIG_DIR names where the login
	// is kept (before: $CLAUDE_CONFIG_DIR/.credentials.json on Linux, a
	// keychain entry named by the config dir on macOS).
	SecureStorageDir = V(2, 1, 144)
	// PluginsInSkills: a plugin in the account's skills/ (a dir with
	// .claude-plugin/plugin.json, as the Nix module declares plugins and LSP
	// servers) is loaded.
	PluginsInSkills = V(2, 1, 157)
	// PluginDirFlag: --plugin-dir DIR loads a plugin for the session, its
	// commands, skills, agents, hooks, MCP and LSP servers. Read from the
	// cli.js of 2.0.77 and 2.1.90 (Option "--plugin-dir <paths...>"), and
	// measured: both print "Loaded 1 session-only plugins from --plugin-dir"
	// and load the plugin's command. Releases before 2.0.77 not measured.
	PluginDirFlag = V(2, 0, 77)
	// LongProjectKeys: the projects/ dir of a working directory whose key
	// (conversation.Key) is over 200 UTF-16 units is named by its first 200,
	// '-' and a hash of the path (before: the whole key). Read from the code
	// of 2.0.77, 2.1.90 and 2.1.331, and checked against every key they made.
	LongProjectKeys = V(2, 1, 47)
	// WorktreeHooks: the WorktreeCreate and WorktreeRemove hook events
	// (measured: 2.1.49 rejects a settings value that names them).
	WorktreeHooks = V(2, 1, 50)
	// StopFailureHook: the StopFailure hook event, run when the API call
	// fails (before: Stop runs). Measured with the loopback API stand-in on
	// 2.0.77, 2.1.77 and 2.1.78: 2.1.77 runs no hook at all from flag
	// settings that list StopFailure.
	StopFailureHook = V(2, 1, 78)
	// RateLimitsInStatus: the status-line command's JSON carries rate_limits
	// (package usage). Read from the binaries: 2.1.90 has it, 2.0.77 does
	// not.
	RateLimitsInStatus = V(2, 1, 80)
	// Background: claude --bg (--background) sends a session to the config
	// dir's supervisor, and attach, logs, stop, kill, rm and respawn act on
	// those sessions (2.1.129–2.1.140 answer "not enabled"; DESIGN.md fact
	// 20).
	Background = V(2, 1, 141)
	// DaemonCommand: claude daemon (the supervisor's own command: status,
	// stop) is a command; before, the word is a prompt.
	DaemonCommand = V(2, 1, 143)
	// AgentView: claude agents is the agent view of the fleet (--json lists
	// the background sessions); before, it manages subagents.
	AgentView = V(2, 1, 145)
	// ProcessWrapper: CLAUDE_CODE_PROCESS_WRAPPER (setting processWrapper)
	// starts the supervisor and each session it hosts through a program.
	ProcessWrapper = V(2, 1, 208)
	// ExitResumeHint: an interactive session that wrote a transcript ends
	// printing "Resume this session with:" and "claude --resume <id>"
	// (measured: 2.1.90 and 2.1.332 print it, 2.0.77 does not; the
	// releases between were not measured).
	ExitResumeHint = V(2, 1, 90)
	// Oldest is the oldest release the launcher supports, for what it has.
	Oldest = V(2, 0, 77)
)

// Has reports whether the binary surely does what arrived in since. A
// release nothing could tell (Binary.Known) is never taken for the newest:
// it has only what every supported release has (since Oldest). Use Has for
// what an older release rejects or loses (a hook event it does not know
// makes it drop the whole settings value; moving memory it reads from the
// config dir hides it).
func (b Binary) Has(since Version) bool {
	if !b.Known {
		return !Oldest.Less(since)
	}
	return b.Version.AtLeast(since)
}

// MayHave reports whether the binary may do what arrived in since: true for
// an unknown release. Use it only for what an older release ignores
// harmlessly (an environment variable it does not read), so that what works
// on every release is done for a release nothing could tell.
func (b Binary) MayHave(since Version) bool { return !b.Known || b.Version.AtLeast(since) }
