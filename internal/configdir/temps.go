package configdir

import (
	"os"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/ledger"
	"github.com/claude-account/claude-account/internal/runtimes"
)

// written are the files a launch writes in a config dir and in the account
// dir, atomically: through a temporary file "."+name+digits beside them.
var written = []string{".claude.json", "settings.json", WorkspaceFile, ManagedFile, ledger.FileName, runtimes.FileName, Credentials}

// Temps lists the temporary files that a launch killed in the middle of a
// write left behind in dir (".claude.json<digits>" and the like): full
// copies of Claude's state or the ledger, secrets included.
func Temps(dir string) []string {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, de := range des {
		if !de.Type().IsRegular() || len(de.Name()) < 2 || de.Name()[0] != '.' {
			continue
		}
		for _, w := range written {
			if fsx.IsTemp(de.Name(), w) {
				out = append(out, filepath.Join(dir, de.Name()))
			}
		}
	}
	return out
}

// sweepTemps plans the removal of Temps in the config dir and the account
// dir. The instance lock and the account's lock, held when the plan is
// applied, mean no other launch is writing them now.
func (p *Plan) sweepTemps(accountDir string, configDir bool) {
	dirs := []string{accountDir}
	if configDir && !fsx.SamePath(p.ConfigDir, accountDir) {
		dirs = append(dirs, p.ConfigDir)
	}
	for _, dir := range dirs {
		for _, t := range Temps(dir) {
			p.Steps = append(p.Steps, Step{Op: Unlink, Path: t, Why: "left by an interrupted write"})
		}
	}
}
