import type { Command } from 'commander';
import type { BatonClient } from '../client/baton-client.js';
import { emit } from './output.js';
import type { GlobalOptions, Runtime } from './runtime.js';

export interface ActionContext {
  client: BatonClient;
  g: GlobalOptions;
  rt: Runtime;
  /** Print a result: JSON with --json, else the human text. */
  print: (value: unknown, human: () => string) => void;
}

/** Wraps a command handler: opens the client, hands it the parsed arguments. Errors go up to main. */
export function action<A extends unknown[]>(
  rt: Runtime,
  handler: (ctx: ActionContext, ...args: A) => Promise<void>,
) {
  return async (...raw: unknown[]) => {
    const cmd = raw[raw.length - 1] as Command;
    const g = rt.globals(cmd);
    const client = await rt.open(g);
    const args = raw.slice(0, -1) as A;
    await handler({ client, g, rt, print: (v, h) => emit(rt.io, g.json === true, v, h) }, ...args);
  };
}

/** Pause, resume or abandon a teammate's workflow anyway (refused without it, naming whose it is). */
export const theirsOption = [
  '--theirs',
  "act on a teammate's workflow (refused without it: they are told who did it)",
] as const;

export const workflowOption = [
  '-w, --workflow <id>',
  'the workflow (default: the one of the current worktree)',
] as const;
