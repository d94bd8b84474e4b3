#!/usr/bin/env bash
# Records a Linux process table with real Claude Code processes in it, as
# testdata/linux-proc.txtar (read by TestRecordedLinux):
#   bash testdata/record-linux.sh NATIVE_CLAUDE NODE_CLAUDE > testdata/linux-proc.txtar
# NATIVE_CLAUDE: a native release (2.1.330's bin/claude.exe); NODE_CLAUDE: a
# node one (2.0.77's cli.js). Each runs `-p` against an API that does not
# answer, so it stays up retrying:
#   - the native one in the main worktree, with an MCP server that works in
#     the agent's worktree (a tool of Claude's elsewhere than Claude);
#   - the native one again in the worktree "fix" (claude -w);
#   - the native one started by its own path in the worktree "versioned",
#     which the kernel names for that file (2.1.330), not claude;
#   - the node one in the worktree "node";
#   - a sleep of the user's, no Claude, in the worktree "shell".
# The native one is laid out as its installer does: the binary is the file
# share/claude/versions/<version> (a hard link, or a copy), bin/claude a
# link to it.
# Recorded: every process working under the base dir and its ancestors up
# to this script (left out, with its own), each as /proc shows it: stat;
# cmdline, one argument a line (the NUL padding a renamed node process
# leaves dropped); the cwd link's target; the exe link's target when it is
# in the base dir. The binaries run from the base dir, so that no path of
# the recording machine is in it.
set -euo pipefail
native=$1 node=$2
base=/tmp/claudeproc-rec
rm -rf "$base"
wt=$base/repo/.claude/worktrees
mkdir -p "$base/home" "$base/repo" "$wt/agent" "$wt/fix" "$wt/versioned" "$wt/node" "$wt/shell" "$base/bin" "$base/share/claude/versions" "$base/npm/node_modules/.bin"
version=$("$native" --version | cut -d' ' -f1)
versioned=$base/share/claude/versions/$version
ln "$(realpath "$native")" "$versioned" 2>/dev/null || cp "$(realpath "$native")" "$versioned"
ln -s "$versioned" "$base/bin/claude"
ln -s "$(realpath "$node")" "$base/npm/node_modules/.bin/claude"
native=$base/bin/claude node=$base/npm/node_modules/.bin/claude
# MCP_TIMEOUT: the tool speaks no MCP; Claude would stop it after 30 s.
export HOME=$base/home CLAUDE_CONFIG_DIR=$base/home/.claude ANTHROPIC_API_KEY=fake ANTHROPIC_BASE_URL=http://127.0.0.1:9 MCP_TIMEOUT=600000
mcp='{"mcpServers":{"tool":{"command":"sh","args":["-c","cd '$wt'/agent && exec sleep 120"]}}}'
pids=()
(cd "$base/repo" && exec "$native" -p hi --mcp-config "$mcp" </dev/null >/dev/null 2>&1) & pids+=($!)
(cd "$wt/fix" && exec "$native" -p hi </dev/null >/dev/null 2>&1) & pids+=($!)
(cd "$wt/versioned" && exec "$versioned" -p hi </dev/null >/dev/null 2>&1) & pids+=($!)
(cd "$wt/node" && exec "$node" -p hi </dev/null >/dev/null 2>&1) & pids+=($!)
(cd "$wt/shell" && exec sleep 120) & pids+=($!)
trap 'kill "${pids[@]}" 2>/dev/null; sleep 1; kill -9 "${pids[@]}" 2>/dev/null || true' EXIT
# Until the node Claude has named itself and the tool works in the agent's worktree.
tool() { for d in /proc/[0-9]*; do [ "$(readlink "$d/cwd" 2>/dev/null)" = "$wt/agent" ] && return 0; done; return 1; }
for _ in $(seq 900); do
	[ "$(cat "/proc/${pids[3]}/comm" 2>/dev/null)" = claude ] && tool && break
	sleep 0.1
done
tool || { echo "the MCP server did not start in $wt/agent" >&2; exit 1; }
declare -A keep
for d in /proc/[0-9]*; do
	cwd=$(readlink "$d/cwd" 2>/dev/null) || continue
	[[ $cwd == "$base"* ]] || continue
	p=${d#/proc/}
	while [ -n "$p" ] && [ "$p" -gt 1 ] && [ "$p" != $$ ] && [ -z "${keep[$p]:-}" ]; do
		keep[$p]=1
		p=$(awk '{sub(/.*\) /, ""); print $2}' "/proc/$p/stat" 2>/dev/null) || break
	done
done
grep -qx "$wt/agent" <(for p in "${!keep[@]}"; do readlink "/proc/$p/cwd"; done) || { echo "the MCP server ended before it was recorded; run again" >&2; exit 1; }
echo "Recorded by testdata/record-linux.sh on $(uname -sr) with $("$native" --version) and $("$node" --version)."
for p in $(printf '%s\n' "${!keep[@]}" | sort -n); do
	[ -r "/proc/$p/stat" ] || continue
	echo "-- $p/stat --"
	cat "/proc/$p/stat"
	echo "-- $p/cmdline --"
	tr '\0' '\n' <"/proc/$p/cmdline" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
	echo "-- $p/cwd --"
	readlink "/proc/$p/cwd" || echo
	exe=$(readlink "/proc/$p/exe" 2>/dev/null) || exe=
	if [[ $exe == "$base"/* ]]; then
		echo "-- $p/exe --"
		echo "$exe"
	fi
done
rm -f "$versioned"
