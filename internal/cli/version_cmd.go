package cli

import (
	"runtime/debug"
)

// Version is set by the Nix build (-ldflags -X); otherwise it comes from the
// module's build info.
var Version = ""

// VersionCmd is `claude-account version`.
type VersionCmd struct{}

// Run prints the version.
func (VersionCmd) Run(d *Deps) error {
	v := Version
	if v == "" {
		v = "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok {
			if bi.Main.Version != "" {
				v = bi.Main.Version
			}
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" && len(s.Value) >= 12 {
					v += " " + s.Value[:12]
				}
			}
		}
	}
	d.stdout().Line("claude-account " + v)
	return nil
}

// Help is shown under the command's usage.
func (VersionCmd) Help() string {
	return `Example:
  claude-account version`
}
