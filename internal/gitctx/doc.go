// Package gitctx finds the git context a launch happens in: the row of the
// fallback matrix in DESIGN.md and the canonical paths that key the runtime
// dir and the lock.
//
// It runs on every launch, so it reads .git files and directories itself
// instead of starting git, and it mirrors git's own discovery (setup.c):
// the same walk up, the same ceilings, the same precedence of GIT_DIR,
// GIT_WORK_TREE, core.bare and core.worktree. Where git has no work tree
// but the user is plainly in one workspace (cwd inside .git/), it maps the
// git dir back to its work tree.
//
// Not mirrored, because no launch needs them: the safe.directory ownership
// check and safe.bareRepository (git refuses such repositories; we still
// key the runtime dir by them), GIT_COMMON_DIR and GIT_OBJECT_DIRECTORY,
// include directives (git's own format check skips them too) and
// config.worktree under extensions.worktreeConfig.
//
// Where each part lives:
//
//   - gitctx.go: Context, its Kind (the row), Detect, Fingerprint and
//     Stranger.
//   - discover.go: git's discovery: the walk up from the start dir (.git
//     dirs and files, the ceilings, the file system boundary), GIT_DIR from
//     the environment, and the core config read on the way.
//   - worktree.go: from a git dir to its work tree, in git's order of
//     precedence, and the row: main, linked, submodule or bare; the checkout
//     git records for the git dir (recordedCheckout, which Stranger weighs).
//   - gitdir.go: what makes a dir a git dir (probe, HEAD, commondir) and
//     .git files.
//   - config.go: core.bare and core.worktree, parsed as git's config.c does.
//   - head.go: Head, the branch a git dir's HEAD names, without git.
//   - paths.go: canonical paths, resolved as git's real_path does.
//   - sysfile_*.go, dev_*.go: plain system calls for the few tiny reads of a
//     launch, and the device of a dir.
package gitctx
