package configdir

import "github.com/claude-account/claude-account/internal/runtimes"

// Trusted reports whether runtimeDir is a runtime the launcher made for the
// account in accountDir, so that something of it may go back to the account
// (its transcripts to the account's archive). It is decided from the
// account's side, its record of the runtimes made for it, never from a file
// inside the runtime: a runtime that arrived with a repository (an archive,
// a copied checkout) carries whatever files its maker chose. A record that
// cannot be read trusts nothing. The one place that decides it: a stricter
// meaning of "made" belongs here.
func Trusted(accountDir, runtimeDir string) bool {
	if accountDir == "" || runtimeDir == "" {
		return false
	}
	made, err := runtimes.Read(runtimes.Path(accountDir))
	return err == nil && made.Made(runtimeDir)
}
