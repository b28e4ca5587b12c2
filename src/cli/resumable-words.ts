import { isTerminal, type NextStep } from '../core/index.js';
import type { WorkflowStatus } from '../core/schemas/workflow.js';

/**
 * Whether a workflow can be resumed, in words, as `baton sessions` and `baton session-status` say it: "no" only for
 * one that is over; one in progress or not started has nothing to resume (a "no" there reads as "stuck"); one in
 * progress that Baton's driver runs and nothing runs now says what goes on with it (`next_step`); one whose work is over
 * (`completes_at_next_start`, as `baton status` says it) says the next conversation completes it.
 */
export const resumableWords = (r: {
  resumable: boolean;
  continued_by: string | null;
  status: WorkflowStatus;
  next_step?: NextStep | null;
  completes_at_next_start?: string | null;
}) =>
  r.completes_at_next_start && !isTerminal(r.status)
    ? 'no: its work is over; the next agent conversation in its worktree completes it'
    : r.continued_by
      ? `yes: ${r.continued_by}`
      : r.resumable
        ? 'yes'
        : isTerminal(r.status)
          ? 'no'
          : r.status === 'pending'
            ? 'not started'
            : r.next_step
              ? `no resume needed; nothing runs it: ${r.next_step.command ? `\`${r.next_step.command}\`` : 'queued for the workers'}`
              : 'not stopped';

/**
 * A workflow's STATUS as `baton list` and `baton sessions` say it: its status, but `work over` for one in progress
 * whose next agent conversation in its worktree completes it (`completes_at_next_start`, as `baton status` says), and
 * `at rest` for one in progress that nothing works on now and the agent's next session there continues (`resume_by`
 * `next_session`), unless no hooks follow its worktree now (`unfollowed`: nothing continues it by itself).
 */
export const statusWord = (
  w: {
    status: string;
    resume_by: 'resume' | 'next_session' | null;
    completes_at_next_start: string | null;
  },
  unfollowed = false,
) =>
  w.completes_at_next_start && w.status === 'in_progress'
    ? 'work over'
    : w.resume_by === 'next_session' && !unfollowed
      ? 'at rest'
      : w.status;

/** Why a session needs no resume or cannot have one, in words (`resume_reason`). */
export const resumeReasonWords = {
  agent_not_running: 'no agent runs it now',
  not_resumable: 'its agent cannot resume a session',
  superseded: 'a later session took over',
} as const;
