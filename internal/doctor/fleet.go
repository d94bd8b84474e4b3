package doctor

import (
	"fmt"

	"github.com/claude-account/claude-account/internal/claudever"
)

// bgNotEnabled is the first release that knows claude --bg but answers it
// "not enabled" (until claudever.Background).
var bgNotEnabled = claudever.V(2, 1, 129)

// Fleet is what Claude's own fleet (background sessions, agent view, the
// supervisor that hosts them) does under the launcher with the Claude in
// use, by release: doctor's "background sessions" row.
type Fleet struct {
	// Background: claude --bg works (2.1.141+); the account has one fleet,
	// whichever worktree a session starts from.
	Background bool `json:"background"`
	// Agents: claude agents --json lists the account's sessions (2.1.145+).
	Agents bool `json:"agents"`
	// ProcessWrapper: the supervisor starts every session through the
	// launcher, each with the environment of the launch that asked for it
	// (2.1.208+). Without it a session keeps the environment of the launch
	// that started the account's supervisor.
	ProcessWrapper bool `json:"processWrapper"`
	// Needs is the release that brings what this one lacks ("" when none).
	Needs string `json:"needs,omitempty"`
	// Summary is the row as doctor prints it.
	Summary string `json:"summary"`
}

// FleetOf says what Claude's fleet does under the launcher with Claude c.
func FleetOf(c claudever.Binary) Fleet {
	env := "hosted sessions keep the environment of the launch that started the account's supervisor (its API address and other variables)"
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
	case !c.Has(claudever.AgentView):
		return Fleet{Background: true, Needs: claudever.AgentView.String(),
			Summary: fmt.Sprintf("one fleet per account; no agents --json (needs ≥ %s); no process wrapper (%s+): %s", claudever.AgentView, claudever.ProcessWrapper, env)}
	case !c.Has(claudever.ProcessWrapper):
		return Fleet{Background: true, Agents: true, Needs: claudever.ProcessWrapper.String(),
			Summary: fmt.Sprintf("one fleet per account; agent view; no process wrapper (%s+): %s", claudever.ProcessWrapper, env)}
	}
	return Fleet{Background: true, Agents: true, ProcessWrapper: true,
		Summary: "one fleet per account; agent view; process wrapper: every hosted session starts through the launcher, with the environment of the launch that asked for it"}
}
