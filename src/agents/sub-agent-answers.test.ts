import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../test/helpers/corpus.js';
import { parseCorpusLines } from '../../test/helpers/corpus-lines.js';
import { agentSummaries } from './agent-summaries.js';
import { parseClaudeTranscript } from './claude-code/transcript.js';
import { parseCodexRollout } from './codex/rollout.js';
import { parseTranscript } from './parse-transcript.js';
import type { TranscriptEntry } from './transcript-types.js';

/** The agent's last message as the summaries of these entries say it. */
const lastMessage = (entries: TranscriptEntry[]) =>
  agentSummaries(entries).find((s) => s.kind === 'last_message');

/** Lines of a Claude Code transcript in the corpus, parsed at their own line numbers. */
const parseClaudeLines = (file: string, numbers: number[]) =>
  parseCorpusLines(file, numbers, undefined, parseClaudeTranscript);

/** A Codex rollout line. */
const rollout = (type: string, payload: object) =>
  JSON.stringify({ timestamp: '2026-08-16T17:40:00.000Z', type, payload });

const said = (text: string) =>
  rollout('response_item', {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text }],
  });

describe("every sub-agent's answer", () => {
  it('is a summary of its own, whole, named by the sub-agent (for `baton details summaries`)', () => {
    const lines = readCorpus('codex/entirecontext/7H/01M05W0DK3S06FP7YAJHNPXG7H/3/full.jsonl').split('\n');
    const answers = agentSummaries(parseCodexRollout(lines.slice(0, 271).join('\n')).entries).filter(
      (s) => s.kind === 'sub_agent',
    );
    expect(answers.length).toBeGreaterThanOrEqual(7);
    const adversarial = answers.find((a) => a.text.startsWith('correctness_adversarial: '));
    // whole: the findings after the head the Last State shows, not cut to a line
    expect(adversarial?.text).toContain('Verdict: REQUEST CHANGES');
    expect(adversarial?.text.split('\n').length).toBeGreaterThan(5);
    expect(adversarial?.line).toBeGreaterThan(128);
  });
});

describe("the sub-agents of the agent's unfinished turn", () => {
  it("are named in its last message: Codex team members' FINAL_ANSWER messages (a rollout cut at line 271)", () => {
    const lines = readCorpus('codex/entirecontext/7H/01M05W0DK3S06FP7YAJHNPXG7H/3/full.jsonl').split('\n');
    const last = lastMessage(parseCodexRollout(lines.slice(0, 271).join('\n')).entries);
    expect(last).toMatchObject({ line: 128, turn_ended: false });
    expect(last?.text).toContain(
      '\n\nSub-agents answered in its turn (the latest 4 of 7) (whole answers: `baton details summaries`):\n',
    );
    // a report in prose, by its head; one in JSON, by its short values (its explanations left out)
    expect(last?.text).toContain(
      '\n- correctness_adversarial: Verdict: REQUEST CHANGES · P1 — Merge-resolution renames are permanently skipped · File: `src/entirecontext/core/decision_file_lineage.py:168-178`',
    );
    expect(last?.text).toMatch(
      /\n- validate_missing_repo_warning: reviewer: reliability · findings: VALIDATED, P2, Missing repository bypasses the required warning path, src\/entirecontext\/hooks\/decision_hooks\.py:89-91, 100 · /,
    );
    // a member's message whose payload is encrypted says nothing: it is no answer (line 271)
    expect(last?.text).not.toMatch(/Message Type|Payload/);
    // every member it started had answered by then
    expect(last?.text).not.toContain('had not answered');

    // cut at line 159: two answers in, before the last message; three members started and not heard from yet
    const early = lastMessage(parseCodexRollout(lines.slice(0, 159).join('\n')).entries);
    expect(early?.text).toContain(
      '\n\nSub-agents answered in its turn (whole answers: `baton details summaries`):\n- migration_resilience: reviewer: data-migrations · ',
    );
    // an answer cut short in the transcript (no longer JSON) is said by its short fields
    expect(early?.text).toContain(
      '\n- tests_requirements: reviewer: testing · severity: P1 · title: Truncated NUL-framed Git output is accepted and committed · ',
    );
    expect(early?.text).toContain(
      '\nSub-agents it started had not answered when the transcript ends: correctness_adversarial, validate_truncated_framing, validate_ancestry_errors\n',
    );

    // the whole rollout: the agent's final report came after every answer, and took them in
    const whole = lastMessage(parseCodexRollout(lines.join('\n')).entries);
    expect(whole?.turn_ended).toBe(true);
    expect(whole?.text).not.toContain('Sub-agents');
  });

  it("are named: a Claude Code Task's answer, without its preamble and the id and usage Claude Code appends", () => {
    const entries = parseTranscript(
      readCorpus('claude-code/spotter/subagent.jsonl').split('\n').slice(0, 56).join('\n'),
    ).entries;
    const last = lastMessage(entries);
    expect(last).toMatchObject({ line: 35, turn_ended: false, open_through: 56 });
    // "Excellent! Now I have all the information I need ... Let me create ..." says nothing of what it found
    expect(last?.text).toMatch(
      /\n\nSub-agents answered after it \(whole answers: `baton details summaries`\):\n- Draft beads for linting setup: Bead Content: Setup Code Quality Tools \(Credo, Dialyxir, mix_audit\) · /,
    );
    expect(last?.text).not.toMatch(/Excellent|agentId|total_tokens/);
  });

  it("are named by their words: a JSON sample in an answer's code block is left out of its line", () => {
    // spotter 258c7280 cut at line 1500: a Task researching hook output answered with the JSON it documents
    const file = 'claude-code/spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl';
    const last = lastMessage(parseTranscript(readCorpus(file).split('\n').slice(0, 1500).join('\n')).entries);
    expect(last?.text).toContain(
      "- Research Claude hook output: Based on the official Claude Code hooks documentation, here's what you need to know about the SessionStart hook output contract: · SessionStart Hook Output Contract · 1. JSON Format for Injecting Context · To inject context at session startup, your SessionStart hook should output JSON to stdout with this structure: · Important:",
    );
    expect(last?.text).not.toContain('"hookSpecificOutput"');
  });

  it("are named: a Claude Code background agent's task notification, and the turn it starts is not over", () => {
    // 177 the Agent call, 179 "Async agent launched", 183 the agent's words, 240 the notification of its end
    const file = 'claude-code/entirecontext/39/01M0CV5D1MQXCRJBJXKV1JQ939/0/full.jsonl';
    const last = lastMessage(parseClaudeLines(file, [177, 179, 183, 240]));
    expect(last).toMatchObject({ line: 183, turn_ended: false, open_through: 240 });
    expect(last?.text).toMatch(
      /\n\nSub-agents answered after it \(whole answers: `baton details summaries`\):\n- MCP 2\.0 API 변경사항 조사: 조사 결과: MCP SDK 2\.0\.0 API 변경사항 · 핵심 변경: · `from mcp\.server\.fastmcp import FastMCP` → /,
    );
    // the launch's own result is no answer
    expect(last?.text).not.toContain('Async agent launched');

    // without the notification, the words end the turn, waiting for the agent
    expect(lastMessage(parseClaudeLines(file, [177, 179, 183]))).toMatchObject({
      line: 183,
      turn_ended: true,
      text: 'MCP 2.0 API 조사 진행 중. 그 사이에 release-loop 인프라를 세팅하겠습니다.\n\nSub-agents it started had not answered when the transcript ends: MCP 2.0 API 변경사항 조사',
    });
  });

  it("are named: a Claude Code teammate's message and its idle notification's summary; one that said nothing runs on", () => {
    // 283 the Agent call that spawns the teammate design-review, 285 "Spawned successfully", 293 the agent's words
    const file = 'claude-code/entirecontext/39/01M0CV5D1MQXCRJBJXKV1JQ939/0/full.jsonl';
    // the turn ends waiting for it: it had not answered
    expect(lastMessage(parseClaudeLines(file, [283, 285, 293]))).toMatchObject({
      turn_ended: true,
      text: '설계 리뷰 에이전트가 작업 중입니다. 결과를 기다리겠습니다.\n\nSub-agents it started had not answered when the transcript ends: design-review',
    });
    // a message relayed as the user's starts the next turn: cut there, the words before it are the turn it answered
    const replied = lastMessage(parseClaudeLines(file, [283, 285, 293, 381]));
    expect(replied?.text).toContain(
      '\n\nSub-agents answered after it (whole answers: `baton details summaries`):\n- design-review: MCP 2.0 migration design review — VERDICT: REVISE',
    );
    const long = lastMessage(parseClaudeLines(file, [283, 285, 293, 300]));
    expect(long?.text).toContain(
      '\n- design-review: VERDICT: REVISE · Overall Assessment: The design direction is correct',
    );
  });

  it("are named: Codex's subagent notification and the first collaboration tools' wait, a failed one said so", () => {
    const text = [
      said('Spawned two explorers; waiting for them.'),
      rollout('response_item', {
        type: 'function_call',
        name: 'wait',
        arguments: JSON.stringify({ ids: ['a1', 'a2'], timeout_ms: 30000 }),
        call_id: 'w1',
      }),
      rollout('response_item', {
        type: 'function_call_output',
        call_id: 'w1',
        output: JSON.stringify({
          status: {
            a1: { completed: 'The parser drops\n\nthe last line when it has no newline.' },
            a2: 'running',
          },
          timed_out: false,
        }),
      }),
      rollout('response_item', {
        type: 'message',
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: `<subagent_notification>\n${JSON.stringify({ agent_id: 'a2', status: { errored: 'sandbox denied' } })}\n</subagent_notification>`,
          },
        ],
      }),
    ].join('\n');
    const last = lastMessage(parseCodexRollout(text).entries);
    expect(last).toMatchObject({ line: 1, turn_ended: false, open_through: 4 });
    expect(last?.text).toContain(
      '\n\nSub-agents answered after it (whole answers: `baton details summaries`):\n- a1: The parser drops · the last line when it has no newline.\n- a2: (failed) sandbox denied',
    );
  });

  it('are not named when none came, nor when a sub-agent said nothing readable', () => {
    const text = [
      said('Waiting for the reviewer.'),
      rollout('response_item', {
        type: 'agent_message',
        author: '/root/reviewer',
        recipient: '/root',
        content: [
          {
            type: 'input_text',
            text: 'Message Type: MESSAGE\nTask name: /root\nSender: /root/reviewer\nPayload:\n',
          },
          { type: 'encrypted_content', encrypted_content: 'gAAAA' },
        ],
      }),
    ].join('\n');
    const parsed = parseCodexRollout(text);
    expect(parsed.entries.map((e) => e.kind)).toEqual(['text']);
    expect(lastMessage(parsed.entries)).toMatchObject({
      turn_ended: true,
      text: 'Waiting for the reviewer.',
    });
  });
});
