package gitctx

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// maxGitFile is git's limit on a .git file; anything larger is not one.
const maxGitFile = 1 << 20

var errBadGitFile = errors.New("not a 'gitdir: <path>' file")

// readGitFile reads a .git file and returns its gitdir: path as written.
// Only I/O failures are returned as they are; a file that is not a gitdir
// pointer gives an error wrapping errBadGitFile.
func readGitFile(path string) (string, error) {
	data, err := readFile(path, maxGitFile)
	if err != nil {
		return "", err
	}
	if len(data) > maxGitFile {
		return "", fmt.Errorf("%s: larger than 1 MiB: %w", path, errBadGitFile)
	}
	target, err := parseGitFile(data)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return target, nil
}

// parseGitFile parses the content of a .git file exactly as git's
// read_gitfile_gently does: the literal prefix "gitdir: ", then the path
// up to trailing CRs and LFs. Git reads the path as a C string, so it ends
// at a NUL byte.
func parseGitFile(data []byte) (string, error) {
	rest, ok := bytes.CutPrefix(data, []byte("gitdir: "))
	if !ok {
		return "", errBadGitFile
	}
	rest = bytes.TrimRight(rest, "\r\n")
	if i := bytes.IndexByte(rest, 0); i >= 0 {
		rest = rest[:i]
	}
	if len(rest) == 0 {
		return "", fmt.Errorf("no path after 'gitdir: ': %w", errBadGitFile)
	}
	return string(rest), nil
}

// probe is git's is_git_directory: a valid HEAD in path, and objects/ and
// refs/ in its common dir. It resolves the common dir on the way, since
// callers need it next.
func probe(path string) (repo, bool, error) {
	if !validHead(join(path, "HEAD")) {
		return repo{}, false, nil
	}
	common, hasCommon, err := commonDir(path)
	if err != nil {
		if missing(err) {
			return repo{}, false, nil
		}
		return repo{}, false, fmt.Errorf("git context: %w", err)
	}
	if !isDir(join(common, "objects")) || !isDir(join(common, "refs")) {
		return repo{}, false, nil
	}
	return repo{gitDir: path, common: common, hasCommon: hasCommon}, true, nil
}

// commonDir reads gitDir/commondir, which linked worktrees have: a path
// relative to gitDir (usually "../..") or absolute.
func commonDir(gitDir string) (string, bool, error) {
	path := join(gitDir, "commondir")
	data, err := readFile(path, -1)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return gitDir, false, nil
		}
		return "", false, err
	}
	p := strings.TrimRight(string(data), "\r\n")
	if p == "" {
		return "", false, fmt.Errorf("%s is empty; run 'git worktree repair' from the main repository", path)
	}
	common, err := resolve(gitDir, p)
	if err != nil {
		return "", false, err
	}
	return common, true, nil
}

// validHead is git's validate_headref: a symlink into refs/, a symbolic
// ref "ref: refs/…", or a detached object id. Git reads at most 255 bytes.
func validHead(path string) bool {
	var buf [255]byte
	n, link, err := readHead(path, buf[:])
	if err != nil {
		return false
	}
	if link {
		target, err := os.Readlink(path)
		return err == nil && strings.HasPrefix(target, "refs/")
	}
	return validHeadContent(buf[:n])
}

func validHeadContent(b []byte) bool {
	if rest, ok := bytes.CutPrefix(b, []byte("ref:")); ok {
		for len(rest) > 0 && isSpace(rest[0]) {
			rest = rest[1:]
		}
		if bytes.HasPrefix(rest, []byte("refs/")) {
			return true
		}
	}
	// get_oid_hex with SHA-1 during discovery: 40 hex digits, whatever
	// follows (so a SHA-256 id passes too).
	if len(b) < 40 {
		return false
	}
	for _, c := range b[:40] {
		if !isHex(c) {
			return false
		}
	}
	return true
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
