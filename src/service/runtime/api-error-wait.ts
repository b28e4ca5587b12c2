import {
  apiErrorWords,
  interrupt,
  retryWaitWords,
  workSpanOf,
  type AutoResumeWaits,
} from '../../core/index.js';
import type { BatonService } from '../baton-service.js';
import { sleep } from './usage-limit-wait.js';

/**
 * The agent's API failed (overloaded, a server error, a dropped connection, a rate limit per minute): no fault of the
 * task, which stays in progress; the workflow is interrupted (its snapshot, the git state) and the next run goes on
 * with the task in the agent's own session, told where it was cut off, as after a crash. With `autoResume` it is
 * waited out here (a rate limit per minute, an overload pass in a minute or so): a growing wait, after which the task
 * goes on as the next run would, until the waits run out with nothing done between (a wait is counted in `waits`
 * once made). Returns the failure in the API's words, and how long it waited (null: it did not; the signal may have
 * cut the wait short).
 */
export async function interruptForApiError(
  svc: BatonService,
  id: string,
  taskId: string,
  text: string,
  o: {
    autoResume: boolean;
    waits: AutoResumeWaits;
    signal: AbortSignal | undefined;
    say: (line: string) => void;
  },
): Promise<{ words: string; waitedMs: number | null }> {
  // the API's own error (Claude Code's "API Error: 529 {...}"), without how the agent exited after it
  const words = apiErrorWords(
    /API Error:?\s*\d{3}\s*\{[^\n]*\}/.exec(text)?.[0] ?? text.split('\n')[0] ?? '',
  );
  const before = await svc.runner.load(id);
  const git = await svc.git.captureGitState(before.worktree, workSpanOf(before));
  await svc.runner.run(
    id,
    (d) => {
      if (d.state.status === 'in_progress') interrupt(d, `the agent's API failed (${words})`, git);
    },
    { retry: true },
  );
  const waitMs = o.autoResume ? o.waits.nextBackoff() : null;
  if (waitMs === null) return { words, waitedMs: null };
  o.say(`task ${taskId}: the agent's API failed (${words}): ${retryWaitWords(o.waits.waits, waitMs)}`);
  await sleep(waitMs, o.signal);
  // cut short by the signal: not waited out, and the run stops
  if (!o.signal?.aborted) o.waits.waited(waitMs, true);
  return { words, waitedMs: waitMs };
}
