import { nextTask, persistsWords, RETRY_WAITS, type WorkflowState } from '../../core/index.js';
import type { RunReport } from './run-options.js';

const finished: readonly WorkflowState['status'][] = ['completed', 'cancelled', 'failed'];

/**
 * How to go on after a run that ended short of finishing, said as its last line whatever ended it (a signal, a
 * killed agent, a failed task, a pause, a usage limit, no task that can run): `command` (the same run with the
 * workflow named), and the task it takes up, or what to do first. Null when the workflow is finished.
 * `autoResume`: the run had --auto-resume (its command has it too): never advised again. `now`: whether a usage
 * limit's reset is still ahead.
 */
export function nextStep(
  s: WorkflowState,
  report: Pick<RunReport, 'usage_limit'>,
  command: string,
  autoResume = false,
  now = Date.now(),
): string | null {
  if (finished.includes(s.status)) return null;
  const go = `\`${command}\``;
  const limit = report.usage_limit;
  if (s.status === 'paused' && limit && !limit.auto_resumed) {
    const when = limit.reset_words ?? limit.resets_at;
    // waited for again and again: the limit outlasts what the agent said of it, which a person should look into
    if (limit.waits >= RETRY_WAITS)
      return `${persistsWords('the usage limit', limit.waits)}${when ? ` (it said it resets at ${when})` : ''}: check the agent's plan and its usage, then go on with ${go}`;
    if (!when) return `usage limit (the agent gave no reset time): go on later with ${go}`;
    // its reset is behind (a run stopped while it waited out a limit that outlasted it): nothing to wait for
    if (limit.resets_at && Date.parse(limit.resets_at) <= now)
      return `usage limit (its reset at ${when} has passed): go on with ${go}${autoResume ? '' : ', or add --auto-resume to wait out a limit that lasts'}`;
    // a time in words only (a zone this runtime does not know) is not one to wait for
    return `usage limit (resets at ${when}): go on then with ${go}${limit.resets_at && !autoResume ? ', or add --auto-resume to wait for it' : ''}`;
  }
  if (!s.tasks.length)
    return `the workflow has no tasks: add them with \`baton task add "<title>" -w ${s.id}\`, then ${go}`;
  const next = nextTask(s.tasks);
  if (next) {
    const how =
      next.status === 'failed' ? ', again' : next.status === 'in_progress' ? ', from where it stopped' : '';
    return `go on with ${go} (next: ${next.id} ${next.title}${how})`;
  }
  const blocked = s.tasks.find((t) => t.status === 'blocked');
  if (blocked)
    return `no task can run: ${blocked.id} is blocked${blocked.note ? ` (${blocked.note})` : ''}; \`baton task unblock ${blocked.id} -w ${s.id}\` once it can go on, then ${go}`;
  return `no task can run now: \`baton status -w ${s.id}\` says why; then ${go}`;
}
