package doctor

import (
	"fmt"

	"github.com/claude-account/claude-account/internal/claudever"
)

// bgNotEnabled is the first release that knows claude --bg but answers it
// "not enabled" (until claudever.Background).
var bgNotEnabled = claudever.V(2, 1, 129)

// bgNoAPIKey is the newest release measured whose background sessions get
// no API-key login: 2.1.197 starts them "Not logged in" with
// ANTHROPIC_API_KEY set, plain Claude as under the launcher, and its binary
// has no CLAUDE_BG_SESSION_CREDENTIAL, with which 2.1.332 hands the key on.
// Releases in between were not measured, so nothing is said of them.
var bgNoAPIKey = claudever.V(2, 1, 197)

// Fleet is what Claude's own fleet (background sessions, agent view, the
// supervisor that hosts them) does under the launcher with the Claude in
// use, by release: doctor's "background sessions" row.
type Fleet struct {
	// Background: claude --bg works (2.1.141+); the account has one fleet,
	// whichever worktree a session starts from.
	Background bool `json:"background"`
	// Agents: claude agents --json lists the account's sessions (2.1.145+).
	Agents bool `json:"agents"`
	// NoAPIKey: this release gives its background sessions no API-key
	// login (measured on 2.1.197): only a subscription login reaches them.
	NoAPIKey bool `json:"noApiKeyLogin,omitempty"`
	// Needs is the release that brings what this one lacks ("" when none).
	Needs string `json:"needs,omitempty"`
	// Summary is the row as doctor prints it.
	Summary string `json:"summary"`
}

// FleetOf says what Claude's fleet does under the launcher with Claude c.
// The process wrapper of 2.1.208 (CLAUDE_CODE_PROCESS_WRAPPER) draws no line
// here: under the launcher the supervisor starts with the environment of a
// fleet launch, which carries nothing of a session's (measured with a
// logging wrapper on 2.1.332), and a launch with another API environment
// restarts it (launch.renewSupervisor) on every release.
func FleetOf(c claudever.Binary) Fleet {
	const one = "one fleet per account: --bg, attach, logs and stop from any worktree reach the account's one supervisor"
	switch {
	case !c.Known:
		return Fleet{Summary: fmt.Sprintf("not known: the release of this Claude cannot be read; background sessions need Claude Code ≥ %s", claudever.Background)}
	case !c.Has(claudever.Background):
		f := Fleet{Needs: claudever.Background.String(),
			Summary: fmt.Sprintf("none on this version: needs Claude Code ≥ %s (claude --bg, claude agents)", claudever.Background)}
		if c.Has(bgNotEnabled) {
			f.Summary = fmt.Sprintf("none on this version: Claude Code %s answers claude --bg \"not enabled\"; needs ≥ %s", c.Version, claudever.Background)
		}
		return f
	}
	f := Fleet{Background: true, Agents: c.Has(claudever.AgentView), Summary: one + "; agent view (claude agents)"}
	if !f.Agents {
		f.Needs = claudever.AgentView.String()
		f.Summary = fmt.Sprintf("%s; no agents --json (needs ≥ %s)", one, claudever.AgentView)
	}
	if bgNoAPIKey.Less(c.Version) {
		return f
	}
	f.NoAPIKey = true
	f.Summary += "; an API-key login (ANTHROPIC_API_KEY) does not reach background sessions on this version (measured on 2.1.197; 2.1.332 hands it on), a subscription login does"
	return f
}
