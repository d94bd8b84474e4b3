package worktree

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// These read a few refs straight from the common git dir. Each saves a git
// process (several milliseconds) on commands an agent runs often; anything
// they cannot answer falls back to asking git.

// symref reads a symbolic ref such as HEAD or refs/remotes/origin/HEAD:
// "ref: refs/heads/main" gives "refs/heads/main". Symbolic refs are never
// packed, so the loose file is the whole truth.
func (r *Repo) symref(name string) (string, bool) {
	data, err := os.ReadFile(filepath.Join(r.Common, filepath.FromSlash(name)))
	if err != nil {
		return "", false
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "ref: ")
	return target, ok && target != ""
}

// hasRef reports whether a full ref name exists, loose or packed.
func (r *Repo) hasRef(name string) bool {
	if fi, err := os.Stat(filepath.Join(r.Common, filepath.FromSlash(name))); err == nil && fi.Mode().IsRegular() {
		return true
	}
	f, err := os.Open(filepath.Join(r.Common, "packed-refs"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "<oid> <name>"; comments start with '#', peeled tags with '^'.
		oid, ref, ok := bytes.Cut(sc.Bytes(), []byte{' '})
		if ok && string(ref) == name && (len(oid) == 40 || len(oid) == 64) {
			return true
		}
	}
	return false
}

// headOID reads the commit a worktree's HEAD names (through one symbolic
// ref, loose or packed), or "" when it cannot tell without git.
func (r *Repo) headOID(gitDir string) string {
	data, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	head := strings.TrimSpace(string(data))
	ref, ok := strings.CutPrefix(head, "ref: ")
	if !ok {
		return head // detached: HEAD holds the commit itself
	}
	if data, err := os.ReadFile(filepath.Join(r.Common, filepath.FromSlash(ref))); err == nil {
		return strings.TrimSpace(string(data))
	}
	return ""
}
