package doctor

import (
	"fmt"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/runtimes"
)

// earlier finds a runtime made by an earlier version, which kept for itself
// what the account shares now.
func earlier(in Input) []Finding {
	found, plugins, why := configdir.Earlier(in.Layout.ConfigDir, in.Account.Dir, in.Claude)
	var out []Finding
	for _, what := range found {
		out = append(out, Finding{ID: "earlier-runtime", Path: in.Layout.ConfigDir, Fixable: true, fix: repairPlan(in), rebuilds: true,
			Message: fmt.Sprintf("%s keeps %s for itself; '%s' (or the next launch) moves it to the account", in.Layout.ConfigDir, what, Command(in, "--fix"))})
	}
	if plugins != "" {
		out = append(out, Finding{ID: "earlier-plugins", Path: plugins,
			Message: fmt.Sprintf("%s holds plugins installed in this worktree before the account's were shared, and cannot move: %s; Claude now keeps the account's plugins in %s: install them again there ('claude plugin install'), then remove %s", plugins, why, filepath.Join(in.Account.Dir, "plugins"), plugins)})
	}
	return out
}

// notMade finds a runtime dir the launcher did not make for this account (it
// came with the repository): the next launch sets it aside unread.
func notMade(in Input) *Finding {
	dir := in.Layout.ConfigDir
	made, err := runtimes.Read(runtimes.Path(in.Account.Dir))
	if err != nil || !exists(dir) {
		return nil // a damaged record is reported by the plan (invalid-state)
	}
	if made.Check(dir).Made {
		return nil
	}
	why := "was not made by claude-account for this account (it came with the repository, or an earlier version made it)"
	return &Finding{ID: "not-made", Path: dir, Fixable: true, fix: repairPlan(in), rebuilds: true,
		Message: fmt.Sprintf("%s %s; '%s' (or the next launch) keeps it aside unread and starts fresh", dir, why, Command(in, "--fix"))}
}

// moved finds a runtime whose worktree moved: where it was is what the
// account's record says (runtimes.Check), else, for a record of an earlier
// version, its workspace.json, which only names it here.
func moved(in Input) []Finding {
	was := ""
	if rt := runtimes.Check(in.Account.Dir, in.Layout.ConfigDir); rt.Made && rt.Known {
		was = rt.Place.Worktree
	} else if ws, err := configdir.ReadWorkspace(filepath.Join(in.Layout.ConfigDir, configdir.WorkspaceFile)); err == nil && ws != nil {
		was = ws.Toplevel
	}
	if was == "" || was == in.Context.Toplevel {
		return nil
	}
	return []Finding{{ID: "workspace-moved", Path: in.Layout.ConfigDir, Fixable: true, fix: repairPlan(in), rebuilds: true,
		Message: fmt.Sprintf("%s was made for %s, which moved to %s; '%s' (or the next launch) binds it here, and its conversations follow", in.Layout.ConfigDir, was, in.Context.Toplevel, Command(in, "--fix"))}}
}
