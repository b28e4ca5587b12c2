import { describe, expect, it } from 'vitest';
import { turnOver } from '../agent-turn.js';
import { Draft } from '../draft.js';
import type { WorkflowState } from '../schemas/state.js';
import { endAgentSession, endAgentTurn, linkAgentSession } from './agent-session.js';
import { syncAgentTasks } from './agent-tasks.js';
import { freshWorkflow } from '../../../test/helpers/fresh-workflow.js';
import { doneWhileOpen, finishedWork, finishWork, heldByErrors } from './finished-work.js';
import { pause } from './pause.js';
import { recordError, recordSummary, recordTestRun } from './records.js';
import { recordRequest } from './requests.js';
import { recordSideEffect } from './runtime.js';
import { completeTask } from './tasks.js';

let n = 0;
const ctx = { now: '2026-03-01T10:00:00.000Z', newId: (p: string) => `${p}-${++n}`, actor: 'hook' };
const next = (s: WorkflowState) => new Draft(s, ctx);
const now = ctx.now;
const later = (min: number) => new Date(Date.parse(now) + min * 60_000).toISOString();
const s1 = { name: 'claude-code', session_id: 's1' };

/** A workflow a hook made for session s1, its TodoWrite list with these statuses. */
function followed(statuses: string[], agent = true) {
  const d = freshWorkflow({ title: 'Claude Code session on main', ...(agent ? { agent: s1 } : {}) }, ctx);
  if (!agent) linkAgentSession(d, s1);
  const todos = statuses.map((status, i) => ({
    content: `step ${i + 1}`,
    activeForm: `doing ${i + 1}`,
    status,
  }));
  syncAgentTasks(d, 'claude-code', [{ tool: 'TodoWrite', input: { todos }, id: 'call-1' }]);
  return d.state;
}

/** Its SessionEnd: the end of the turn, if one was under way, and of the session. */
const ended = (s: WorkflowState, agent = s1) => {
  const d = next(s);
  endAgentTurn(d, agent.name);
  endAgentSession(d, agent, 'prompt_input_exit');
  return d.state;
};

describe('doneWhileOpen', () => {
  it('says what is done while only the open conversation keeps the work from being over', () => {
    const open = followed(['completed', 'completed']);
    expect(finishedWork(open, now)).toBeNull();
    expect(doneWhileOpen(open, now)).toBe('all 2 of its tasks are done');
    // over once the conversation ends: said as work over, not as done while open
    expect(doneWhileOpen(ended(open), now)).toBeNull();
    // a task left, or a failing test, holds it whatever the conversation does
    expect(doneWhileOpen(followed(['completed', 'pending']), now)).toBeNull();
    const d = next(open);
    recordTestRun(d, {
      phase: 'red',
      failing_tests: ['parser > reads a BOM'],
      expected_failures: [],
      last_test_command: 'npx vitest run',
      last_test_output_summary: '1 failed',
    });
    expect(doneWhileOpen(d.state, now)).toBeNull();
  });
});

describe('finishedWork', () => {
  it("is over when every task of the agent's list is done and its session ended", () => {
    const s = ended(followed(['completed', 'completed']));
    expect(finishedWork(s, now)).toBe(
      'all 2 of its tasks are done and Claude Code session s1 ended (the user quit)',
    );
    const d = next(s);
    expect(finishWork(d)).toBe(finishedWork(s, now));
    expect(d.state.status).toBe('completed');
    expect(d.events.map((e) => e.type)).toEqual(['workflow.completed']);
    // decided on the state it commits to: once complete, it is not over a second time
    expect(finishWork(next(d.state))).toBeNull();
  });

  it('says how many of the finished tasks were skipped, not done', () => {
    // the agent's list drops its last step: skipped
    const d = next(followed(['completed', 'completed', 'pending']));
    const step = (i: number) => ({ content: `step ${i}`, activeForm: `doing ${i}`, status: 'completed' });
    syncAgentTasks(d, 'claude-code', [
      { tool: 'TodoWrite', input: { todos: [step(1), step(2)] }, id: 'call-2' },
    ]);
    expect(finishedWork(ended(d.state), now)).toBe(
      'all 3 of its tasks are finished (2 done, 1 skipped) and Claude Code session s1 ended (the user quit)',
    );
  });

  it("is not completed when its last task is marked done while the agent's conversation is open (MCP complete_task)", () => {
    const noGit = { state: null, note: null };
    const d = next(followed(['completed', 'in_progress']));
    const last = d.state.tasks.at(-1)!.id;
    // the conversation may be asked for more: it keeps its workflow until it ends
    expect(completeTask(d, last, null, noGit)).toMatchObject({
      workflow_status: 'in_progress',
      completes_with_conversation: true,
    });
    expect(finishedWork(ended(d.state), now)).toBe(
      'all 2 of its tasks are done and Claude Code session s1 ended (the user quit)',
    );
    // with no conversation open on it (its session ended), the workflow completes with its last task, as before
    const byHand = next(ended(followed(['completed', 'in_progress'])));
    const done = completeTask(byHand, last, null, noGit);
    expect(done.workflow_status).toBe('completed');
    expect(done.completes_with_conversation).toBeUndefined();
  });

  it('is over, without a SessionEnd, once nothing happened in it for half an hour (a closed terminal, Codex)', () => {
    const s = followed(['completed', 'completed']);
    expect(finishedWork(s, later(29))).toBeNull();
    expect(finishedWork(s, later(31))).toBe(
      'all 2 of its tasks are done and nothing happened in it for 31 min',
    );
    const d = new Draft(s, { ...ctx, now: later(31) });
    expect(finishWork(d)).not.toBeNull();
    // the session no SessionEnd closed ends with the workflow
    expect(d.events.map((e) => e.type)).toEqual(['workflow.completed', 'session.ended']);
    expect(d.state.sessions.at(-1)?.end_reason).toBe('completed');
  });

  it('without a task list, is over when the last request was answered and the session ended', () => {
    const asked = next(followed([]));
    recordRequest(asked, { text: 'rename foo to bar', at: later(1), source: 'claude-code:hook' });
    // asked, not answered yet (the user quit mid-turn): the work goes on
    expect(finishedWork(ended(asked.state), later(3))).toBeNull();
    // a message the agent went on from (a tool call after it), then the user quit: no answer
    const midTurn = next(asked.state);
    recordSummary(
      midTurn,
      {
        kind: 'last_message',
        text: "I'll start by reading foo.ts.",
        source: 'claude-code',
        turn_ended: false,
      },
      later(2),
    );
    expect(finishedWork(ended(midTurn.state), later(3))).toBeNull();
    const answered = next(asked.state);
    recordSummary(
      answered,
      { kind: 'last_message', text: 'Renamed foo to bar.', source: 'claude-code', turn_ended: true },
      later(2),
    );
    // answered while the session still runs: not over
    expect(finishedWork(answered.state, later(3))).toBeNull();
    expect(finishedWork(ended(answered.state), later(3))).toBe(
      "the user's last request was answered and Claude Code session s1 ended (the user quit)",
    );
    // a later request the agent never answered
    const again = next(answered.state);
    recordRequest(again, { text: 'now add a licence', at: later(4), source: 'claude-code:hook' });
    expect(finishedWork(ended(again.state), later(5))).toBeNull();
  });

  it('is not over when its last turn ended waiting on a command left running or on sub-agents; a server is no wait', () => {
    const answeredWith = (text: string, tasks: string[]) => {
      const d = next(followed(tasks));
      recordRequest(d, { text: 'ship the release', at: later(1), source: 'claude-code:hook' });
      recordSummary(d, { kind: 'last_message', text, source: 'claude-code', turn_ended: true }, later(2));
      return finishedWork(ended(d.state), later(3));
    };
    const ci =
      'PR #234 is open; I merge it once CI passes.\n\nLeft running in the background, not seen to end when the transcript ends: `Bash: sleep 120 && gh pr checks 234 2>/dev/null`';
    expect(answeredWith(ci, [])).toBeNull();
    expect(answeredWith(ci, ['completed'])).toBeNull();
    const review =
      'The design review agent is at work; I wait for its findings.\n\nSub-agents it started had not answered when the transcript ends: design-review';
    expect(answeredWith(review, [])).toBeNull();
    const server =
      'The app runs at http://localhost:3000.\n\nLeft running in the background, not seen to end when the transcript ends: `Bash: npm run dev:web`; `Bash: python -m http.server 8000`';
    expect(answeredWith(server, [])).toBe(
      "the user's last request was answered and Claude Code session s1 ended (the user quit)",
    );
    expect(answeredWith('Shipped.', [])).toBe(
      "the user's last request was answered and Claude Code session s1 ended (the user quit)",
    );
  });

  it('is not over when the agent only asked the user back; a question after changes made is a closing offer', () => {
    const asked = next(followed([]));
    recordRequest(asked, { text: 'add a power() function', at: later(1), source: 'claude-code:hook' });
    const question = next(asked.state);
    recordSummary(
      question,
      {
        kind: 'last_message',
        text: 'Before I write it: should power() take negative and fractional exponents?',
        source: 'claude-code',
        turn_ended: true,
      },
      later(2),
    );
    // the user quit without answering: the request waits on them, the next conversation goes on with it
    expect(finishedWork(ended(question.state), later(3))).toBeNull();
    // though its turn is over: read from a transcript (no Stop seen), the question ended it (no crash to tell of)
    const imported = next(followed([]));
    recordRequest(imported, { text: 'add a power() function', at: later(1), source: 'codex' });
    recordSummary(
      imported,
      {
        kind: 'last_message',
        text: 'Should power() take negative exponents?',
        source: 'codex',
        turn_ended: true,
      },
      later(2),
    );
    expect(turnOver(imported.state)).toBe(true);
    // an answer that closes on an offer of more is an answer
    const offered = next(asked.state);
    recordSummary(
      offered,
      {
        kind: 'last_message',
        text: 'power() would go in calc.py beside add(). Want me to write it?',
        source: 'claude-code',
        turn_ended: true,
      },
      later(2),
    );
    expect(finishedWork(ended(offered.state), later(3))).toBe(
      "the user's last request was answered and Claude Code session s1 ended (the user quit)",
    );
    // the same question after the agent wrote the function: an offer once the work is done
    const offer = next(asked.state);
    recordSideEffect(
      offer,
      { task_id: null, kind: 'file_write', tool: 'Write', summary: 'created calc.py' },
      later(1.5),
    );
    recordSummary(
      offer,
      {
        kind: 'last_message',
        text: 'Added power(). Want me to commit it?',
        source: 'claude-code',
        turn_ended: true,
      },
      later(2),
    );
    expect(finishedWork(ended(offer.state), later(3))).toBe(
      "the user's last request was answered and Claude Code session s1 ended (the user quit)",
    );
  });

  it('is not over when its last turn handed the next step to the user, with or without a "?"; an offer of more is no handoff', () => {
    const answeredWith = (text: string, tasks: string[]) => {
      const d = next(followed(tasks));
      recordRequest(d, { text: 'migrate to the MCP SDK 2.0', at: later(1), source: 'claude-code:hook' });
      // the design written before the gate: work was done, and the next step still waits on the user
      recordSideEffect(
        d,
        { task_id: null, kind: 'file_write', tool: 'Write', summary: 'created docs/design.md' },
        later(1.5),
      );
      recordSummary(d, { kind: 'last_message', text, source: 'claude-code', turn_ended: true }, later(2));
      return finishedWork(ended(d.state), later(3));
    };
    for (const gate of [
      "The design is in docs/design.md. Reply 'approve' and I'll go on to the Plan step.",
      '현재 **Design 게이트에서 사용자 승인 대기 중**입니다. "승인"이라고 답변해주시면 Plan 단계로 진행합니다.',
      'PR #233 is green. Waiting for your go-ahead before I merge.',
      // a question asking leave to go on with the work, after the design was written
      'The design is in docs/design.md. Ready to proceed with implementation?',
    ]) {
      expect(answeredWith(gate, []), gate).toBeNull();
      expect(answeredWith(gate, ['completed']), gate).toBeNull();
    }
    expect(answeredWith('Migrated. If you want, I can also bump the docs.', [])).toBe(
      "the user's last request was answered and Claude Code session s1 ended (the user quit)",
    );
    expect(answeredWith("Migrated. Let me know if you'd like me to open a PR.", ['completed'])).toBe(
      'its task is done and Claude Code session s1 ended (the user quit)',
    );
    expect(answeredWith('Migrated. Shall I add tests for it?', [])).toBe(
      "the user's last request was answered and Claude Code session s1 ended (the user quit)",
    );
  });

  it('is not over when its last turn said it waits on CI (or a build, a deploy) before a step of its own', () => {
    const endedWith = (text: string) => {
      const d = next(followed(['completed']));
      recordRequest(d, { text: 'merge the retro PR', at: later(1), source: 'claude-code:hook' });
      recordSummary(d, { kind: 'last_message', text, source: 'claude-code', turn_ended: true }, later(2));
      return finishedWork(ended(d.state), later(3));
    };
    expect(endedWith('PR #234 CI 완료 대기 중. 통과하면 머지하고 release-loop을 아카이브합니다.')).toBeNull();
    expect(endedWith("Pushed. Waiting for CI on PR #234; once it passes I'll merge it.")).toBeNull();
    expect(endedWith('PR #234 is open. Once CI passes, you can merge it.')).toBe(
      'its task is done and Claude Code session s1 ended (the user quit)',
    );
  });

  it('is over, without a SessionEnd, when the conversation of its last session is known over and its turn ended', () => {
    const asked = next(followed(['completed']));
    recordRequest(asked, { text: 'write the licence', at: later(1), source: 'claude-code:hook' });
    const over = { s1: 'its process exited' };
    // the turn on the last request never ended: cut off (the next session is told so), not over
    expect(finishedWork(asked.state, later(2), over)).toBeNull();
    const d = next(asked.state);
    endAgentTurn(d, 'claude-code');
    expect(finishedWork(d.state, later(2))).toBeNull();
    expect(finishedWork(d.state, later(2), { other: 'its process exited' })).toBeNull();
    expect(finishedWork(d.state, later(2), over)).toBe(
      'its task is done and Claude Code session s1 is over (its process exited)',
    );
    const done = next(d.state);
    expect(finishWork(done, over)).not.toBeNull();
    expect(done.state.status).toBe('completed');
  });

  it('is not over while a usage limit stopped its last turn; over once the agent said more after it', () => {
    const d = next(followed([]));
    recordRequest(d, { text: 'rename foo to bar', at: later(1), source: 'claude-code:hook' });
    recordSummary(
      d,
      { kind: 'last_message', text: 'Renamed in half the files.', source: 'x', turn_ended: true },
      later(2),
    );
    recordSummary(
      d,
      { kind: 'usage_limit', text: 'Claude AI usage limit reached|1772370000', source: 'x', resets_at: null },
      later(3),
    );
    expect(finishedWork(ended(d.state), later(40))).toBeNull();
    recordSummary(
      d,
      { kind: 'last_message', text: 'Renamed everywhere.', source: 'x', turn_ended: true },
      later(300),
    );
    expect(finishedWork(ended(d.state), later(301))).toBe(
      "the user's last request was answered and Claude Code session s1 ended (the user quit)",
    );
  });

  it('is not over while anything says the work goes on', () => {
    // the session still runs, or has just stopped (a crash, another terminal: no SessionEnd came)
    expect(finishedWork(followed(['completed']), now)).toBeNull();
    // a task left, or no task and no request answered
    expect(finishedWork(ended(followed(['completed', 'pending'])), now)).toBeNull();
    expect(finishedWork(ended(followed(['completed', 'in_progress'])), now)).toBeNull();
    expect(finishedWork(ended(followed([])), now)).toBeNull();
    // a workflow the user made with `baton create` is theirs to finish
    expect(finishedWork(ended(followed(['completed'], false)), now)).toBeNull();
    // an error still open, a test failing, a pause
    const withError = next(ended(followed(['completed'])));
    recordError(withError, {
      task_id: null,
      error_type: 'agent_error',
      error_message: 'API Error: 500 Internal server error',
      context: null,
      resolution: 'unresolved',
      resolution_notes: null,
    });
    expect(finishedWork(withError.state, now)).toBeNull();
    const failing = next(ended(followed(['completed'])));
    recordTestRun(failing, {
      phase: 'red',
      failing_tests: ['parser > reads a BOM'],
      expected_failures: [],
      last_test_command: 'npx vitest run',
      last_test_output_summary: '1 failed',
    });
    expect(finishedWork(failing.state, now)).toBeNull();
    // paused with a task under way
    const mid = next(followed(['completed', 'in_progress']));
    pause(mid, {
      reason: null,
      trigger: 'pause',
      force: true,
      timeoutMs: 60_000,
      git: { state: null, note: null },
    });
    expect(mid.state.status).toBe('paused');
    expect(finishedWork(mid.state, now)).toBeNull();
  });

  it('is over once paused after every task was done, not when a task ended after the pause', () => {
    // paused by the user after the session ended ("end of day"): the session is not ended a second time
    const pausing = next(ended(followed(['completed'])));
    pause(pausing, {
      reason: 'end of day',
      trigger: 'pause',
      force: false,
      timeoutMs: 60_000,
      git: { state: null, note: null },
    });
    expect(pausing.state.status).toBe('paused');
    expect(pausing.events.filter((e) => e.type === 'session.ended')).toEqual([]);
    expect(finishedWork(pausing.state, now)).toBe(
      'its task is done and it was paused after that (end of day)',
    );
    // a task that ended after the pause was under way when it took effect: the pause held it, and is resumed
    const later = new Date(Date.parse(pausing.state.paused_at!) + 1000).toISOString();
    const endedLater = {
      ...pausing.state,
      tasks: pausing.state.tasks.map((t) => ({ ...t, ended_at: later })),
    };
    expect(finishedWork(endedLater, now)).toBeNull();
    // completing it leaves the pause first: the status machine completes a workflow in progress only
    const finishing = next(pausing.state);
    expect(finishWork(finishing)).toBe('its task is done and it was paused after that (end of day)');
    expect(finishing.events.map((e) => e.type)).toEqual(['workflow.resumed', 'workflow.completed']);
    expect(finishing.state.status).toBe('completed');
  });
});

describe('heldByErrors', () => {
  const error = (d: Draft, message: string) =>
    recordError(d, {
      task_id: null,
      error_type: 'ci_failure',
      error_message: message,
      context: null,
      resolution: 'unresolved',
      resolution_notes: null,
    });

  it('says the open errors that alone keep finished work open, and how to resolve one that no longer applies', () => {
    const d = next(ended(followed(['completed'])));
    error(d, 'CI check failed: type-check: src/server.py:13: error: Cannot find implementation');
    const id = d.state.open_errors[0]?.id ?? '';
    expect(finishedWork(d.state, now)).toBeNull();
    expect(heldByErrors(d.state, now)).toBe(
      `1 open error (${id}: ci_failure: CI check failed: type-check: src/server.py:13: error: Cannot find implementation) holds it, though its task is done and Claude Code session s1 ended (the user quit); resolve it with \`baton record resolve ${id} --resolution fixed\` if it no longer applies`,
    );
    error(d, 'CI check failed: lint');
    expect(heldByErrors(d.state, now)).toMatch(
      /^2 open errors \(\S+: ci_failure: CI check failed: type-check: .+; \S+: ci_failure: CI check failed: lint\) hold it, though its task is done .+; resolve each with `baton record resolve <error id> --resolution fixed` if they no longer apply$/,
    );
  });

  it('lets errors the agent went on past not hold the work once the user quit or left it: the reason names them', () => {
    const d = next(followed(['completed']));
    const ciFailure = {
      task_id: null,
      error_type: 'ci_failure',
      error_message: 'CI check failed: e2e-2',
      context: null,
      resolution: 'unresolved' as const,
      resolution_notes: null,
    };
    recordError(d, ciFailure, later(1));
    recordSummary(
      d,
      {
        kind: 'last_message',
        text: 'Fixed e2e-2 and opened PR #12.',
        source: 'claude-code',
        turn_ended: true,
      },
      later(2),
    );
    const id = d.state.open_errors[0]?.id ?? '';
    // the session may still run: the error holds it, until nothing happened for half an hour (a Codex quit sends no
    // SessionEnd)
    expect(finishedWork(d.state, later(3))).toBeNull();
    expect(finishedWork(d.state, later(40))).toBe(
      `its task is done and nothing happened in it for 40 min; 1 error met on the way left open (${id}: ci_failure: CI check failed: e2e-2)`,
    );
    const quit = ended(d.state);
    expect(finishedWork(quit, later(3))).toBe(
      `its task is done and Claude Code session s1 ended (the user quit); 1 error met on the way left open (${id}: ci_failure: CI check failed: e2e-2)`,
    );
    expect(heldByErrors(quit, later(3))).toBeNull();
    // an error after the agent's last answer (its turn died on it): it holds the work
    const after = next(d.state);
    recordError(
      after,
      {
        task_id: null,
        error_type: 'agent_error',
        error_message: 'API Error: 500',
        context: null,
        resolution: 'unresolved',
        resolution_notes: null,
      },
      later(4),
    );
    expect(finishedWork(ended(after.state), later(5))).toBeNull();
    expect(finishedWork(after.state, later(60))).toBeNull();
    expect(heldByErrors(ended(after.state), later(5))).toMatch(
      /^2 open errors .* hold it, though its task is done/,
    );
  });

  it('lets an API failure the agent went on past hold nothing, its record not marked fixed; one cutting off holds', () => {
    const overloaded =
      'agent: API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
    const d = next(followed(['completed']));
    recordError(
      d,
      {
        task_id: null,
        error_type: 'agent_error',
        error_message: overloaded,
        context: null,
        resolution: 'unresolved',
        resolution_notes: null,
      },
      later(1),
    );
    const id = d.state.open_errors[0]?.id ?? '';
    // nothing after it: the turn died on it, and that holds the work
    expect(finishedWork(ended(d.state), later(2))).toBeNull();
    expect(heldByErrors(ended(d.state), later(2))).toMatch(
      new RegExp(
        `^1 open error \\(${id}: agent_error: agent: API Error: 529 .*\\) holds it, though its task is done`,
      ),
    );
    // Claude Code retried and the agent went on (its words after the failure, the turn not seen to end): over
    const went = next(d.state);
    recordSummary(
      went,
      { kind: 'last_message', text: 'Retried: the writer is written.', source: 'x' },
      later(2),
    );
    expect(finishedWork(ended(went.state), later(3))).toBe(
      'its task is done and Claude Code session s1 ended (the user quit)',
    );
    expect(heldByErrors(ended(went.state), later(3))).toBeNull();
    // the user asked again after it, and the agent answered: the reason names no error left open
    const asked = next(d.state);
    recordRequest(asked, { text: 'continue', at: later(2), source: 'claude-code:hook' });
    recordSummary(
      asked,
      { kind: 'last_message', text: 'Done: the writer is written.', source: 'x', turn_ended: true },
      later(3),
    );
    expect(finishedWork(ended(asked.state), later(4))).toBe(
      'its task is done and Claude Code session s1 ended (the user quit)',
    );
  });

  it('says nothing when no error is open, or something else keeps the work going too', () => {
    expect(heldByErrors(ended(followed(['completed'])), now)).toBeNull();
    // a task left
    const left = next(ended(followed(['completed', 'pending'])));
    error(left, 'CI check failed: lint');
    expect(heldByErrors(left.state, now)).toBeNull();
    // the session still runs (no SessionEnd, not idle)
    const running = next(followed(['completed']));
    error(running, 'CI check failed: lint');
    expect(heldByErrors(running.state, now)).toBeNull();
  });
});

describe('endAgentSession', () => {
  it('ends the Baton session that follows that agent session, and no other', () => {
    const s = followed(['completed']);
    const other = next(s);
    expect(endAgentSession(other, { name: 'claude-code', session_id: 's2' }, null)).toEqual({
      ended: false,
      session_number: null,
      snapshot: null,
    });
    expect(other.events).toEqual([]);
    const d = next(s);
    expect(endAgentSession(d, s1, 'clear')).toEqual({ ended: true, session_number: 1, snapshot: null });
    expect(d.state.sessions.at(-1)).toMatchObject({ end_reason: 'Claude Code session s1 ended (/clear)' });
    // ended once: a second SessionEnd (hooks wired twice) writes nothing
    const again = next(d.state);
    expect(endAgentSession(again, s1, 'clear').ended).toBe(false);
    expect(again.events).toEqual([]);
    // the same agent session again (`claude --resume`) is the next Baton session
    const resumed = next(d.state);
    expect(linkAgentSession(resumed, s1)).toEqual({ outcome: 'next', session_number: 2 });
  });
});
