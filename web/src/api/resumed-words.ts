import type { ResumeResult } from './types.js';

/**
 * What a resume started, for its toast: the session, the workers' queue when it went back there, and the command
 * that runs a workflow `baton run` drives, which nothing runs until then (the server starts no agent on a resume).
 */
export function resumedWords(r: ResumeResult): string {
  const queued = r.requeued ? ', queued again for the workers' : '';
  const next = r.next_step?.command ? `; nothing runs it until \`${r.next_step.command}\`` : '';
  return `session ${r.session_number} started${queued}${next}`;
}
