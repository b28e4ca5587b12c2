import {
  formatSpan,
  persistsWords,
  RETRY_WAITS,
  retryWait,
  retryWaitWords,
  machineZone,
  resetWords,
  usageLimitReached,
  type AutoResumeWaits,
  type WorkflowState,
} from '../../core/index.js';
import type { BatonService } from '../baton-service.js';
import type { SessionResult } from './agent-session.js';
import type { RunEvent } from './run-events.js';
import type { RunReport } from './run-options.js';

/** Waits `ms`, or less when `signal` fires first (a person stopping a run that waits for a usage limit's reset). */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((r) => {
    if (signal?.aborted) return r();
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      r();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * A reset time as Baton says one (`resetWords`), an instant alone on this machine's clock: the person who reads a
 * run's lines reads them here, and the agent printed its own reset time in this zone too.
 */
export const resetHere = (notice: string | null, resetsAt: string | null) =>
  resetWords(notice, resetsAt, machineZone());

/**
 * What a run stopped during its wait for a usage limit was doing: waiting for a reset still ahead, or waiting out a
 * limit whose reset has passed or was never named (a growing wait, `retryWait`).
 */
const waitingWords = (untilReset: number | null, words: string | null) =>
  untilReset !== null && untilReset > 0
    ? "waiting for the usage limit's reset"
    : `waiting out the usage limit (${untilReset === null ? 'its notice named no reset time' : `its reset at ${words} has passed`})`;

/** The usage limit a paused workflow hit, when its reset is still ahead (a run started now may stop again at once). */
export function usageLimitAhead(
  s: WorkflowState,
  now = Date.now(),
): { resets_at: string; words: string; ms: number } | null {
  const limit = s.agent?.usage_limit;
  const at = limit?.resets_at;
  const ms = at ? Date.parse(at) - now : NaN;
  return at && ms > 0 ? { resets_at: at, words: resetHere(limit.message, at) ?? at, ms } : null;
}

/** How often a run waiting for a usage limit's reset looks whether a person paused the workflow meanwhile. */
const HELD_CHECK_MS = 2000;

/**
 * Waits `ms` for a usage limit's reset, looking every HELD_CHECK_MS whether a person paused the workflow meanwhile
 * (`baton pause` makes the limit's pause theirs): their pause's reason ('' when none) when they did, else null (the
 * wait ran out, or `signal` fired).
 */
async function waitUnlessPaused(svc: BatonService, id: string, ms: number, signal?: AbortSignal) {
  const end = Date.now() + ms;
  for (;;) {
    const left = end - Date.now();
    if (left <= 0 || signal?.aborted) return null;
    await sleep(Math.min(left, HELD_CHECK_MS), signal);
    const s = await svc.runner.load(id);
    if (s.status === 'paused' && s.pause_trigger !== 'usage_limit') return s.pause_reason ?? '';
  }
}

/**
 * The agent stopped on a usage limit: the limit is recorded (with when it resets, and when the run resumes if it
 * waits), the workflow paused at once, and with `autoResume` the run waits: for the reset, else (none named, or the
 * limit back with nothing done since: its reset passed and the agent is still limited) a growing wait
 * (`retryWait`), never a tight loop of sessions that each stop at once. After `RETRY_WAITS` waits in a row with nothing done between it
 * stops and says the limit persists. Says why the run stops (null: it waited, and goes on in a fresh session).
 * `waits`: the waits already made with nothing done since, where this one is counted when the run goes on.
 */
export async function pauseForUsageLimit(
  svc: BatonService,
  id: string,
  result: Pick<SessionResult, 'text' | 'resets_at'>,
  o: {
    autoResume: boolean;
    waits: AutoResumeWaits;
    signal: AbortSignal | undefined;
    /** Who stops the run when its signal fires (`baton run`, a worker). */
    stopper: string;
    log: (line: string) => void;
    emit: (e: RunEvent) => void;
  },
): Promise<{
  report: NonNullable<RunReport['usage_limit']>;
  stopped: string | null;
}> {
  const { waits, backoffs, waitedMs, firstMs } = o.waits;
  // a person asked for a pause before the limit stopped the agent: it takes effect now, as theirs, and the run does
  // not resume at the reset (the limit's pause would have replaced their reason and gone on)
  const asked = (await svc.runner.load(id)).pause_request;
  const personal = asked?.trigger === 'pause' ? asked : null;
  const words = resetHere(result.text, result.resets_at);
  const untilReset = result.resets_at ? Date.parse(result.resets_at) - Date.now() : null;
  const gaveUp = o.autoResume && waits >= RETRY_WAITS;
  // the first stop with a reset time waits until then (at once when it passed: a clock a little off); a limit back
  // with nothing done since, or one with no reset time, waits at least the growing wait
  const backOff = o.waits.again || untilReset === null;
  const wait =
    !o.autoResume || gaveUp || personal
      ? null
      : backOff
        ? Math.max(untilReset ?? 0, retryWait(backoffs, firstMs))
        : Math.max(0, untilReset ?? 0);
  // its reset passed already (a clock a little off): the run goes on at once, which is no wait to count or number
  const atOnce = wait === 0 && !backOff;
  const resumeAt = wait !== null ? new Date(Date.now() + wait).toISOString() : null;
  await svc.runner.run(
    id,
    (d) =>
      usageLimitReached(d, {
        message: result.text ?? 'usage limit',
        resets_at: result.resets_at,
        auto_resume_at: resumeAt,
      }),
    { retry: true },
  );
  await svc.pause(
    { workflowId: id },
    personal
      ? // no reason of its own: the pending request's reason and trigger are the pause's
        { reason: null, trigger: 'pause', force: true }
      : { reason: `usage limit${words ? `, resets at ${words}` : ''}`, trigger: 'usage_limit', force: true },
  );
  const paused = await svc.runner.load(id);
  o.emit({
    event: 'workflow.paused',
    workflow_id: id,
    trigger: paused.pause_trigger,
    reason: paused.pause_reason,
  });
  const report = {
    resets_at: result.resets_at,
    reset_words: words,
    auto_resumed: wait !== null,
    waits: waits + (wait !== null && !atOnce ? 1 : 0),
  };
  if (personal)
    return {
      report,
      stopped: `paused as asked${personal.reason ? ` (${personal.reason})` : ''} when the usage limit stopped the agent`,
    };
  if (gaveUp)
    return {
      report,
      stopped: `${persistsWords('the usage limit', waits, waitedMs)}: the workflow stays paused`,
    };
  if (wait === null) return { report, stopped: 'usage limit' };
  if (!backOff) o.log(`usage limit: resuming at ${words ?? result.resets_at} (in ${formatSpan(wait)})`);
  else {
    // why it does not go on at the reset: said as it is, the reset's words when there are some
    const why = o.waits.again
      ? `usage limit again with nothing done since${words ? ` (resets at ${words})` : ''}`
      : 'usage limit with no reset time in its notice';
    o.log(`${why}: ${retryWaitWords(waits, wait)}`);
  }
  const held = await waitUnlessPaused(svc, id, wait, o.signal);
  if (held !== null)
    return {
      report: { ...report, auto_resumed: false },
      stopped: `paused${held ? ` (${held})` : ''} while ${waitingWords(untilReset, words ?? result.resets_at)}: the workflow stays paused`,
    };
  // not waited for after all: the workflow stays paused, and the run says how to go on
  if (o.signal?.aborted)
    return {
      report: { ...report, auto_resumed: false },
      stopped: `${o.stopper} was stopped (${String(o.signal.reason)}) while ${waitingWords(untilReset, words ?? result.resets_at)}`,
    };
  if (atOnce) o.waits.wentOnAtOnce();
  else o.waits.waited(wait, backOff);
  return { report, stopped: null };
}
