#!/bin/sh
# Runs Baton's CLI for the Claude Code plugin (hooks and the MCP server): $BATON_BIN when set (a command line, e.g.
# "node /opt/baton/bin/baton.js"), else `baton` on the PATH. The plugin ships no build output, so without an
# installed CLI a hook tells the user how to install it (a systemMessage Claude Code shows, exit 0: the session goes
# on), and the MCP server runs the published package through npx.
install='npm install -g --allow-scripts=better-sqlite3 agent-baton'
if [ -n "$BATON_BIN" ]; then
  # shellcheck disable=SC2086 # a command line: its words are meant to be split
  exec $BATON_BIN "$@"
fi
if command -v baton >/dev/null 2>&1; then
  exec baton "$@"
fi
if [ "$1" = hook ]; then
  cat >/dev/null
  msg="Baton's plugin is installed but the baton command is not: nothing of this session is recorded. Install it with \`$install\` (Node.js 20.19 or newer), then run \`baton doctor\` in this repository."
  printf '{"systemMessage":"%s"}\n' "$(printf '%s' "$msg" | sed 's/\\/\\\\/g; s/"/\\"/g')"
  echo "baton: $2: $msg" >&2
  exit 0
fi
if command -v npx >/dev/null 2>&1; then
  echo "baton: the baton command is not installed; running the published package with npx (install it with \`$install\` for a faster start)" >&2
  exec npx -y agent-baton "$@"
fi
echo "baton: neither baton nor npx is on the PATH; install Node.js 20.19 or newer, then \`$install\`" >&2
exit 127
