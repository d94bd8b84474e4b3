package configdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/fsx"
)

// IDE is the entry of a config dir through which Claude finds the IDEs
// running on this machine: it reads every <port>.lock in it (port,
// workspace folders, auth token) and connects to the one whose workspace
// holds its cwd, or whose port is CLAUDE_CODE_SSE_PORT in an IDE terminal.
// 2.0.77 and 2.1.90 read only $CLAUDE_CONFIG_DIR/ide; 2.1.332 reads that and
// ~/.claude/ide, once when both lead to one dir (it compares their real
// paths). The IDE extensions write ~/.claude/ide. Claude never makes the dir,
// only reads it and removes locks whose IDE is gone (read in each release's
// code).
const IDE = "ide"

// IDEDir is the dir the IDEs write their lock files in, home's .claude/ide.
func IDEDir(home string) string { return filepath.Join(home, ".claude", IDE) }

// planIDE plans the config dir's ide entry as a link to IDEDir, so /ide finds
// the IDE on every release in every worktree and account. The link may
// dangle: until an IDE first runs there is no ~/.claude/ide, and Claude reads
// a missing or dangling ide as no IDE (measured on 2.0.77, 2.1.90, 2.1.332);
// the launcher makes nothing outside the config dir.
//
// In a runtime, ide is the launcher's name: a link elsewhere is replaced (it
// is never followed), and a file or dir there (it came with the repository:
// a copied .git, an archive, holding locks that would send Claude's IDE
// connection to any port) is kept aside, unread, and the link made. The
// account dir is the user's: its ide is made when missing and otherwise left
// as it is (an IDE whose environment names the account as CLAUDE_CONFIG_DIR
// writes its locks there); doctor says when it is not the link.
func (p *Plan) planIDE(in Input, fresh bool) {
	if in.Home == "" {
		return
	}
	target := IDEDir(in.Home)
	path := filepath.Join(p.ConfigDir, IDE)
	if fsx.SamePath(p.ConfigDir, filepath.Dir(target)) {
		return // the config dir is ~/.claude itself: ide is the IDEs' own
	}
	link := Step{Op: Link, Path: path, Target: target, Why: "the IDEs' lock files"}
	if fresh {
		p.Steps = append(p.Steps, link)
		return
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.Steps = append(p.Steps, link)
	case err != nil:
		p.Notes = append(p.Notes, fmt.Sprintf("%s: %v", path, err))
	case fi.Mode()&fs.ModeSymlink != 0:
		cur, _ := os.Readlink(path)
		if cur == target || !p.IsRuntime {
			return
		}
		link.Why = "was " + cur
		p.Steps = append(p.Steps, link)
	case !p.IsRuntime:
		// The account's own ide dir: an IDE may write there.
	default:
		aside := freeAside(path, in.Now)
		p.Steps = append(p.Steps, Step{Op: Move, Path: path, Target: aside, Why: "not the launcher's ide"}, link)
		p.Notes = append(p.Notes, fmt.Sprintf("%s is %s where claude-account links the IDEs' lock files (it came with the repository?); kept it as %s, read nothing from it, and linked %s", path, fsx.Kind(fi.Mode()), aside, target))
	}
}
