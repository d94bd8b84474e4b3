// Package doctor finds what can stop Claude from working with an account in a
// workspace, and repairs what it safely can: every finding says what is wrong,
// where, and what fixes it.
//
// Each check is a function of the Input that returns findings; Check runs
// them all, Quick the few cheap enough for every launch, and Fix runs each
// finding's fix (many are the launcher's own plan, run once: repairPlan).
//
// Where each part lives:
//
//   - doctor.go: Finding, Input, Quick, Check, Fix and repairPlan.
//   - links.go: the config dir's links, broken or replaced by a real file,
//     and files Claude writes that sit on a read-only file system.
//   - runtimedir.go: whose runtime it is: not made by the launcher, made by
//     an earlier version, made for a worktree that moved.
//   - sharing.go: what the Claude in use shares with the account (Degraded),
//     its login (HasLogin) and the account's plugins.
//   - claude.go: the Claude in use: it cannot start, its release is unknown,
//     or its --version contradicts its files.
//   - leftovers.go: what an interrupted write, bind or init --from left.
//   - lockdir.go: a lock dir that is not a private dir of yours.
//   - overlay.go: the workspace's MCP overlay, unsafe to read or changed
//     since it was trusted.
//   - warned.go: Unwarned, so a launch tells each problem once.
//   - command.go: the doctor command a message suggests.
package doctor
