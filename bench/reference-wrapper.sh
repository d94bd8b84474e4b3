#!/usr/bin/env bash
# The yardstick: the launcher as the original design notes sketch it (seed 000,
# "Event 2: Wrapper Launch" and "MCP Config Merging"), in shell and jq, written
# for this project. `bench` times `claude-account run` against it on the same
# fixture. It does what the notes say, no more: git rev-parse for the context,
# ln -sf for the links, jq -s '.[0] * .[1]' to merge the project's servers, a
# PID file for one instance, and jq to put the managed keys into .claude.json.
#
# Usage: reference-wrapper.sh ACCOUNT_DIR CLAUDE_BIN [ARGS...]
#   ACCOUNT_DIR holds settings.json, commands/, mcp.json ({"mcpServers": {...}})
#   and managed.json (the managed keys of .claude.json and their values).
set -euo pipefail
account=$1 claude=$2
shift 2
name=${account##*/}

if gitdir=$(git rev-parse --git-dir 2>/dev/null) && [ "$(git rev-parse --is-bare-repository)" = false ]; then
	gitdir=$(cd "$gitdir" && pwd -P)
	top=$(git rev-parse --show-toplevel)
	rt=$gitdir/claude-runtime
	mkdir -p "$rt/logs"
	ln -sfn "$account/settings.json" "$rt/settings.json"
	ln -sfn "$account/commands" "$rt/commands"
	if [ -f "$top/.claude/.mcp.json" ]; then
		jq -s '.[0] * .[1]' "$account/mcp.json" "$top/.claude/.mcp.json" >"$rt/.mcp.json.new"
	else
		cp "$account/mcp.json" "$rt/.mcp.json.new"
	fi
	mv "$rt/.mcp.json.new" "$rt/.mcp.json"
	pid=${TMPDIR:-/tmp}/claude-$name-$(printf '%s\n' "$top" | md5sum | cut -c1-8).pid
	config=$rt
	servers=$rt/.mcp.json
else
	pid=${TMPDIR:-/tmp}/claude-$name.pid
	config=$account
	servers=$account/mcp.json
fi

if [ -f "$pid" ] && kill -0 "$(cat "$pid")" 2>/dev/null; then
	echo "Claude Code ($name) is already running." >&2
	exit 3
fi
echo $$ >"$pid"

state=$config/.claude.json
[ -f "$state" ] || echo '{}' >"$state"
jq --slurpfile m "$account/managed.json" --slurpfile s "$servers" \
	'. + $m[0] | .mcpServers = $s[0].mcpServers' "$state" >"$state.new"
mv "$state.new" "$state"

export CLAUDE_CONFIG_DIR=$config
exec "$claude" "$@"
