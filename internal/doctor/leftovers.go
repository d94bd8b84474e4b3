package doctor

import (
	"fmt"
	"os"

	"github.com/claude-account/claude-account/internal/adopt"
	"github.com/claude-account/claude-account/internal/binding"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/lock"
)

// temps finds the temporary copies an interrupted write left in the config
// dir and the account dir: the next launch, or --fix, removes them.
func temps(in Input) []Finding {
	dirs := []string{in.Account.Dir}
	if in.Layout.IsRuntime && notMade(in) == nil {
		dirs = append(dirs, in.Layout.ConfigDir)
	}
	var out []Finding
	for _, t := range binding.Temps(in.Env) {
		out = append(out, Finding{ID: "temp-file", Path: t, Fixable: true,
			Message: fmt.Sprintf("%s is a temporary copy of the bindings left by an interrupted bind; '%s' (or the next bind) removes it", t, Command(in, "--fix")),
			fix:     func() (string, error) { return "removed it", binding.SweepTemps(in.Env) }})
	}
	for _, dir := range dirs {
		for _, t := range configdir.Temps(dir) {
			out = append(out, Finding{ID: "temp-file", Path: t, Fixable: true, fix: repairPlan(in), rebuilds: true,
				Message: fmt.Sprintf("%s is a temporary copy left by an interrupted write (it may hold secrets); '%s' (or the next launch) removes it", t, Command(in, "--fix"))})
		}
	}
	return out
}

// initLeftovers finds the staging dirs an init --from killed midway left
// beside the account dir (adopt.Leftovers): the next init, or --fix,
// removes them.
func initLeftovers(in Input) []Finding {
	var out []Finding
	for _, p := range adopt.Leftovers(in.Account.Dir) {
		out = append(out, Finding{ID: "init-leftover", Path: p, Fixable: true,
			Message: fmt.Sprintf("%s is what an interrupted 'claude-account init --from' left (it may hold a copy of a login); '%s' (or the next 'claude-account init %s') removes it", p, Command(in, "--fix"), in.Account.Name),
			fix: func() (string, error) {
				release, err := lock.Account(in.LockDir, in.Account.Name)
				if err != nil {
					return "", err
				}
				defer release()
				if err := os.RemoveAll(p); err != nil {
					return "", err
				}
				return "removed it", nil
			}})
	}
	return out
}
