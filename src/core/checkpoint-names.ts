import { notFound } from './errors.js';
import type { CheckpointRef } from './schemas/workflow.js';

/** A stored checkpoint name's number prefix: `cp-03-` of `cp-03-architecture` (the Go Team naming). */
const numbered = /^cp-\d+-/;

/** The name a checkpoint was asked for: `cp-03-architecture` → `architecture`; any other name as it is. */
export const bareCheckpointName = (name: string): string => name.replace(numbered, '');

/** Whether a stored checkpoint answers to `name`: its full name (`cp-03-architecture`) or its bare one. */
export const checkpointAnswersTo = (stored: string, name: string): boolean =>
  stored === name || bareCheckpointName(stored) === name;

/** The checkpoint `name` names (the latest when null), or a not_found error listing those there are. */
export function findCheckpoint(
  s: { id: string; checkpoints: readonly CheckpointRef[] },
  name: string | null,
): CheckpointRef {
  const cp = name
    ? s.checkpoints.find((c) => checkpointAnswersTo(c.name, name))
    : s.checkpoints[s.checkpoints.length - 1];
  if (!cp)
    throw notFound(
      name
        ? `no checkpoint ${name} in workflow ${s.id} (have: ${s.checkpoints.map((c) => c.name).join(', ') || 'none'})`
        : `workflow ${s.id} has no checkpoint yet`,
      { checkpoint: name },
    );
  return cp;
}
