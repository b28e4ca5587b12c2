import { describe, expect, it } from 'vitest';
import { readSession } from '../../extraction/session/read-session.js';
import { detectTranscriptFormat } from '../parse-transcript.js';
import { parseCodexRollout } from './rollout.js';

/**
 * A rollout as Codex wrote it before the `{timestamp, type, payload}` envelope (until about September 2025): a header
 * line, `{"record_type":"state"}` markers and bare response items without timestamps.
 */
const shell = (id: string, command: string[], output: string, exit = 0) => [
  { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command }), call_id: id },
  {
    type: 'function_call_output',
    call_id: id,
    output: JSON.stringify({ output, metadata: { exit_code: exit, duration_seconds: 0.2 } }),
  },
];
const bare = [
  {
    id: '5973b6c0-94b8-487b-a530-2aeb6098ae0e',
    timestamp: '2025-08-12T09:30:00.000Z',
    instructions: null,
    git: { commit_hash: 'abc', branch: 'main' },
  },
  { record_type: 'state' },
  {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: '<environment_context>\n  <cwd>/w/app</cwd>\n</environment_context>' },
    ],
  },
  {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: 'add a --verbose flag to the cli' }],
  },
  { record_type: 'state' },
  {
    type: 'function_call',
    name: 'update_plan',
    arguments: JSON.stringify({ plan: [{ step: 'Add the flag', status: 'completed' }] }),
    call_id: 'p1',
  },
  { type: 'function_call_output', call_id: 'p1', output: 'Plan updated' },
  ...shell(
    's1',
    ['apply_patch', '*** Begin Patch\n*** Update File: src/cli.ts\n@@\n-a\n+b\n*** End Patch'],
    'Done!',
  ),
  ...shell(
    's2',
    ['bash', '-lc', 'git commit -am "Add --verbose"'],
    '[main 7e1f2a3] Add --verbose\n 1 file changed',
  ),
  {
    type: 'local_shell_call',
    id: 'lsh_1',
    call_id: 's3',
    status: 'completed',
    action: { type: 'exec', command: ['bash', '-lc', 'git push origin main'] },
  },
  {
    type: 'function_call_output',
    call_id: 's3',
    output: JSON.stringify({
      output: 'To github.com:o/app.git\n   1a2b3c4..7e1f2a3  main -> main\n',
      metadata: { exit_code: 0, duration_seconds: 1.1 },
    }),
  },
  {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'Added the flag and committed it.' }],
  },
].map((l) => JSON.stringify(l));

describe('Codex rollouts from before the envelope', () => {
  it('are recognised and read: the request, the plan, the files, the commit and push, no line skipped', () => {
    expect(detectTranscriptFormat(bare.join('\n'))).toBe('codex-rollout');
    const t = parseCodexRollout(bare.join('\n'));
    expect(t.skipped).toEqual([]);
    expect(t.session_id).toBe('5973b6c0-94b8-487b-a530-2aeb6098ae0e');
    const facts = readSession(t.entries);
    expect(facts.requests.map((r) => [r.text, r.at])).toEqual([
      ['add a --verbose flag to the cli', '2025-08-12T09:30:00.000Z'],
    ]);
    expect(facts.tasks).toEqual([{ content: 'Add the flag', status: 'completed' }]);
    expect(facts.commits.map((c) => [c.hash, c.subject])).toEqual([['7e1f2a3', 'Add --verbose']]);
    expect(facts.effects.map((e) => e.summary)).toEqual([
      'edited src/cli.ts',
      '7e1f2a3 Add --verbose',
      'pushed main -> main (up to 7e1f2a3)', // codex-mini's local_shell tool
    ]);
    expect(facts.summaries.at(-1)?.text).toBe('Added the flag and committed it.');
  });

  it('ignore the state markers of later rollouts, and still skip what is no Codex line', () => {
    const t = parseCodexRollout(
      [
        JSON.stringify({ record_type: 'state' }),
        JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } }),
      ].join('\n'),
    );
    expect(t.skipped.map((s) => s.line)).toEqual([2]);
  });
});
