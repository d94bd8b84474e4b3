package configdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Credentials is Claude's login file on Linux.
const Credentials = ".credentials.json"

// planLogin shares the account's login with a runtime the way the Claude in
// use reads it (SharedVia): from 2.1.144 Claude reads the account dir itself
// (CLAUDE_SECURESTORAGE_CONFIG_DIR) and the runtime holds no login; before,
// it reads and writes only the config dir's .credentials.json, so on Linux
// that is a link to the account's. A login Claude wrote in the runtime as a
// file of its own (after a logout there, or under a Claude of the other
// kind) becomes the account's when it is the newer one: written through a
// symlinked account login, never over it. Only runtimes the launcher made get
// this far (MakePlan), so a login that came with a repository never does.
func (p *Plan) planLogin(in Input, fresh bool) {
	path := filepath.Join(p.ConfigDir, Credentials)
	acct := filepath.Join(in.Account.Dir, Credentials)
	link := false
	for _, s := range SharedVia(in.Account, p.Layout, in.Claude) {
		link = link || s.Name == "login" && s.Via == "link"
	}
	linkStep := Step{Op: Link, Path: path, Target: acct, Why: "the account's login, which this Claude reads only from its config dir"}
	if fresh {
		if link {
			p.Steps = append(p.Steps, linkStep)
		}
		return
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if link {
			p.Steps = append(p.Steps, linkStep)
		}
		return
	case err != nil:
		p.Notes = append(p.Notes, fmt.Sprintf("%s: %v", path, err))
		return
	case fi.Mode()&fs.ModeSymlink != 0:
		cur, _ := os.Readlink(path)
		switch {
		case link && cur != acct:
			p.Steps = append(p.Steps, linkStep)
		case !link:
			p.Steps = append(p.Steps, Step{Op: Unlink, Path: path, Why: "Claude reads the account's login from the account dir"})
		}
		return
	case !fi.Mode().IsRegular():
		p.Notes = append(p.Notes, fmt.Sprintf("%s is %s; Claude keeps the login in %s, so remove it", path, describe(path, fi), in.Account.Dir))
		return
	}
	target := acct
	if resolved, err := filepath.EvalSymlinks(target); err == nil {
		target = resolved
	}
	replace := Step{Op: Unlink, Path: path, Why: "moved to the account"}
	if link {
		replace = linkStep
		replace.Replace = true
	}
	if !p.untouched(path) {
		// Not written by a Claude the launcher started: never the account's,
		// and not this worktree's either (it would log Claude in as whoever
		// wrote it). Kept aside.
		aside := freeAside(path, in.Now)
		p.Steps = append(p.Steps, Step{Op: Move, Path: path, Target: aside, Why: "changed while no Claude ran here"})
		if link {
			p.Steps = append(p.Steps, linkStep)
		}
		p.Notes = append(p.Notes, fmt.Sprintf("%s changed while no Claude ran in this worktree (it came with the repository?); kept it as %s and use the account's login", path, aside))
		return
	}
	if a, err := os.Stat(target); err == nil && !fi.ModTime().After(a.ModTime()) {
		replace.Why = "older than the account's login"
		p.Steps = append(p.Steps, replace)
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		p.Notes = append(p.Notes, fmt.Sprintf("%s: %v; left as it is", path, err))
		return
	}
	p.Steps = append(p.Steps, Step{Op: Write, Path: target, Data: data, Secret: true, Why: "newer login from " + path}, replace)
	p.Notes = append(p.Notes, fmt.Sprintf("moved the login in %s to %s, where every worktree reads it", path, target))
}
