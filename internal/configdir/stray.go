package configdir

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/claude-account/claude-account/internal/runtimes"
)

// launcherLinks are the only names in a runtime that may be symbolic links:
// those the launcher makes (Linked, settings.json, the login an older Claude
// reads from its config dir, the IDEs' lock files), each checked against the
// one target it wants by the step that plans it (link, planSettingsLink,
// planLogin, planIDE), which keeps any other aside or replaces it.
func launcherLinks() []string { return append(slices.Clone(Linked), "settings.json", Credentials, IDE) }

// setAsideStrayLinks plans that every other link in a runtime the launcher
// made is kept aside before Claude starts: in the runtime itself, in
// projects/ and in each projects/<key>/. The launcher makes none there, and
// Claude makes none at those levels (2.0.77's debug/latest, a link it does
// make, is below them and left alone; 2.0.77, 2.1.90 and 2.1.330 make no
// other in a config dir by a session or mcp list, measured); so one came with the
// repository (an archive extracted over the checkout keeps the runtime's
// inode), and Claude would write its transcripts through it, or the launch
// take another account's memory for this runtime's. Kept, not removed: it is
// not the launcher's to delete. A projects/<key>/ dir that did not change
// since the launcher last left the runtime alone (runtimes.ChangedSince) is
// not read: a launch reads no transcript list it need not.
func (p *Plan) setAsideStrayLinks(in Input) {
	dir := p.ConfigDir
	expected := launcherLinks()
	p.strayLinksIn(in, dir, func(name string) bool { return slices.Contains(expected, name) })
	projects := filepath.Join(dir, "projects")
	if !realDir(projects) {
		return
	}
	keys := p.strayLinksIn(in, projects, nil)
	for _, k := range keys {
		kd := filepath.Join(projects, k)
		if p.quiet == 0 || runtimes.ChangedSince(kd, p.quiet) {
			p.strayLinksIn(in, kd, nil)
		}
	}
}

// strayLinksIn plans that each link in dir that allowed does not name is
// kept aside, and returns the names of the real dirs in it.
func (p *Plan) strayLinksIn(in Input, dir string, allowed func(string) bool) (dirs []string) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	for _, de := range des {
		name := de.Name()
		switch {
		case de.IsDir():
			dirs = append(dirs, name)
		case de.Type()&fs.ModeSymlink == 0 || allowed != nil && allowed(name):
		default:
			path := filepath.Join(dir, name)
			target, _ := os.Readlink(path)
			p.strayLink(in, path, target)
		}
	}
	return dirs
}

// strayLink plans that the link at path, to target, is kept aside, unfollowed.
func (p *Plan) strayLink(in Input, path, target string) {
	aside := freeAside(path, in.Now)
	p.Steps = append(p.Steps, Step{Op: Move, Path: path, Target: aside, Why: "a link the launcher never makes"})
	p.Notes = append(p.Notes, fmt.Sprintf("%s is a symbolic link to %s, which claude-account never makes there (it came with the repository?); kept it as %s, not followed", path, target, aside))
}

// realDir reports whether path is a directory itself, not a link to one.
func realDir(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.IsDir()
}
