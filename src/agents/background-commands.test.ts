import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../test/helpers/corpus.js';
import { claudeTool } from '../../test/helpers/transcript-lines.js';
import { agentSummaries } from './agent-summaries.js';
import { parseClaudeTranscript } from './claude-code/transcript.js';
import { parseCodexRollout } from './codex/rollout.js';

const lastMessage = (text: string) =>
  agentSummaries(parseClaudeTranscript(text).entries).find((s) => s.kind === 'last_message');

const said = (text: string) =>
  JSON.stringify({
    type: 'assistant',
    message: { id: `m-${text}`, role: 'assistant', content: [{ type: 'text', text }] },
  });
const notified = (callId: string) =>
  JSON.stringify({
    type: 'user',
    message: {
      role: 'user',
      content: `<task-notification>\n<task-id>bg1</task-id>\n<tool-use-id>${callId}</tool-use-id>\n<status>completed</status>\n<summary>Background command "CI" completed (exit code 0)</summary>\n</task-notification>`,
    },
  });

describe('commands left running in the background', () => {
  const started = claudeTool(
    'c1',
    'Bash',
    { command: 'sleep 90 && gh pr checks 233', run_in_background: true },
    'Command running in background with ID: bg1',
  );

  it('are named under the last message while the transcript never shows them end', () => {
    const last = lastMessage([...started, said('Waiting for CI.')].join('\n'));
    expect(last?.text).toBe(
      'Waiting for CI.\n\nLeft running in the background, not seen to end when the transcript ends: `Bash: sleep 90 && gh pr checks 233`',
    );
    expect(last?.open_through).toBe(2);
  });

  it('are not once a notification names them, a read of their output says they ended, or the agent stopped them', () => {
    expect(lastMessage([...started, said('Waiting for CI.'), notified('c1')].join('\n'))?.text).not.toContain(
      'Left running',
    );
    const read = claudeTool(
      'r1',
      'TaskOutput',
      { task_id: 'bg1' },
      '<status>completed</status>\n<exit_code>0</exit_code>\n<output>all green</output>',
    );
    expect(lastMessage([...started, ...read, said('CI is green.')].join('\n'))?.text).toBe('CI is green.');
    const kill = claudeTool('k1', 'KillShell', { shell_id: 'bg1' }, 'Shell bg1 killed');
    expect(lastMessage([...started, ...kill, said('Stopped it.')].join('\n'))?.text).toBe('Stopped it.');
  });

  it("are those of the last message's turn: a teammate's message relayed as the user's starts none (entirecontext 39)", () => {
    // 765 `sleep 90 && gh pr checks 233` in the background, 772 a teammate's idle notification, 776 the agent's words
    const cut = readCorpus('claude-code/entirecontext/39/01M0CV5D1MQXCRJBJXKV1JQ939/0/full.jsonl')
      .split('\n')
      .slice(0, 776)
      .join('\n');
    expect(lastMessage(cut)?.text).toMatch(
      /\n\nLeft running in the background, not seen to end when the transcript ends: `Bash: sleep 90 && gh pr checks 233 /,
    );
  });

  it('are a Codex command the agent polled after its last message, the last poll finding it still running (hk e5)', () => {
    // 350 a code-mode cell starts a loop watching CI run 29470622663 (session 52223); 430 the agent says it waits for
    // the last jobs; 431-439 it polls the loop, which is still running when the transcript is cut
    const rollout = readCorpus('codex/hk/e5/cb0813e003/0/full.jsonl').split('\n');
    const last = (n: number) =>
      agentSummaries(parseCodexRollout(rollout.slice(0, n).join('\n')).entries).find(
        (s) => s.kind === 'last_message',
      );
    const cut = last(440);
    expect(cut?.text).toMatch(
      /^The last two jobs are still running[^\n]*\n\nLeft running in the background, not seen to end when the transcript ends: `exec: while true; do state=\$\(gh run view 29470622663 /,
    );
    expect(cut?.open_through).toBe(439);
    // the poll at 458 reads the loop's end (exit 0): by the agent's final answer it was over
    expect(last(rollout.length)?.text).not.toContain('Left running');
  });
});
