import { realpathSync } from 'node:fs';
import { PACKAGE_NAME } from '../../config/package-info.js';
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
 * The command that works where the user runs the agent: `baton` when it is on the PATH, the package through npx
 * when this CLI runs from npx's cache (that path does not last), else this very install run by this node.
 */
export function batonCommand(env: NodeJS.ProcessEnv, script = process.argv[1] ?? ''): BatonCommand {
  if (onPath('baton', env)) return { program: 'baton', args: [] };
  let real = script;
  try {
    real = realpathSync(script);
  } catch {
    // keep the path as given
  }
  if (!real || /[\\/]_npx[\\/]/.test(real)) return { program: 'npx', args: ['-y', PACKAGE_NAME] };
  return { program: process.execPath, args: [real] };
}

/** A command given by hand (`--command "node /opt/baton/bin/baton.js"`), split on spaces outside quotes. */
export function parseCommand(text: string): BatonCommand {
  const parts = [...text.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)].map(
    (m) => m[1]?.replace(/\\(.)/g, '$1') ?? m[2] ?? m[3] ?? '',
  );
  return { program: parts[0] ?? 'baton', args: parts.slice(1) };
}
