package doctor

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/configdir"
)

// ideLink finds a config dir whose ide does not lead to the dir the IDEs
// write their lock files in (configdir.IDE): there /ide finds no IDE on
// 2.0.77 and 2.1.90. A link that dangles is right: no IDE has run yet.
func ideLink(in Input) *Finding {
	home := in.Env.Home()
	target := configdir.IDEDir(home)
	dir := in.Layout.ConfigDir
	if home == "" || configdir.SameDir(dir, filepath.Dir(target)) {
		return nil
	}
	path := filepath.Join(dir, configdir.IDE)
	fi, err := os.Lstat(path)
	cur, _ := os.Readlink(path)
	switch {
	case err == nil && cur == target:
		return nil
	case err != nil && !in.Layout.IsRuntime && !exists(dir):
		return nil // an account dir not made yet
	}
	f := &Finding{ID: "ide-link", Path: path}
	switch {
	case err != nil:
		f.Message = fmt.Sprintf("%s is missing, so /ide finds no IDE here on Claude before 2.1.332; '%s' links it to %s", path, Command(in, "--fix"), target)
		f.Fixable, f.fix, f.rebuilds = true, repairPlan(in), true
	case in.Layout.IsRuntime:
		what := "a link to " + cur
		if cur == "" {
			what = kind(fi)
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
