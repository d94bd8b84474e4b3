// Package adopt takes an existing Claude Code config dir into an account:
// plain Claude's ~/.claude, whose .claude.json lives beside it in $HOME, or a
// CLAUDE_CONFIG_DIR-style dir with .claude.json inside. It copies what the
// account owns (the login, settings, commands, agents, skills, rules, output
// styles, hooks, CLAUDE.md, plugins, auto-memory, user-scope MCP servers and
// the account's keys of .claude.json) and leaves what belongs to one config
// dir (sessions, history, caches).
//
// The source is only ever read, and nothing outside it is: a symbolic link
// in it is copied as a link when it points inside the source at something
// taken in too, and otherwise left out and reported, never followed. Data
// flows one way: Find the source, Make a plan (which reads and checks every
// JSON file, so a parse error stops before anything is written), Apply it.
//
// Where each part lives:
//
//   - source.go: Find, the source dir and the .claude.json Claude reads
//     with it.
//   - plan.go: the Plan and its entries, and Make, which plans the parts in
//     order.
//   - walk.go: the walk of the source tree, path by path, and what the
//     account already has there (with --into-existing).
//   - links.go: the source's symbolic links, decided once every path taken
//     in is known (LinkTarget, resolveLinks).
//   - parts.go: the parts with rules of their own: the login, plugins/ (their
//     records rebased to the account) and projects/*/memory.
//   - jsonfiles.go: settings.json and .claude.json, copied whole into a new
//     account, key by key into one that exists (a key it has wins).
//   - rebase.go: the strings of a setting that name the source, made to name
//     the account (Rewrite).
//   - linkinpath.go: a link on the way to a file a setting names.
//   - apply.go: Create (a new account, staged and renamed into place) and Add
//     (an existing one), and the staging dirs a killed init leaves.
package adopt
