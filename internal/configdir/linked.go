package configdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/runtimes"
)

// Linked are the account entries a runtime links to, whole (account.Content).
// settings.json is linked too (planSettingsLink); the login, the plugins and
// the memory are the account's through environment variables (see Env).
var Linked = account.Content

// link plans runtime/name -> accountDir/name when the account has that entry,
// and the removal of such a link when it no longer has. Anything else there
// that changed while no Claude ran (runtimes.ChangedSince) came with the
// repository, or was put there by hand: an archive extracted over the
// checkout keeps the runtime's inode and lays its own hooks/ or a link to
// another account's skills where the account's belong, for Claude to run
// and load. It is kept aside, never followed, and the account's link made.
// What Claude made there in a session (agents/ when the account has none)
// stays: its change time is before the launcher left the runtime alone.
func (p *Plan) link(in Input, name string, fresh bool) {
	dir, accountDir := p.ConfigDir, in.Account.Dir
	target := filepath.Join(accountDir, name)
	path := filepath.Join(dir, name)
	want := exists(target)
	if fresh {
		if want {
			p.Steps = append(p.Steps, Step{Op: Link, Path: path, Target: target, Why: "account's " + name})
		}
		return
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if want {
			p.Steps = append(p.Steps, Step{Op: Link, Path: path, Target: target, Why: "account's " + name})
		}
	case err != nil:
		p.Notes = append(p.Notes, fmt.Sprintf("%s: %v", path, err))
	case fi.Mode()&fs.ModeSymlink != 0:
		cur, _ := os.Readlink(path)
		switch {
		case want && cur != target:
			p.Steps = append(p.Steps, Step{Op: Link, Path: path, Target: target, Why: "was " + cur})
		case !want && cur == target:
			p.Steps = append(p.Steps, Step{Op: Unlink, Path: path, Why: "the account has no " + name})
		case !want:
			// Not the launcher's: it links only to the account's entry.
			p.strayLink(in, path, cur)
		}
	case runtimes.ChangedSince(path, p.quiet):
		aside := freeAside(path, in.Now)
		p.Steps = append(p.Steps, Step{Op: Move, Path: path, Target: aside, Why: "changed while no Claude ran here"})
		did := "made none in its place (the account has no " + name + ")"
		if want {
			p.Steps = append(p.Steps, Step{Op: Link, Path: path, Target: target, Why: "account's " + name})
			did = "linked the account's " + name
		}
		p.Notes = append(p.Notes, fmt.Sprintf("%s is %s that changed while no Claude ran in this worktree (it came with the repository?); kept it as %s, read nothing from it, and %s", path, fsx.Kind(fi.Mode()), aside, did))
	case want:
		p.Notes = append(p.Notes, fmt.Sprintf("%s is %s, not a link to %s; left as it is (run 'claude-account doctor --account %s' in this worktree)", path, fsx.Kind(fi.Mode()), target, filepath.Base(p.ConfigDir)))
	}
}
