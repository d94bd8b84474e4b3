package doctor

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/fsx"
)

// ideLink finds a config dir whose ide does not lead to the dir the IDEs
// write their lock files in (configdir.IDE): there /ide finds no IDE on
// 2.0.77 and 2.1.90. A link that dangles is right (no IDE has run yet), and
// a missing one is made by the next launch.
func ideLink(in Input) *Finding {
	home := in.Env.Home()
	target := configdir.IDEDir(home)
	dir := in.Layout.ConfigDir
	if home == "" || fsx.SamePath(dir, filepath.Dir(target)) {
		return nil
	}
	path := filepath.Join(dir, configdir.IDE)
	fi, err := os.Lstat(path)
	cur, _ := os.Readlink(path)
	if err != nil || cur == target {
		return nil // right, or missing: the next launch links it
	}
	f := &Finding{ID: "ide-link", Path: path}
	switch {
	case in.Layout.IsRuntime:
		what := "a link to " + cur
		if cur == "" {
			what = "a " + kind(fi)
		}
		f.Message = fmt.Sprintf("%s is %s, not the link to %s; '%s' keeps it aside and links it", path, what, target, Command(in, "--fix"))
		f.Fixable, f.fix, f.rebuilds = true, repairPlan(in), true
	case cur != "":
		f.Message = fmt.Sprintf("%s is a link to %s, so /ide finds only the IDEs that write there; if yours write %s, remove the link and the next launch links it there", path, cur, target)
	default:
		f.Message = fmt.Sprintf("%s is a real %s, so /ide finds only the IDEs whose environment names %s as CLAUDE_CONFIG_DIR; if yours write %s, move it away and the next launch links it there", path, kind(fi), dir, target)
	}
	return f
}
