/** A stored checkpoint name's number prefix: `cp-03-` of `cp-03-architecture` (the Go Team naming). */
const numbered = /^cp-\d+-/;

/** The name a checkpoint was asked for: `cp-03-architecture` → `architecture`; any other name as it is. */
export const bareCheckpointName = (name: string): string => name.replace(numbered, '');

/** Whether a stored checkpoint answers to `name`: its full name (`cp-03-architecture`) or its bare one. */
export const checkpointAnswersTo = (stored: string, name: string): boolean =>
  stored === name || bareCheckpointName(stored) === name;
