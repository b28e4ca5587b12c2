import { describe, expect, it } from 'vitest';
import { admits, queueStanding, reachFlag, standingText, type WorkerReach } from './work-reach.js';

const entry = { worktree: '/srv/work/app', label: null, priority: 3 };
const worker = (over: Partial<WorkerReach> = {}): WorkerReach => ({
  owner: 'box:42',
  roots: ['/srv/work'],
  labels: [],
  host: 'box',
  pid: 42,
  heartbeat_at: '2026-01-01T00:00:00.000Z',
  expired: false,
  ...over,
});

describe('where queued work stands with the workers', () => {
  it('a worker that reaches it, alive: it waits for that one; running: a worker runs it', () => {
    expect(queueStanding(entry, false, [worker(), worker({ roots: ['/elsewhere'] })])).toEqual({
      state: 'waiting',
      priority: 3,
      takers: 1,
      stuck: null,
    });
    expect(queueStanding(entry, true, [])).toEqual({ state: 'running', priority: 3, takers: 0, stuck: null });
    expect(standingText(queueStanding(entry, true, []))).toBe('queued (priority 3), a worker runs it');
    expect(standingText(queueStanding(entry, false, [worker()]))).toBe(
      'queued (priority 3), waiting for the worker that can take it',
    );
    expect(standingText(queueStanding(entry, false, [worker(), worker()]))).toBe(
      'queued (priority 3), waiting for one of the 2 workers that can take it',
    );
  });

  it('none registered, none that reaches it, or the ones that did are gone: stuck, with the worker that would', () => {
    const command = 'baton worker --worktree-root /srv/work';
    expect(queueStanding(entry, false, []).stuck).toEqual({
      reason:
        'no worker is registered: none runs, or a `baton worker` started before this version of Baton does not register: restart it (SIGTERM pauses its work at the task boundary)',
      command,
    });
    expect(
      queueStanding(entry, false, [worker({ roots: ['/srv/workers'] }), worker({ roots: ['/x'] })]).stuck,
    ).toEqual({ reason: '2 workers run, but no --worktree-root of theirs holds /srv/work/app', command });
    const gone = queueStanding(entry, false, [worker({ expired: true }), worker({ roots: ['/x'] })]);
    expect(gone.stuck).toEqual({
      reason:
        'the worker that could take it stopped heartbeating (pid 42 on box, last heartbeat 2026-01-01T00:00:00.000Z)',
      command,
    });
    expect(standingText(gone)).toBe(
      `queued (priority 3), and nothing can take it: ${gone.stuck!.reason}; start a worker that would: \`${command}\` (or \`baton serve --worker\` with the same flag)`,
    );
    // work submitted with a label: reached by that label only (not by a root that holds it), and the worker that would
    // carries it
    const labelled = { ...entry, label: 'gpu' };
    expect(queueStanding(labelled, false, [worker({ roots: [], labels: ['gpu'] })]).stuck).toBeNull();
    expect(queueStanding(labelled, false, [worker({ roots: ['/x'], labels: ['cpu'] })]).stuck).toEqual({
      reason: '1 worker runs, but none has --label gpu',
      command: 'baton worker --label gpu',
    });
  });

  it('the worker that could not start it leaves it: not a taker, and why nothing runs it comes first', () => {
    const why = 'pid 42 on box could not start it: cannot start the agent: claude was not found';
    const refused = { ...entry, refusals: [{ owner: 'box:42', reason: why }] };
    const leaves = `${why}; that worker checks again by itself (every \`--recheck\`, 30s by default) and takes it once it can start it, so fix that first (or submit it again: \`baton submit\`)`;
    // alone: stuck with the refusal, and a worker that would (this one, restarted once fixed)
    expect(queueStanding(refused, false, [worker()]).stuck).toEqual({
      reason: leaves,
      command: 'baton worker --worktree-root /srv/work',
    });
    // another worker reaches it: it waits for that one
    expect(queueStanding(refused, false, [worker(), worker({ owner: 'other:7', pid: 7 })])).toMatchObject({
      takers: 1,
      stuck: null,
    });
    // others that do not reach it, or none left at all: said after the refusal
    expect(
      queueStanding(refused, false, [worker(), worker({ owner: 'o:7', roots: ['/x'] })]).stuck?.reason,
    ).toBe(`${leaves}; 1 worker runs, but no --worktree-root of theirs holds /srv/work/app`);
    // the worker that refused it is gone: why is still said, with no promise of what that worker does
    expect(queueStanding(refused, false, []).stuck?.reason).toMatch(
      new RegExp(`^${why}; no worker is registered: none runs`),
    );
    // a queued entry without refusals (claimed, not refused): its claimer still counts
    expect(queueStanding({ ...refused, refusals: [] }, false, [worker()]).stuck).toBeNull();
  });

  it('two workers that could not start it: both are said, and neither is counted as a taker', () => {
    const a = 'pid 42 on box could not start it: cannot start the agent: claude was not found';
    const b = 'pid 7 on gpu could not start it: the Docker engine is down';
    const refused = {
      ...entry,
      refusals: [
        { owner: 'box:42', reason: a },
        { owner: 'gpu:7', reason: b },
      ],
    };
    const both = [worker(), worker({ owner: 'gpu:7', host: 'gpu', pid: 7 })];
    expect(queueStanding(refused, false, both)).toMatchObject({
      takers: 0,
      stuck: {
        reason: `${a}; ${b}; those 2 workers check again by themselves (every \`--recheck\`, 30s by default) and take it once they can start it, so fix that first (or submit it again: \`baton submit\`)`,
      },
    });
    // a third worker that reaches it takes it
    expect(queueStanding(refused, false, [...both, worker({ owner: 'c:9', pid: 9 })]).takers).toBe(1);
    // one of the two stopped: both reasons stay, only the running one is said to leave it
    expect(queueStanding(refused, false, [worker()]).stuck?.reason).toBe(
      `${a}; ${b}; that worker checks again by itself (every \`--recheck\`, 30s by default) and takes it once it can start it, so fix that first (or submit it again: \`baton submit\`)`,
    );
    // running: the refusals are history
    expect(queueStanding(refused, true, both)).toMatchObject({ state: 'running', stuck: null });
  });

  it('roots reach their own folder and what is under it, never a sibling that starts alike', () => {
    expect(admits({ roots: ['/srv/work'], labels: [] }, entry)).toBe(true);
    expect(admits({ roots: ['/srv/work/app'], labels: [] }, entry)).toBe(true);
    expect(admits({ roots: ['/srv/wor'], labels: [] }, entry)).toBe(false);
    expect(admits({ roots: [], labels: ['gpu'] }, { ...entry, label: 'gpu' })).toBe(true);
    // labelled work runs only where the label is: not on a worker whose root holds it, without the label
    expect(admits({ roots: ['/srv/work'], labels: [] }, { ...entry, label: 'gpu' })).toBe(false);
    expect(admits({ roots: ['/srv/work'], labels: ['cpu'] }, { ...entry, label: 'gpu' })).toBe(false);
    // and a labelled worker takes the unlabelled work under its roots, not the unlabelled work elsewhere
    expect(admits({ roots: ['/srv/work'], labels: ['gpu'] }, entry)).toBe(true);
    expect(admits({ roots: [], labels: ['gpu'] }, entry)).toBe(false);
    expect(reachFlag({ worktree: '/srv/work/app/', label: null })).toBe('--worktree-root /srv/work');
    expect(reachFlag({ worktree: '/app', label: null })).toBe('--worktree-root /');
  });

  it('a worker at work that is not registered (started before the registry): named, with the restart it needs', () => {
    const old = [{ host: 'box', pid: 7 }];
    expect(queueStanding(entry, false, [], old).stuck?.reason).toBe(
      'no worker is registered; a worker at work (pid 7 on box) is not registered, so what it reaches is not known: a `baton worker` started before this version of Baton does not register: restart it (SIGTERM pauses its work at the task boundary)',
    );
    expect(queueStanding(entry, false, [worker({ roots: ['/x'] })], old).stuck?.reason).toMatch(
      /^1 worker runs, but no --worktree-root of theirs holds \/srv\/work\/app; a worker at work \(pid 7 on box\) is not registered/,
    );
    // one registered that takes it: nothing is stuck, whatever else runs
    expect(queueStanding(entry, false, [worker()], old).stuck).toBeNull();
  });
});
