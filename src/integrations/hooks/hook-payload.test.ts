import { describe, expect, it } from 'vitest';
import {
  detectAgent,
  hookBudget,
  sessionEndBudget,
  hookEventNamed,
  hookEventsFor,
  hookTimeoutFor,
  parsePayload,
  sessionIdFromTranscript,
} from './hook-payload.js';

const hookBudgetMs = (...a: Parameters<typeof hookBudget>) => hookBudget(...a).ms;

const parse = (raw: string) => {
  const r = parsePayload(raw, '/work/here');
  if (!r.ok) throw new Error(r.error);
  return r.payload;
};

describe('the session id of a transcript file name', () => {
  it('reads Claude Code transcripts and Codex rollouts, in either path style', () => {
    expect(
      sessionIdFromTranscript(
        '/Users/a/.claude/projects/-Users-a-proj/4f65f198-0c0c-47a2-b6ab-5f2e30ae5cbe.jsonl',
      ),
    ).toBe('4f65f198-0c0c-47a2-b6ab-5f2e30ae5cbe');
    expect(
      sessionIdFromTranscript(
        '/home/a/.codex/sessions/2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl',
      ),
    ).toBe('019e1625-789d-76c0-80ab-3724b5ddb799');
    expect(
      sessionIdFromTranscript(
        'C:\\Users\\a\\.claude\\projects\\C--proj\\ABC7156B-6420-4373-A150-9B2EECAD6805.jsonl',
      ),
    ).toBe('ABC7156B-6420-4373-A150-9B2EECAD6805');
  });

  it('gives nothing for a name without an id, a folder or no path', () => {
    expect(sessionIdFromTranscript('/tmp/session.jsonl')).toBeNull();
    expect(sessionIdFromTranscript('/tmp/4f65f198-0c0c-47a2-b6ab-5f2e30ae5cbe/notes.txt')).toBeNull();
    expect(sessionIdFromTranscript(null)).toBeNull();
  });
});

describe('parsePayload', () => {
  it('takes the session id from the payload, else from the transcript name, else leaves it unknown', () => {
    expect(
      parse('{"session_id":"s1","transcript_path":"/t/4f65f198-0c0c-47a2-b6ab-5f2e30ae5cbe.jsonl"}')
        .session_id,
    ).toBe('s1');
    expect(
      parse('{"session_id":"","transcript_path":"/t/4f65f198-0c0c-47a2-b6ab-5f2e30ae5cbe.jsonl"}').session_id,
    ).toBe('4f65f198-0c0c-47a2-b6ab-5f2e30ae5cbe');
    expect(parse('{"hook_event_name":"Stop"}').session_id).toBeNull();
  });

  it('reads a payload behind a byte-order mark, and falls back to the process folder without a cwd', () => {
    const p = parse('\uFEFF{"session_id":"s1","prompt":"go"}');
    expect(p).toMatchObject({ session_id: 's1', prompt: 'go', cwd: '/work/here' });
  });

  it('marks a hook fired inside a subagent (agent_id), not one that only names the agent type', () => {
    expect(parse('{"agent_id":"ad597e734e874e0b9","agent_type":""}').subagent).toEqual({
      id: 'ad597e734e874e0b9',
      type: null,
    });
    expect(parse('{"agent_id":"019e-child","agent_type":"worker"}').subagent).toEqual({
      id: '019e-child',
      type: 'worker',
    });
    // `claude --agent reviewer` names the agent type of the main session: that is the session itself
    expect(parse('{"agent_type":"reviewer"}').subagent).toBeNull();
  });

  it('keeps unknown fields and refuses only what is not a JSON object', () => {
    expect(parse('{"effort":{"level":"high"},"session_crons":[]}').raw).toMatchObject({
      effort: { level: 'high' },
    });
    expect(parsePayload('', '/w')).toEqual({ ok: false, error: 'no hook input on stdin' });
    expect(parsePayload('[1]', '/w')).toEqual({ ok: false, error: 'hook input is not a JSON object' });
    expect(parsePayload('nope', '/w')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^hook input is not JSON/),
    });
  });

  it('tells Codex by its turn id or its rollout path, and trusts --agent', () => {
    expect(detectAgent(parse('{"turn_id":"t1"}'), null)).toBe('codex');
    expect(detectAgent(parse('{"transcript_path":"/h/.codex/sessions/x/rollout-1.jsonl"}'), null)).toBe(
      'codex',
    );
    expect(detectAgent(parse('{"transcript_path":"/h/.claude/projects/p/s.jsonl"}'), null)).toBe(
      'claude-code',
    );
    expect(detectAgent(parse('{}'), 'codex')).toBe('codex');
  });
});

describe('the event a hook command names', () => {
  it('is read however it is spelled, and an unknown name stays as given', () => {
    expect(hookEventNamed('stop')).toBe('Stop');
    expect(hookEventNamed('session_start')).toBe('SessionStart');
    expect(hookEventNamed('pre-compact')).toBe('PreCompact');
    expect(hookEventNamed('UserPromptSubmit')).toBe('UserPromptSubmit');
    expect(hookEventNamed('Notification')).toBe('Notification');
    expect(hookEventNamed('')).toBe('');
  });
});

describe('hook timeouts and budgets', () => {
  it("give Codex's SessionEnd and Interrupt the 3 s Codex allows them, 1 s of it in reserve; every other hook keeps 5 s", () => {
    expect([hookTimeoutFor('codex', 'SessionEnd'), hookBudgetMs('codex', 'SessionEnd')]).toEqual([3, 2000]);
    expect([hookTimeoutFor('codex', 'Interrupt'), hookBudgetMs('codex', 'Interrupt')]).toEqual([3, 2000]);
    expect([hookTimeoutFor('claude-code', 'SessionEnd'), hookBudgetMs('claude-code', 'SessionEnd')]).toEqual([
      30, 25000,
    ]);
    expect(hookBudgetMs('codex', 'Stop')).toBe(25000);
    expect(hookEventsFor('claude-code', null)).not.toContain('Interrupt');
  });

  it("give Claude Code's SessionEnd the shared budget when shorter: a plugin's 1.5 s, or the one its variable sets", () => {
    const plugin = { CLAUDE_PLUGIN_ROOT: '/p/baton' };
    expect(hookBudgetMs('claude-code', 'SessionEnd', plugin)).toBe(1200);
    expect(sessionEndBudget('claude-code', 'SessionEnd', plugin)?.why).toBe(
      "Claude Code gives SessionEnd hooks 1.5 s, and a plugin's timeout does not raise it",
    );
    const set = { ...plugin, CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '5000' };
    expect(hookBudgetMs('claude-code', 'SessionEnd', set)).toBe(4000);
    // a longer one than the hook's own timeout: its own, less its reserve; settings-file hooks raise the budget
    expect(
      hookBudgetMs('claude-code', 'SessionEnd', { CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '60000' }),
    ).toBe(25000);
    expect(hookBudgetMs('claude-code', 'SessionEnd', {})).toBe(25000);
    expect(hookBudgetMs('claude-code', 'Stop', plugin)).toBe(25000);
    expect(sessionEndBudget('codex', 'SessionEnd', plugin)).toBeNull();
  });

  it('give every hook the one BATON_HOOK_BUDGET sets in their place, naming it; refuse one that is no duration', () => {
    const set = { BATON_HOOK_BUDGET: '60s', CLAUDE_PLUGIN_ROOT: '/p/baton' };
    expect(hookBudget('codex', 'SessionEnd', set)).toEqual({ ms: 60_000, why: 'BATON_HOOK_BUDGET is 60s' });
    expect(hookBudget('claude-code', 'SessionEnd', set)).toEqual({
      ms: 60_000,
      why: 'BATON_HOOK_BUDGET is 60s',
    });
    expect(hookBudget('claude-code', 'Stop', { BATON_HOOK_BUDGET: '500ms' }).ms).toBe(500);
    // unset or empty: each agent's own, and why only where it is not the hook's own timeout less its reserve
    expect(hookBudget('codex', 'SessionEnd', { BATON_HOOK_BUDGET: '' })).toEqual({ ms: 2000, why: null });
    expect(hookBudget('claude-code', 'SessionEnd', { CLAUDE_PLUGIN_ROOT: '/p/baton' })).toEqual({
      ms: 1200,
      why: "Claude Code gives SessionEnd hooks 1.5 s, and a plugin's timeout does not raise it",
    });
    expect(() => hookBudget('codex', 'SessionEnd', { BATON_HOOK_BUDGET: 'soon' })).toThrow(
      'hook budget (variable BATON_HOOK_BUDGET) "soon" is not a duration; write it like 30s, 5m, 12h, 30d or 2w',
    );
    expect(() => hookBudget('codex', 'SessionEnd', { BATON_HOOK_BUDGET: '0' })).toThrow(
      'hook budget "0" must be longer than 0 (variable BATON_HOOK_BUDGET): unset it, or write it like 60s',
    );
  });
});
