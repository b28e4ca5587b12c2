import { describe, expect, it } from 'vitest';
import { alsoOpen, alsoOpenWords, conversationActiveAt, latestAtWork } from './conversation-recency.js';
import type { WorkflowState } from './schemas/state.js';

const at = (min: number) => new Date(Date.UTC(2026, 0, 1, 12, min)).toISOString();

/** A workflow whose session 1 follows `agent` (none: made by hand), started at minute `started`. */
function workflow(
  id: string,
  o: {
    agent?: string | null;
    started?: number;
    requests?: { min: number; source: string; at?: number }[];
    turnEnded?: number;
  } = {},
): WorkflowState {
  const agent = o.agent === null ? null : { name: o.agent ?? 'claude-code', session_id: `s-${id}` };
  return {
    id,
    title: `work ${id}`,
    issue: null,
    status: 'in_progress',
    sessions: [
      {
        number: 1,
        started_at: at(o.started ?? 0),
        ended_at: null,
        origin: 'create',
        end_reason: null,
        snapshot_id: null,
        tasks_done: 0,
        agent,
      },
    ],
    recent_requests: (o.requests ?? []).map((r, i) => ({
      id: `req-${i}`,
      timestamp: at(r.min),
      at: r.at === undefined ? null : at(r.at),
      session_number: 1,
      text: `ask ${i}`,
      source: r.source,
    })),
    ...(o.turnEnded === undefined
      ? {}
      : { turn_ended: { at: at(o.turnEnded), session_number: 1, requests: 1 } }),
  } as unknown as WorkflowState;
}

describe("when a workflow's conversation was last at work", () => {
  it("is the latest of its agent session's start, its prompts (when asked) and its turn's end", () => {
    expect(conversationActiveAt(workflow('a', { started: 1 }))).toBe(at(1));
    expect(conversationActiveAt(workflow('a', { started: 1, turnEnded: 7 }))).toBe(at(7));
    // a prompt is dated when it was asked, however late its transcript was read
    const late = workflow('a', { started: 1, requests: [{ min: 30, at: 5, source: 'claude-code' }] });
    expect(conversationActiveAt(late)).toBe(at(5));
    expect(
      conversationActiveAt(workflow('a', { started: 1, requests: [{ min: 9, source: 'claude-code:hook' }] })),
    ).toBe(at(9));
  });

  it("leaves out what a person recorded in its session, and has none without an agent's hooks", () => {
    expect(conversationActiveAt(workflow('a', { started: 1, requests: [{ min: 9, source: 'cli' }] }))).toBe(
      at(1),
    );
    expect(conversationActiveAt(workflow('a', { agent: null, started: 1 }))).toBeNull();
  });
});

describe('the workflow a command without an id means among conversations', () => {
  it('is the one whose conversation was at work last', () => {
    const a = workflow('a', { started: 1, turnEnded: 10 });
    const b = workflow('b', { started: 2, turnEnded: 4 });
    expect(latestAtWork([a, b])).toBe(a);
    expect(latestAtWork([b, a])).toBe(a);
  });

  it('is none when two were at work at the same time, or one follows no conversation', () => {
    expect(latestAtWork([workflow('a', { turnEnded: 3 }), workflow('b', { turnEnded: 3 })])).toBeNull();
    expect(latestAtWork([workflow('a', { turnEnded: 9 }), workflow('b', { agent: null })])).toBeNull();
    expect(latestAtWork([workflow('a', { turnEnded: 9 })])).toBeNull();
  });

  it('names each other one in a line, with the conversation it follows and how to see it', () => {
    expect(alsoOpenWords(alsoOpen(workflow('b', { agent: 'codex', turnEnded: 4 })))).toBe(
      'b "work b" (follows Codex session s-b, last active 2026-01-01 12:04 UTC): `baton status -w b`',
    );
    expect(alsoOpenWords(alsoOpen(workflow('c', { agent: null })))).toBe('c "work c": `baton status -w c`');
  });
});
