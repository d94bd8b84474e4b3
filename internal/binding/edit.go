package binding

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/lock"
)

// ConflictError says a directory is already bound by Nix.
type ConflictError struct {
	Dir     string
	Binding Binding
	File    string
}

func (c *ConflictError) Error() string {
	return fmt.Sprintf("%s is bound to account %q by %s (Nix); change programs.claude-code.accounts.%s.directories instead",
		c.Dir, c.Binding.Account, c.File, c.Binding.Account)
}

// Also binds dir (canonical, absolute) to account beside the accounts it is
// bound to already, Nix's included; added is false when it was one of them.
func Also(e env.Env, dir, acct string) (added bool, err error) {
	if err := validName(acct); err != nil {
		return false, err
	}
	release, err := lock.Wait(lock.Dir(e), "bindings.state")
	if err != nil {
		return false, err
	}
	defer release()
	decl, own, err := readSplit(e)
	if err != nil {
		return false, err
	}
	for _, b := range append(decl, own...) {
		if b.Account == acct && Canonical(Expand(e, b.Dir)) == dir {
			return false, nil
		}
	}
	return true, write(e, append(own, Binding{Dir: dir, Account: acct}))
}

// Bind binds dir (canonical, absolute) to account alone in the bindings file
// and returns the accounts it was bound to before, comma-separated ("" if
// none).
func Bind(e env.Env, dir, acct string) (string, error) {
	if err := validName(acct); err != nil {
		return "", err
	}
	release, err := lock.Wait(lock.Dir(e), "bindings.state")
	if err != nil {
		return "", err
	}
	defer release()
	decl, own, err := readSplit(e)
	if err != nil {
		return "", err
	}
	for _, b := range decl {
		if Canonical(Expand(e, b.Dir)) == dir {
			return "", &ConflictError{Dir: dir, Binding: b, File: DeclaredPath(e)}
		}
	}
	// Every account dir was bound to (bind --also makes several) gives
	// way to acct.
	var was []string
	kept := own[:0]
	for _, b := range own {
		if Canonical(Expand(e, b.Dir)) == dir {
			was = append(was, b.Account)
			continue
		}
		kept = append(kept, b)
	}
	prev := strings.Join(was, ", ")
	if prev == acct {
		return prev, nil
	}
	kept = append(kept, Binding{Dir: dir, Account: acct})
	return prev, write(e, kept)
}

// Unbind removes dir's own bindings and returns the accounts they named,
// comma-separated; ok is false when dir had none in the bindings file.
func Unbind(e env.Env, dir string) (string, bool, error) {
	// Two binds at once must not lose one: read-modify-write in turns.
	release, err := lock.Wait(lock.Dir(e), "bindings.state")
	if err != nil {
		return "", false, err
	}
	defer release()
	decl, own, err := readSplit(e)
	if err != nil {
		return "", false, err
	}
	kept := own[:0]
	var was []string
	for _, b := range own {
		if Canonical(Expand(e, b.Dir)) == dir {
			was = append(was, b.Account)
			continue
		}
		kept = append(kept, b)
	}
	acct, found := strings.Join(was, ", "), len(was) > 0
	if !found {
		for _, b := range decl {
			if Canonical(Expand(e, b.Dir)) == dir {
				return "", false, &ConflictError{Dir: dir, Binding: b, File: DeclaredPath(e)}
			}
		}
		return "", false, nil
	}
	return acct, true, write(e, kept)
}

func readSplit(e env.Env) (decl, own []Binding, err error) {
	if decl, err = Read(DeclaredPath(e)); err != nil {
		return nil, nil, fromNix(err)
	}
	for i := range decl {
		decl[i].Declared = true
	}
	own, err = Read(Path(e))
	return decl, own, err
}

// write replaces the bindings file atomically; an existing file keeps its
// mode. The caller holds the bindings lock, so a temporary file of ours
// there is one a killed bind left: it goes first.
func write(e env.Env, bs []Binding) error {
	if err := os.MkdirAll(Dir(e), 0o755); err != nil {
		return err
	}
	for _, t := range Temps(e) {
		_ = os.Remove(t)
	}
	return fsx.WriteFile(Path(e), Format(bs), 0o644)
}

// Temps lists the temporary copies of the bindings file a killed bind or
// unbind left ("." + bindings + digits).
func Temps(e env.Env) []string {
	des, err := os.ReadDir(Dir(e))
	if err != nil {
		return nil
	}
	var out []string
	for _, de := range des {
		if de.Type().IsRegular() && fsx.IsTemp(de.Name(), FileName) {
			out = append(out, filepath.Join(Dir(e), de.Name()))
		}
	}
	return out
}

// SweepTemps removes Temps, taking the bindings lock so that no bind is
// writing one now.
func SweepTemps(e env.Env) error {
	release, err := lock.Wait(lock.Dir(e), "bindings.state")
	if err != nil {
		return err
	}
	defer release()
	for _, t := range Temps(e) {
		if err := os.Remove(t); err != nil {
			return err
		}
	}
	return nil
}
