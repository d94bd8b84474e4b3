// Package git is TestGitStartsCatchesBypasses' input: git started in the
// forms a check of spelling let through, each on a line that wants its
// finding; the other lines start no git. It is under testdata, so no build
// sees it.
package git

import (
	"context"
	"os"
	"os/exec"
	run "os/exec"
	"syscall"
)

// TestOnlyGitcmdStartsGit's own example: git under a constant's name.
const gitName = "git"

const gitPath = "/usr/bin/" + gitName

func named() {
	exec.Command(gitName, "status") // want "os/exec.Command"
	exec.Command("git", "status")   // want "os/exec.Command"
}

func forms(ctx context.Context) {
	exec.CommandContext(ctx, gitPath, "fetch")             // want "os/exec.CommandContext"
	run.Command(gitName)                                   // want "os/exec.Command"
	exec.LookPath(gitName)                                 // want "os/exec.LookPath"
	exec.Command("/opt/homebrew/bin/GIT")                  // want "os/exec.Command"
	os.StartProcess(gitPath, nil, &os.ProcAttr{})          // want "os.StartProcess"
	syscall.Exec(gitPath, []string{gitName}, nil)          // want "syscall.Exec"
	_ = &exec.Cmd{Path: gitPath}                           // want "os/exec.Cmd.Path"
	c := exec.Command("true")                              //
	c.Path = gitPath                                       // want "os/exec.Cmd.Path"
	exec.Command("env", "GIT_DIR=x", gitName, "status")    // want "os/exec.Command"
	exec.Command("/bin/sh", "-c", "cd /tmp && git status") // want "os/exec.Command"
	start := exec.Command                                  // want "os/exec.Command"
	_ = start
}

// A program found at run time, or a script: a finding unless allowed.
func unknown(p string) {
	exec.Command(p, "status")     // want "os/exec.Command"
	exec.Command("bash", "-c", p) // want "os/exec.Command"
}

func allowed(p string) {
	exec.Command(p) // allowed by the test, with its reason
}

// Not git.
func fine(ctx context.Context, p string) {
	exec.Command("tmux", "ls")
	exec.CommandContext(ctx, "/usr/sbin/lsof", "-c", "claude")
	exec.Command("/bin/sh", "-c", "digit=1; legit=2")
	exec.LookPath(p)
}
