import { RECHECK_DEFAULT } from './work-rules.js';

/** What a worker can reach: worktrees under these roots, or work submitted with one of these labels. */
export interface WorkFilter {
  roots: readonly string[];
  labels: readonly string[];
}

/** A root as a path prefix: `/srv/work` admits `/srv/work` and `/srv/work/...`, never `/srv/workers`. */
export const rootPrefix = (root: string) => (root.endsWith('/') ? root : `${root}/`);

/**
 * Whether a filter admits queued work: work submitted with a label, when the label is one of its (only there: a GPU
 * job never runs on a machine without the GPU label, whatever roots that machine has); other work, under one of its
 * roots.
 */
export const admits = (filter: WorkFilter, e: { worktree: string; label: string | null }): boolean =>
  e.label !== null
    ? filter.labels.includes(e.label)
    : filter.roots.some((r) => e.worktree === r || e.worktree.startsWith(rootPrefix(r)));

/** The directory a worktree is in (`/srv/work/app` -> `/srv/work`): the core reads paths without `node:path`. */
function parentOf(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const i = trimmed.lastIndexOf('/');
  return i <= 0 ? '/' : trimmed.slice(0, i);
}

/** The worker flag that reaches queued work: its label, else the directory its worktree is in. */
export const reachFlag = (e: { worktree: string; label: string | null }): string =>
  e.label ? `--label ${e.label}` : `--worktree-root ${parentOf(e.worktree)}`;

/** A worker as the registry has it (`baton worker`, `baton serve --worker`): what it reaches, and whether it is gone. */
export interface WorkerReach extends WorkFilter {
  /** Its lease identity: the `claimed_by` of the work it claims. */
  owner: string;
  host: string;
  pid: number;
  heartbeat_at: string;
  /** It stopped heartbeating: expired by the store's clock. */
  expired: boolean;
}

/** Where queued work stands with the workers: what `baton status` and the dashboard say of it. */
export interface QueueStanding {
  /** A worker runs it now (it holds the workflow's lease), or it waits for one. */
  state: 'running' | 'waiting';
  priority: number;
  /** The running workers that can take it (a `--worktree-root` of theirs holds it, or its `--label` is theirs). */
  takers: number;
  /** Nothing can take it: why, and the command that starts a worker that would. Null while something can. */
  stuck: { reason: string; command: string } | null;
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** A worker at work that is not in the registry (it holds a workflow's lease): one started before there was one. */
export interface UnregisteredWorker {
  host: string;
  pid: number;
}

/** What a worker that does not register is told to do: it runs code from before the registry. */
const RESTART =
  'a `baton worker` started before this version of Baton does not register: restart it (SIGTERM pauses its work at the task boundary)';

/**
 * Where queued work stands, from the workers registered: running, waiting for a worker that can take it, or stuck
 * because none can (none registered, none that is reaches it, the ones that did stopped heartbeating, or the ones
 * that claimed it could not start it), with the `baton worker` that would take it. `unregistered`: workers at work
 * that are not in the registry (what they reach is not known), named with what to do. `refusals`: each worker that
 * claimed it and could not start it, and why (refusedOutcome): such a worker is not a taker until it can.
 */
export function queueStanding(
  e: {
    worktree: string;
    label: string | null;
    priority: number;
    refusals?: readonly { owner: string; reason: string }[];
  },
  running: boolean,
  workers: readonly WorkerReach[],
  unregistered: readonly UnregisteredWorker[] = [],
): QueueStanding {
  const refusals = running ? [] : (e.refusals ?? []);
  const refusedBy = new Set(refusals.map((r) => r.owner));
  // the workers that could not start it leave it: what stands is what the others can do
  const others = workers.filter((w) => !refusedBy.has(w.owner));
  const reaching = others.filter((w) => admits(w, e));
  const takers = reaching.filter((w) => !w.expired).length;
  const state = running ? 'running' : 'waiting';
  if (running || takers) return { state, priority: e.priority, takers, stuck: null };
  const live = others.filter((w) => !w.expired).length;
  const gone = reaching.filter((w) => w.expired);
  const where = e.label ? `none has --label ${e.label}` : `no --worktree-root of theirs holds ${e.worktree}`;
  // every refusal is said (two workers may lack different things), and what the ones still running do about it
  const refusersRunning = workers.filter((w) => refusedBy.has(w.owner) && !w.expired).length;
  const retry = refusersRunning
    ? `; ${plural(refusersRunning, 'that worker checks', `those ${refusersRunning} workers check`)} again by ${plural(refusersRunning, 'itself', 'themselves')} (every \`--recheck\`, ${RECHECK_DEFAULT} by default) and ${plural(refusersRunning, 'takes', 'take')} it once ${plural(refusersRunning, 'it', 'they')} can start it, so fix that first (or submit it again: \`baton submit\`)`
    : '';
  const refused = refusals.length ? `${refusals.map((r) => r.reason).join('; ')}${retry}` : '';
  const unknown = unregistered.length
    ? `; ${plural(unregistered.length, 'a worker', 'workers')} at work (${unregistered
        .map((w) => `pid ${w.pid} on ${w.host}`)
        .join(
          ', ',
        )}) ${plural(unregistered.length, 'is', 'are')} not registered, so what ${plural(unregistered.length, 'it reaches', 'they reach')} is not known: ${RESTART}`
    : '';
  const taker = gone.length
    ? `the ${plural(gone.length, 'worker', 'workers')} that could take it stopped heartbeating (${gone
        .map((w) => `pid ${w.pid} on ${w.host}, last heartbeat ${w.heartbeat_at}`)
        .join('; ')})${unknown}`
    : live
      ? `${live} ${plural(live, 'worker runs', 'workers run')}, but ${where}${unknown}`
      : unregistered.length
        ? `no worker is registered${unknown}`
        : `no worker is registered: none runs, or ${RESTART}`;
  // the refusals are the news (why nothing runs it); what the other workers are follows, unless there are none beside
  // refusers still running (then "no worker is registered" would be untrue)
  const reason = !refused
    ? taker
    : refusersRunning && !live && !gone.length && !unregistered.length
      ? refused
      : `${refused}; ${taker}`;
  return {
    state,
    priority: e.priority,
    takers: 0,
    stuck: { reason, command: `baton worker ${reachFlag(e)}` },
  };
}

/**
 * Who queued work waits for, in words: `the worker that can take it`, `one of the 3 workers that can take it`. The
 * dashboard's queue banner says the same (web/src/api/queue-words.ts, checked by test/lint/web-queue-words.test.ts).
 */
export const takersText = (takers: number): string =>
  `${takers === 1 ? 'the worker' : `one of the ${takers} workers`} that can take it`;

/** Queued work in words: `queued (priority 0), and nothing can take it: ...; start one: baton worker ...`. */
export function standingText(q: QueueStanding): string {
  if (q.state === 'running') return `queued (priority ${q.priority}), a worker runs it`;
  if (!q.stuck) return `queued (priority ${q.priority}), waiting for ${takersText(q.takers)}`;
  return `queued (priority ${q.priority}), and nothing can take it: ${q.stuck.reason}; start a worker that would: \`${q.stuck.command}\` (or \`baton serve --worker\` with the same flag)`;
}
