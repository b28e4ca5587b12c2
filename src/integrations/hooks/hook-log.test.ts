import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/git-repo.js';
import {
  hookLogPath,
  hookRecordKey,
  lastWentUnanswered,
  readHookLog,
  writeHookLog,
  UNANSWERED_FOR_MS,
  type HookRecord,
} from './hook-log.js';

describe('the hook log', () => {
  it('keeps the last result of each agent and event apart: a Claude Code Stop does not replace a Codex one', () => {
    const home = tempDir('baton-home-');
    const path = hookLogPath(home, '/work/repo');
    const log = readHookLog(path, '/work/repo');
    const stop = (agent: string, outcome: 'failed' | 'nothing', at: string) =>
      (log.events[hookRecordKey(agent, 'Stop')] = {
        at,
        agent,
        event: 'Stop',
        outcome,
        note: outcome,
        ms: 3,
      });
    stop('codex', 'failed', '2026-05-11T11:00:00.000Z');
    stop('claude-code', 'nothing', '2026-05-11T11:01:00.000Z');
    writeHookLog(path, log);
    const again = readHookLog(path, '/work/repo').events;
    expect(Object.values(again).map((r) => [r.agent, r.event, r.outcome])).toEqual([
      ['codex', 'Stop', 'failed'],
      ['claude-code', 'Stop', 'nothing'],
    ]);
  });

  it('reads a record an older Baton wrote (keyed by the event alone) under its agent and event', () => {
    const home = tempDir('baton-home-');
    const path = hookLogPath(home, '/work/repo');
    mkdirSync(dirname(path), { recursive: true });
    const old = (agent: string, at: string) => ({ at, agent, outcome: 'failed', note: 'boom', ms: 5 });
    writeFileSync(
      path,
      JSON.stringify({
        version: 1,
        worktree: '/work/repo',
        events: {
          Stop: old('codex', '2026-05-11T11:00:00.000Z'),
          SessionStart: old('claude-code', '2026-05-11T10:00:00.000Z'),
          // the same agent and event in both forms (an older Baton ran after this one): the later is kept
          'claude-code/SessionStart': {
            ...old('claude-code', '2026-05-11T09:00:00.000Z'),
            event: 'SessionStart',
          },
        },
        transcripts: {},
      }),
    );
    const log = readHookLog(path, '/work/repo');
    expect(log.events).toEqual({
      'codex/Stop': { ...old('codex', '2026-05-11T11:00:00.000Z'), event: 'Stop' },
      'claude-code/SessionStart': {
        ...old('claude-code', '2026-05-11T10:00:00.000Z'),
        event: 'SessionStart',
      },
    });
    // written back in this Baton's form
    writeHookLog(path, log);
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).events)).toEqual([
      'codex/Stop',
      'claude-code/SessionStart',
    ]);
  });

  it("asks for the server's health first only after this agent's newest hook went unanswered, for ten minutes", () => {
    const at = (ms: number) => new Date(Date.parse('2026-05-11T11:00:00.000Z') + ms).toISOString();
    const record = (agent: string, event: string, ms: number, outcome: HookRecord['outcome'], more = {}) => ({
      [hookRecordKey(agent, event)]: { at: at(ms), agent, event, outcome, note: '', ms: 3, ...more },
    });
    const now = Date.parse(at(60_000));
    // the newest of this agent's hooks ran out of time: since then
    const timedOut = {
      ...record('claude-code', 'Stop', 0, 'ok'),
      ...record('claude-code', 'UserPromptSubmit', 1, 'timeout'),
    };
    expect(lastWentUnanswered(timedOut, 'claude-code', now)).toBe(at(1));
    // another agent's, or one answered since, is not
    expect(lastWentUnanswered(timedOut, 'codex', now)).toBeNull();
    expect(
      lastWentUnanswered({ ...timedOut, ...record('claude-code', 'Stop', 2, 'ok') }, 'claude-code', now),
    ).toBeNull();
    // a hook that found the server silent keeps asking; a failure of another kind does not
    const silent = record('claude-code', 'Stop', 2, 'failed', { unanswered: true });
    expect(lastWentUnanswered({ ...timedOut, ...silent }, 'claude-code', now)).toBe(at(2));
    expect(lastWentUnanswered(record('claude-code', 'Stop', 2, 'failed'), 'claude-code', now)).toBeNull();
    // ten minutes on, hooks wait for the server again
    expect(lastWentUnanswered(timedOut, 'claude-code', Date.parse(at(1 + UNANSWERED_FOR_MS)))).toBeNull();
    // a hook that did not wait (and failed) keeps the time of the last full wait: ten minutes after that one, the
    // server is waited for in full again, however many short tries failed since (a slow one is not shut out)
    const shortTry = record('claude-code', 'Stop', 2, 'failed', {
      unanswered: true,
      unanswered_since: at(1),
    });
    expect(lastWentUnanswered({ ...timedOut, ...shortTry }, 'claude-code', now)).toBe(at(1));
    expect(
      lastWentUnanswered({ ...timedOut, ...shortTry }, 'claude-code', Date.parse(at(1 + UNANSWERED_FOR_MS))),
    ).toBeNull();
  });
});
