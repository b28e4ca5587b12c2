import type { BatonClient, Ref } from '../client/baton-client.js';
import { type AlsoOpen, alsoOpenWords } from '../core/conversation-recency.js';
import { BatonError } from '../core/errors.js';
import type { Runtime } from './runtime.js';

/**
 * Says on standard error the worktree's other incomplete workflows, beside the one a command without -w took for its
 * conversation being at work last: a person pausing or recording is told which of them it acted on.
 */
export function sayAlsoOpen(rt: Runtime, others: readonly AlsoOpen[]): void {
  for (const a of others) rt.io.err(`note: also open here: ${alsoOpenWords(a)}`);
}

/**
 * `rt.ref(workflow)` for a person's command on a workflow. Without -w, the workflow the worktree's resolution takes is
 * named by its id from then on, so what the command does is done to the one the note names, and the others open here
 * are said (`sayAlsoOpen`); `ask` (a command that queues an agent run) asks which among several conversations'
 * workflows instead of taking the one at work last. No workflow here leaves the reference as it was: the command
 * fails, or makes its workflow (`baton import`), as it always did. Any other failure is the command's: asked again, a
 * server that does not answer would be waited for twice.
 */
export async function takenRef(
  rt: Runtime,
  client: BatonClient,
  workflow: string | undefined,
  opts: { ask?: boolean } = {},
): Promise<Ref> {
  const ref = rt.ref(workflow);
  if (workflow) return ref;
  const found = await client.taken(ref, opts).catch((e: unknown) => {
    if (BatonError.isInstance(e) && e.code === 'not_found') return null;
    throw e;
  });
  if (!found) return ref;
  sayAlsoOpen(rt, found.also_open);
  return { ...ref, workflowId: found.workflow.id };
}
