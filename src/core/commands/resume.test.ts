import { describe, expect, it } from 'vitest';
import { Draft } from '../draft.js';
import type { WorkflowState } from '../schemas/state.js';
import { endAgentTurn, linkAgentSession } from './agent-session.js';
import { syncAgentTasks } from './agent-tasks.js';
import { freshWorkflow } from '../../../test/helpers/fresh-workflow.js';
import { pause } from './pause.js';
import { recordRequest } from './requests.js';
import { resumability, resumableBy } from './resume.js';

let n = 0;
const ctx = { now: '2026-03-01T10:00:00.000Z', newId: (p: string) => `${p}-${++n}`, actor: 'hook' };
const next = (s: WorkflowState) => new Draft(s, ctx);
const later = (min: number) => new Date(Date.parse(ctx.now) + min * 60_000).toISOString();
/** A pause now, whatever is in progress. */
const paused = (s: WorkflowState) => {
  const d = next(s);
  pause(d, {
    reason: 'end of day',
    trigger: 'pause',
    force: true,
    timeoutMs: 60_000,
    git: { state: null, note: null },
  });
  return d.state;
};

/** A workflow the hooks made for Codex conversation c1, its plan with these statuses, asked once. */
function followed(statuses: string[], agent: { name: string; session_id: string } | null = null) {
  const d = freshWorkflow({ title: 'Codex session on main', ...(agent ? { agent } : {}) }, ctx);
  const plan = statuses.map((status, i) => ({ step: `step ${i + 1}`, status }));
  syncAgentTasks(d, 'codex', [{ tool: 'update_plan', input: { plan }, id: 'call-1' }]);
  recordRequest(d, { text: 'add the retry', at: later(1), source: 'codex:hook' });
  return d.state;
}
const codex = { name: 'codex', session_id: 'c1' };
const turnEnded = (s: WorkflowState) => {
  const d = next(s);
  endAgentTurn(d, 'codex');
  return d.state;
};

describe('resumableBy', () => {
  it("goes on in the agent's next session once the agent's turn ended (quit, or waiting for its user)", () => {
    const asked = followed(['completed', 'in_progress'], codex);
    // the agent is at work on the request: nothing to resume
    expect(resumableBy(asked, later(2))).toBeNull();
    // its turn ended and Codex was quit (an older Codex sends no SessionEnd): its next session continues the workflow
    expect(resumableBy(turnEnded(asked), later(2))).toBe('next_session');
  });

  it('is a resume for a paused workflow, whoever followed it', () => {
    expect(resumableBy(paused(followed(['in_progress'], codex)), later(2))).toBe('resume');
    expect(resumableBy(paused(followed(['in_progress'])), later(2))).toBe('resume');
  });

  it('is nothing for a workflow no hooks follow, nor one whose work the next conversation would find over', () => {
    // made by hand (`baton create`), in progress: `baton run` or a session goes on with it, no resume
    expect(resumableBy(turnEnded(followed(['in_progress'])), later(2))).toBeNull();
    // every task of the plan done and the turn over: a new conversation completes it and starts a new workflow
    expect(resumableBy(turnEnded(followed(['completed', 'completed'], codex)), later(2))).toBeNull();
  });
});

describe('resumability: who goes on with it', () => {
  it("names the agent whose conversations followed it, and each agent's once several did", () => {
    const alone = turnEnded(followed(['completed', 'in_progress'], codex));
    expect(resumability(alone, later(2)).continued_by).toBe('the next Codex session in its worktree');
    // a Claude Code conversation followed it first, then Codex took over while its window stayed open: that window's
    // next prompt goes on with it as well as Codex's next session, and which comes first is not known
    const claude = { name: 'claude-code', session_id: 'S1' };
    const d = freshWorkflow({ title: 't', agent: claude }, ctx, 'wf-2');
    recordRequest(d, { text: 'plan the retry', at: later(1), source: 'claude-code:hook' });
    endAgentTurn(d, 'claude-code');
    linkAgentSession(d, codex);
    const plan = [{ step: 'step 1', status: 'in_progress' }];
    syncAgentTasks(d, 'codex', [{ tool: 'update_plan', input: { plan }, id: 'call-1' }]);
    recordRequest(d, { text: 'add the retry', at: later(2), source: 'codex:hook' });
    endAgentTurn(d, 'codex');
    expect(resumability(d.state, later(3))).toEqual({
      resumable: true,
      resume_by: 'next_session',
      continued_by: 'the next Codex or Claude Code session in its worktree',
    });
  });
});
