package testenv

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/claude-account/claude-account/internal/worktree"
)

func git(ts *testscript.TestScript, args ...string) {
	if err := ts.Exec("git", args...); err != nil {
		ts.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
}

// mkrepo DIR: a repository with one commit on main.
func mkrepo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkrepo DIR")
	}
	dir := ts.MkAbs(args[0])
	git(ts, "init", "-q", dir)
	ts.Check(os.WriteFile(filepath.Join(dir, "README"), []byte("hello\n"), 0o644))
	git(ts, "-C", dir, "add", "README")
	git(ts, "-C", dir, "commit", "-q", "-m", "init")
}

// mkworktree REPO DIR BRANCH: a linked worktree on a new branch.
func mkworktree(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: mkworktree REPO DIR BRANCH")
	}
	git(ts, "-C", ts.MkAbs(args[0]), "worktree", "add", "-q", "-b", args[2], ts.MkAbs(args[1]))
}

// mksubmodule SUPER PATH: a new repository added to SUPER as submodule PATH.
func mksubmodule(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mksubmodule SUPER PATH")
	}
	super := ts.MkAbs(args[0])
	src := ts.MkAbs(".submodule-src-" + strings.ReplaceAll(args[1], "/", "_"))
	mkrepo(ts, false, []string{src})
	git(ts, "-C", super, "submodule", "add", "-q", src, args[1])
	git(ts, "-C", super, "commit", "-q", "-m", "add submodule "+args[1])
}

// mkbare DIR: a bare repository with one commit.
func mkbare(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkbare DIR")
	}
	src := ts.MkAbs(".bare-src-" + filepath.Base(args[0]))
	mkrepo(ts, false, []string{src})
	git(ts, "clone", "-q", "--bare", src, ts.MkAbs(args[0]))
}

// archivedir VAR ACCOUNT_DIR GIT_COMMON_DIR NAME: sets VAR to the dir where
// worktree rm archives the account's transcripts of the worktree NAME of
// that repository (worktree.ArchiveDir: keyed by the repository's identity).
func archivedir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: archivedir VAR ACCOUNT_DIR GIT_COMMON_DIR NAME")
	}
	common, err := filepath.EvalSymlinks(ts.MkAbs(args[2]))
	ts.Check(err)
	ts.Setenv(args[0], worktree.ArchiveDir(ts.MkAbs(args[1]), common, args[3]))
}
