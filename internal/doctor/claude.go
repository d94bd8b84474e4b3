package doctor

import (
	"fmt"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/account"
)

// everyRelease is what the launcher does for a Claude whose release it
// cannot read: what works on every release from 2.0.77 on.
const everyRelease = "the login both through $CLAUDE_SECURESTORAGE_CONFIG_DIR and a link to the account's, memory and plugins through the variables newer releases read, only the hook events every release knows, no worktree hooks"

// pinFix is how the user names the real Claude for an account.
func pinFix(in Input) string {
	return fmt.Sprintf("name the real binary in %s (claude = \"/path/to/claude\")", filepath.Join(in.Account.Dir, account.FileName))
}

// claudeFindings say when the Claude in use is not ready: it cannot start,
// its release cannot be read, or its --version contradicts its files.
// Only doctor asks (claudever.Options.Probe): the launch never runs it.
func claudeFindings(in Input) []Finding {
	c := in.Claude
	if c.Path == "" {
		return nil // no-claude
	}
	ready := fmt.Sprintf("claude (%s) is not ready", in.Account.Name)
	if c.StartProblem != "" {
		return []Finding{{ID: "claude-cannot-start", Path: c.Path,
			Message: fmt.Sprintf("%s cannot start, so %s: %s; fix or reinstall it, or %s", c.Path, ready, c.StartProblem, pinFix(in))}}
	}
	if f := unknownRelease(in); f != nil {
		f.Message = fmt.Sprintf("%s: %s", ready, f.Message)
		return []Finding{*f}
	}
	if c.Says != "" {
		from := c.From
		if c.Target != "" {
			from += " of " + c.Target
		}
		return []Finding{{ID: "claude-release-differs", Path: c.Path,
			Message: fmt.Sprintf("%s: a launch reads Claude Code %s from %s, but '%s --version' says %s (a wrapper that picks its Claude at run time?); %s",
				ready, c.Version, from, c.Path, c.Says, pinFix(in))}}
	}
	return nil
}

// unknownRelease says, for a Claude whose release nothing could tell, what
// the launcher does instead and how to let it read the release.
func unknownRelease(in Input) *Finding {
	c := in.Claude
	if c.Known || c.Path == "" || c.StartProblem != "" {
		return nil
	}
	return &Finding{ID: "claude-release-unknown", Path: c.Path,
		Message: fmt.Sprintf("the release of %s cannot be read (%s), so the launcher uses what works on every release (%s); %s, or make '%s --version' print its release",
			c.Path, c.Problem, everyRelease, pinFix(in), c.Path)}
}
