package adopt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/fsx"
)

// Create makes the account dir of a new account: account.Init's files, then
// the plan. Everything is made in a staging dir beside the account dir that
// becomes it by one rename, so a half-made account is never seen and a
// failure leaves nothing behind. An account dir that exists is never touched.
// A killed init leaves its staging dir, with a copy of the login: the next
// init removes it (SweepLeftovers), and doctor reports it (Leftovers).
func Create(name string, p *Plan) error {
	if p.Into {
		return errors.New("adopt: Create with a plan for an existing account")
	}
	if _, err := os.Lstat(p.Dest); err == nil {
		return fmt.Errorf("%s already exists; init never touches an existing account (add --into-existing to take in only what it lacks, or move it away first)", p.Dest)
	}
	parent := filepath.Dir(p.Dest)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, stagingPrefix(p.Dest))
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	stage := filepath.Join(tmp, "account")
	if err := account.Init(name, stage); err != nil {
		return err
	}
	if err := apply(p, stage); err != nil {
		return err
	}
	// rename(2) replaces only an empty directory: one made in the meantime
	// holds nothing to lose; anything else makes it fail.
	if err := fsx.Rename(stage, p.Dest); err != nil {
		if errors.Is(err, fs.ErrExist) || errors.Is(err, syscall.ENOTEMPTY) {
			return fmt.Errorf("%s appeared while init ran; init never touches an existing account (nothing was written)", p.Dest)
		}
		return err
	}
	return nil // fsx.Rename synced parent
}

// Add applies a plan to the existing account it was made for: it only makes
// paths the account lacks (and rewrites the account's settings.json and
// .claude.json with the keys they lacked). The caller holds the account's
// lock and has checked that no Claude of the account runs.
func Add(p *Plan) error {
	if !p.Into {
		return errors.New("adopt: Add with a plan for a new account")
	}
	return apply(p, p.Dest)
}

func apply(p *Plan, root string) error {
	var made []Entry // dirs made here, given their modes last (a read-only dir is filled first)
	for _, e := range p.Entries {
		path := filepath.Join(root, e.Rel)
		_, lerr := os.Lstat(path)
		exists := lerr == nil
		switch e.Op {
		case MakeDir:
			err := os.Mkdir(path, 0o700)
			if errors.Is(err, fs.ErrExist) {
				fi, lerr := os.Lstat(path)
				if lerr == nil && fi.IsDir() {
					if !p.Into {
						made = append(made, e) // account.Init's commands/
					}
					continue
				}
				return fmt.Errorf("%s: not a directory; nothing is written through it", path)
			}
			if err != nil {
				return err
			}
			made = append(made, e)
		case CopyFile:
			if p.Into && exists {
				continue // appeared since the plan: the account's
			}
			data, _, err := readRegular(e.From)
			if err != nil {
				return fmt.Errorf("%w (it changed while init ran; run it again)", err)
			}
			if err := write(path, data, e.Mode, e.Secret); err != nil {
				return err
			}
		case Write:
			if p.Into && exists && !e.Replace {
				continue
			}
			if err := write(path, e.Data, e.Mode, e.Secret); err != nil {
				return err
			}
		case MakeLink:
			if p.Into {
				if err := os.Symlink(e.Link, path); err != nil && !errors.Is(err, fs.ErrExist) {
					return err
				}
				continue
			}
			if err := fsx.ReplaceWithSymlink(e.Link, path); err != nil {
				return err
			}
		}
	}
	for i := len(made) - 1; i >= 0; i-- {
		if err := os.Chmod(filepath.Join(root, made[i].Rel), made[i].Mode); err != nil {
			return err
		}
	}
	return nil
}

// write puts data at path atomically, with exactly mode whatever the umask
// (0600 from the first byte for a secret).
func write(path string, data []byte, mode fs.FileMode, secret bool) error {
	if secret {
		return fsx.WriteSecret(path, data)
	}
	if err := fsx.WriteFile(path, data, mode); err != nil {
		return err
	}
	return os.Chmod(path, mode)
}

// stagingPrefix begins the name of Create's staging dirs for dest, beside it.
func stagingPrefix(dest string) string { return "." + filepath.Base(dest) + ".init-" }

// Leftovers are the staging dirs beside dest that an init killed midway
// left (each may hold a copy of a login): directories of this user named
// like Create's, never followed through a link.
func Leftovers(dest string) []string {
	parent, prefix := filepath.Dir(dest), stagingPrefix(dest)
	des, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	var out []string
	for _, de := range des {
		if !de.IsDir() || !strings.HasPrefix(de.Name(), prefix) || len(de.Name()) == len(prefix) {
			continue
		}
		p := filepath.Join(parent, de.Name())
		if fi, err := os.Lstat(p); err == nil {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// SweepLeftovers removes Leftovers(dest). The caller holds the account's
// lock, so no init of this account is staging now. It returns what it
// removed, and an error naming what it could not remove.
func SweepLeftovers(dest string) (removed []string, err error) {
	var failed []string
	for _, p := range Leftovers(dest) {
		if e := os.RemoveAll(p); e != nil {
			failed = append(failed, fmt.Sprintf("%s (%v)", p, e))
			continue
		}
		removed = append(removed, p)
	}
	if len(failed) > 0 {
		return removed, fmt.Errorf("could not remove what an interrupted init left: %s; it may hold a copy of a login: remove it by hand", strings.Join(failed, ", "))
	}
	return removed, nil
}
