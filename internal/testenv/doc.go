// Package testenv is the world the end-to-end testscripts run in: a private
// HOME and XDG dirs, a git identity, real git repositories made by small
// commands, and a stub claude that reports what it was started with.
//
// It is laid out as cmd/go's script tests are: the environment, the
// commands, the conditions, and the programs the scripts run instead of the
// real ones. cmd/claude-account's script tests (main_test.go) wire them in:
// Setup, Commands and Condition (RealSetup and RealCondition against a real
// Claude), and StubClaude, StubBrowser, IDEStand and MCPStand as the test
// binary's claude, stubbrowser, idestand and mcpstand.
//
// Where each part lives:
//
//   - testenv.go: Setup and the environment: Patience, Inherited, Hermetic,
//     $SOCKDIR (socketDir) and RealSetup.
//   - conds.go: the conditions: Condition and RealCondition.
//   - cmds.go: Commands, every script command by name.
//   - cmds_git.go: git fixtures: mkrepo, mkworktree, mksubmodule, mkbare,
//     and archivedir.
//   - cmds_claude.go: mkclaude, a Claude Code install as npm lays it out.
//   - cmds_files.go: files and JSON: readlink, issymlink, mode, jsonpath,
//     waitfile, snapshot and unchanged.
//   - cmds_time.go: time: clock, and subst, which writes its times into
//     fixtures.
//   - cmds_proc.go: processes, signals: sendsig, ondone, waitgone, suggested and
//     endsas.
//   - cmds_tmux.go: Claude on a tmux screen: tmuxstart (answers a first
//     start's dialogs), tmuxsay (types a prompt), tmuxquit (/exit), and
//     killtmux.
//   - cmds_tmuxwait.go: tmuxwait (a pane shows a pattern), pollEvery.
//   - cmds_fleet.go: stopfleet (a real Claude's supervisors, stopped at the end).
//   - stubclaude.go: StubClaude, with every CLAUDE_STUB_* switch in one
//     table, and StubVersion.
//   - apistub.go: the API stand-in: the apistub command, its server and
//     its answers (Reply, -ratelimit).
//   - apirecorded.go: what scripts read of the recorded requests: apitext
//     and apiauth.
//   - apiproxy.go: apistub -proxy: CONNECT tunnels and the script's
//     certificate authority.
//   - apilogin.go: the OAuth pieces: token answers, the profile, and
//     StubBrowser, which approves a login.
//   - idestand.go: IDEStand, an IDE with Claude Code's extension: its lock
//     file, its WebSocket MCP server, and its terminal.
//   - mcpstand.go: MCPStand, a stdio MCP server that writes down the
//     environment it was started with.
//   - world.go: World and BuildLauncher, for Go tests that run the built
//     launcher outside testscript.
package testenv
