#!/bin/sh
# Runs Baton's CLI for the Claude Code plugin (hooks and the MCP server): $BATON_BIN when set (a command line, e.g.
# "node /opt/baton/bin/baton.js"), else `baton` on the PATH. The plugin ships no build output, and Baton is not on
# the npm registry yet, so nothing is fetched in its place (an `npx` of its package name would run whatever the
# registry holds under that name): without an installed CLI a hook tells the user how to install it (a systemMessage
# Claude Code shows, exit 0: the session goes on), and the MCP server fails with the same steps.
install="Baton is not on the npm registry yet: install it from a clone of its repository with \`npm ci && npm link\`, or \`npm install -g\` the tarball \`npm pack\` makes there (Node.js 20.19 or newer, and git; docs/install.md, \"From a clone\")"
if [ -n "$BATON_BIN" ]; then
  # shellcheck disable=SC2086 # a command line: its words are meant to be split
  exec $BATON_BIN "$@"
fi
if command -v baton >/dev/null 2>&1; then
  exec baton "$@"
fi
if [ "$1" = hook ]; then
  cat >/dev/null
  msg="Baton's plugin is installed but the baton command is not: nothing of this session is recorded. $install; then run \`baton doctor\` in this repository."
  printf '{"systemMessage":"%s"}\n' "$(printf '%s' "$msg" | sed 's/\\/\\\\/g; s/"/\\"/g')"
  echo "baton: $2: $msg" >&2
  exit 0
fi
echo "baton: the baton command is not on the PATH (nor BATON_BIN set), so the plugin cannot run \`baton $*\`. $install." >&2
exit 127
