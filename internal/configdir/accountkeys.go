package configdir

import (
	"slices"

	"github.com/claude-account/claude-account/internal/account"
)

// AccountKeys are the top-level keys of .claude.json that are the account's,
// not a config dir's: without the launcher Claude keeps them once per config
// dir, so once per account. The launcher shares them both ways: a new runtime
// starts from the account's values, and a change Claude makes in any config
// dir of the account reaches the others at their next launch (the later exit
// wins). Every other key — projects, history and caches, per-session counters,
// and any key not named here — stays the config dir's own, so per worktree.
// README-CLAUDE-CODE.md lists them, with the releases they were measured on.
var AccountKeys = []string{
	// who is logged in
	"oauthAccount", "userID", "primaryApiKey", "hasAvailableSubscription",
	// onboarding, done once
	"hasCompletedOnboarding", "lastOnboardingVersion",
	// preferences (/config, /theme)
	"theme", "verbose", "editorMode", "autoCompactEnabled", "preferredNotifChannel", "diffTool",
	"autoConnectIde", "autoUpdates", "autoUpdatesProtectedForNative", "todoFeatureEnabled",
	"messageIdleNotifThresholdMs", "showExpandedTodos", "showTurnDuration", "respectGitignore",
	"fileCheckpointingEnabled", "terminalProgressBarEnabled",
	// tips and notices shown once, answers given once
	"tipsHistory", "lastReleaseNotesSeen", "hasSeenTasksHint", "hasAcknowledgedCostThreshold",
	"bypassPermissionsModeAccepted", "shiftEnterKeyBindingInstalled", "hasUsedBackslashReturn",
	"iterm2KeyBindingInstalled", "optionAsMetaKeyInstalled", "subscriptionNoticeCount",
	"hasVisitedPasses", "hasOpusPlanDefault", "isQualifiedForDataSharing",
}

// accountKeyNames are the account keys the launcher shares for account a:
// AccountKeys but those account.toml's coalesce_keys manage (the account dir's
// value is enforced for them) and customApiKeyResponses (a union of every
// config dir's answers, shared.MergeKeyResponses).
func accountKeyNames(a *account.Account) []string {
	managed := a.ManagedKeys()
	return slices.DeleteFunc(slices.Clone(AccountKeys), func(k string) bool { return slices.Contains(managed, k) })
}
