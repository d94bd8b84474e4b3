// Package claudekeys says which top-level keys of Claude Code's .claude.json
// are the account's: one value for every config dir of the account, as
// without the launcher, where every session shares one config dir. Every
// other key (projects, caches, retry bookkeeping, and keys Claude adds later)
// stays with its config dir.
//
// Measured with Claude Code 2.0.77, 2.1.90 and 2.1.330 (onboarding, the API-key
// question, /config, /theme, a prompt; a fresh config dir seeded with only
// these keys opens straight at the prompt on 2.0.77 and 2.1.330):
//
//   - hasCompletedOnboarding alone decides whether onboarding runs again;
//     customApiKeyResponses whether "use this API key?" is asked again.
//   - Preferences Claude writes from /config and /theme (2.0.77 and 2.1.90
//     keep theme, verbose, editorMode … here; 2.1.330 moved those to
//     settings.json, but keeps respectGitignore, autoConnectIde … here).
//   - Notices and tips shown once, with numStartups, the tips' clock.
//   - Migration markers: 2.1.330's migrations rewrite the user settings.json,
//     which the launcher shares; in a config dir without the markers they run
//     again and, for one, delete skipAutoPermissionPrompt from it.
package claudekeys

import "slices"

// Account lists the account's keys, grouped as measured.
var Account = []string{
	// Identity and login answers.
	"userID", "machineID", "oauthAccount", "primaryApiKey", "hasAvailableSubscription",
	// Onboarding and the API-key question.
	"hasCompletedOnboarding", "lastOnboardingVersion", "customApiKeyResponses",
	// Preferences: what /config and /theme write here, and the rest of the
	// keys Claude lists as user-settable global config (2.1.90, 2.1.330).
	"theme", "verbose", "editorMode", "autoCompactEnabled", "preferredNotifChannel",
	"fileCheckpointingEnabled", "terminalProgressBarEnabled", "showTurnDuration", "respectGitignore",
	"copyFullResponse", "autoConnectIde", "claudeInChromeDefaultEnabled", "prStatusFooterEnabled",
	"defaultToAgentsView", "leftArrowOpensAgents", "externalEditorContext", "workflowSizeGuideline",
	"installMethod", "autoUpdates", "autoUpdatesProtectedForNative", "shiftEnterKeyBindingInstalled",
	"hasUsedBackslashReturn", "autoScrollEnabled", "showMessageTimestamps", "diffTool",
	"todoFeatureEnabled", "showExpandedTodos", "briefTranscript", "diffSidebarOpen",
	"messageIdleNotifThresholdMs", "autoInstallIdeExtension", "showStatusInTerminalTab",
	"taskCompleteNotifEnabled", "inputNeededNotifEnabled", "agentPushNotifEnabled",
	"hasCompletedClaudeInChromeOnboarding", "lspRecommendationDisabled", "lspRecommendationNeverPlugins",
	"lspRecommendationIgnoredCount", "copyOnSelect", "remoteControlAtStartup", "autoUploadSessions",
	"autoAddRemoteControlDaemonWorker", "remoteDialogSeen",
	// Notices and tips shown once, and their clock.
	"hasSeenAutoDefaultNotice", "lastReleaseNotesSeen", "opus1mMergeNoticeSeenCount", "seenNotifications",
	"hasOpenedAgentsView", "tipsHistory", "tipLifetimeShownCounts", "tipsHistoryByCommand", "numStartups",
	// Migration markers of the settings Claude migrates.
	"migrationVersion", "hasResetAutoModeOptInForDefaultOffer", "opusProMigrationComplete",
	"opus45MigrationComplete", "sonnet45MigrationComplete", "sonnet1m45MigrationComplete",
	"thinkingMigrationComplete",
	// Answers and notices of the same kind, read in Claude's code but not
	// seen written in the measured runs.
	"bypassPermissionsModeAccepted", "hasAcknowledgedCostThreshold", "iterm2KeyBindingInstalled",
	"subscriptionNoticeCount", "hasSeenTasksHint",
}

// IsAccount reports whether key is one of Account. A scan, not a map built
// at start-up: every command of the launcher would pay for the map, and only
// init --from asks, once per key of one file.
func IsAccount(key string) bool { return slices.Contains(Account, key) }
