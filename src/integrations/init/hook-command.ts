import { realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { INSTALL_STEPS } from '../../config/package-info.js';
import { onPath } from './agent-files.js';

/** How an agent runs Baton: a program and the arguments before Baton's own (`hook Stop`, `mcp`). */
export interface BatonCommand {
  program: string;
  args: string[];
}

const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`);

export const commandLine = (c: BatonCommand, rest: string[]) =>
  [c.program, ...c.args, ...rest].map(quote).join(' ');

/**
 * The command that works where the user runs the agent: `baton` when it is on the PATH, else this very install run
 * by this node. Also when this CLI runs from npx's cache (an `npx` of a clone, a tarball or a git URL): that path
 * may not last, but `npx -y agent-baton` would fetch the name from the npm registry, where Baton is not published
 * yet, so it fails today and would run whatever someone else publishes under it.
 */
export function batonCommand(env: NodeJS.ProcessEnv, script = process.argv[1] ?? ''): BatonCommand {
  if (onPath('baton', env)) return { program: 'baton', args: [] };
  return installedCommand(script) ?? { program: 'baton', args: [] };
}

/** This very install run by this node, by their paths (null when the script is not known). */
export function installedCommand(script = process.argv[1] ?? ''): BatonCommand | null {
  let real = script;
  try {
    real = realpathSync(script);
  } catch {
    // keep the path as given
  }
  return real ? { program: process.execPath, args: [real] } : null;
}

/** A command given by hand (`--command "node /opt/baton/bin/baton.js"`), split on spaces outside quotes. */
export function parseCommand(text: string): BatonCommand {
  const parts = [...text.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)].map(
    (m) => m[1]?.replace(/\\(.)/g, '$1') ?? m[2] ?? m[3] ?? '',
  );
  return { program: parts[0] ?? 'baton', args: parts.slice(1) };
}

/** How Baton is installed on a machine (kept with the package's name, where the hooks' next steps read it too). */
export { INSTALL_STEPS };

/**
 * The command a file committed with the repository names: `baton`, found on each machine's PATH. This install's
 * path (`/usr/bin/node /home/me/baton/bin/baton.js`) is not there on a teammate's clone, and npx's is slow at every
 * hook; a command given by hand (`--command`) is the user's choice and stays.
 */
export const PORTABLE_COMMAND: BatonCommand = { program: 'baton', args: [] };

/** The words of a command that are paths of this machine: an absolute program, or an absolute argument (a script). */
export const machinePaths = (c: BatonCommand): string[] =>
  [c.program, ...c.args].filter((w) => isAbsolute(w) && !w.includes('${'));

/**
 * Where the program of a hooks file is not found, what a session start says: on a teammate's machine (a file
 * committed with the repository), that Baton is not installed and how to install it; in this machine's own file
 * (`rewrite`: the `baton init` that names Baton by its path), that the agent runs hooks with another PATH than the
 * terminal where `baton init` found it (an agent started from an IDE or a desktop app). Both say how to take the hooks
 * out where Baton was uninstalled on purpose (`undo`: the `baton init --undo` of the set-up).
 */
export function notFoundNote(program: string, file: string, rewrite: string | null, undo: string): string {
  const removed = `; removed Baton on purpose? delete the hooks running \`${program}\` from ${file} (or, Baton installed, run \`${undo}\`, which takes out the rest of its set-up too)`;
  return rewrite === null
    ? `Baton: this repository has hooks that follow sessions (${file}), but \`${program}\` is not installed on this machine, so this session is not recorded: install it ${INSTALL_STEPS}, with Node.js 20.19 or newer${removed}`
    : `Baton: the hooks in ${file} run \`${program}\`, which is not on the PATH this agent runs them with (one started from an IDE or a desktop app may not have your terminal's), so this session is not recorded: run \`${rewrite}\` in a terminal, which names Baton by its path${removed}`;
}

/**
 * A hook command that runs Baton when the program is found, else ends quietly (exit 0, its input read), a session
 * start saying so once (`note`, a systemMessage: `notFoundNote`), rather than the agent showing "command not found"
 * at every event or nothing at all. Baton runs by `exec`, so its own exit status is the hook's and a Baton that fails
 * is never taken for one that is missing. No grouping: Codex runs hooks with the user's `$SHELL -lc`, and fish has no
 * `{ ...; }` (its `'\''` reads as sh's).
 */
export function guardedLine(c: BatonCommand, rest: string[], event: string, note: string): string {
  const run = commandLine(c, rest);
  const otherwise =
    event === 'SessionStart'
      ? `printf '%s\\n' ${quoteSingle(JSON.stringify({ systemMessage: note }))}`
      : 'cat >/dev/null';
  return `command -v ${quote(c.program)} >/dev/null 2>&1 && exec ${run}; ${otherwise}`;
}

const quoteSingle = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `guardedLine`'s guard; before 2026-11-30 it ran Baton as `... && RUN || OTHERWISE` (still read, for older files). */
const guard =
  /^command -v \S+ >\/dev\/null 2>&1 && (?:exec (.*); |(.*) \|\| )(?:cat >\/dev\/null|printf '%s\\n' '(?:[^']|'\\'')*')$/;

/** The Baton command inside a hook command (the guard `guardedLine` adds taken off), and whether it was guarded. */
export function unguarded(command: string): { run: string; guarded: boolean } {
  const m = guard.exec(command);
  return m ? { run: (m[1] ?? m[2])!, guarded: true } : { run: command, guarded: false };
}
