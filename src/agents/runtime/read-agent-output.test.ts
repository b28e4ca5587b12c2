import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../../test/helpers/corpus.js';
import { readAgentOutput } from './read-agent-output.js';

/** A line of the gleam capture (pretty-printed JSON in the corpus), as the agent printed it. */
const gleam = (name: string) =>
  JSON.stringify(JSON.parse(readCorpus(`stream-json/claude-agent-sdk-gleam/${name}.json`)));
const said = (text: string) =>
  JSON.stringify({
    type: 'assistant',
    session_id: 's1',
    message: { id: 'm2', role: 'assistant', content: [{ type: 'text', text }] },
  });
const summaries = (output: string, fromStart = false) =>
  readAgentOutput(output, { fromStart }).filter((s) => s.type === 'summary');

describe("a task log read after the fact, as `baton run` reads its agent's output", () => {
  it('ends inside a call: the last message names it; standard error lines in the log are passed over', () => {
    const log = [
      gleam('system_message'),
      said('Committing the schema now.'),
      '[stderr] warning: something the agent printed on standard error',
      gleam('assistant_message'),
    ].join('\n');
    expect(summaries(log)).toEqual([
      {
        type: 'summary',
        at: null,
        kind: 'last_message',
        text: 'Committing the schema now.\n\nThe transcript ends before this call returned (check whether it ran): `Bash: ls -la`',
        turn_ended: false,
      },
    ]);
    // no word of the agent's before the call, read from the first line: cut off before it said anything
    const silent = summaries([gleam('system_message'), gleam('assistant_message')].join('\n'), true);
    expect(silent).toEqual([
      expect.objectContaining({
        text: 'The session was cut off before the agent said anything. The transcript ends before this call returned (check whether it ran): `Bash: ls -la`',
        said_nothing: true,
      }),
    ]);
  });

  it("a run that ended: its result is the last message; Codex's `exec --json` is read too; other output gives none", () => {
    const done = [
      gleam('system_message'),
      gleam('assistant_message'),
      gleam('user_message'),
      gleam('result_success'),
    ];
    expect(summaries(done.join('\n'))).toEqual([
      expect.objectContaining({
        kind: 'last_message',
        text: 'Here are the files in the current directory.',
        turn_ended: true,
      }),
    ]);
    const codex = [
      { type: 'thread.started', thread_id: 't1' },
      { type: 'item.completed', item: { id: 'i1', type: 'agent_message', text: 'The parser is done.' } },
      { type: 'turn.completed', usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 5 } },
    ].map((l) => JSON.stringify(l));
    expect(summaries(codex.join('\n'))).toEqual([
      expect.objectContaining({ kind: 'last_message', text: 'The parser is done.' }),
    ]);
    // a command agent's plain lines: its last ones (see below)
    expect(readAgentOutput('building...\ndone\n')).toEqual([
      expect.objectContaining({ kind: 'last_message', text: 'building...\ndone' }),
    ]);
  });
});

describe('a run whose output stops before its result line', () => {
  it('was cut off in the middle of its turn, even where its last words read as its end (Claude Code, Codex)', () => {
    const words = 'The schema is in place. Committing it next.';
    const claude = [gleam('system_message'), said(words)];
    expect(summaries(claude.join('\n'))).toEqual([
      expect.objectContaining({ kind: 'last_message', text: words, turn_ended: false }),
    ]);
    // with its result, the turn ended on them
    expect(summaries([...claude, gleam('result_success')].join('\n'))).toEqual([
      expect.objectContaining({ kind: 'last_message', turn_ended: true }),
    ]);
    const codex = [
      { type: 'thread.started', thread_id: 't1' },
      { type: 'item.completed', item: { id: 'i1', type: 'agent_message', text: words } },
    ].map((l) => JSON.stringify(l));
    expect(summaries(codex.join('\n'))).toEqual([
      expect.objectContaining({ kind: 'last_message', text: words, turn_ended: false }),
    ]);
    // a Codex turn that ended without saying what it used ended all the same
    const noUsage = [...codex, JSON.stringify({ type: 'turn.completed' })];
    expect(summaries(noUsage.join('\n'))).toEqual([
      expect.objectContaining({ kind: 'last_message', text: words, turn_ended: true }),
    ]);
  });
});

describe("a command agent's task log read after the fact", () => {
  it('gives its last lines as the message it was cut off in, its standard error left out', () => {
    const log = ['working on T2', '[stderr] npm warn deprecated', 'wrote src/api.ts', 'sleeping...', ''].join(
      '\n',
    );
    expect(summaries(log)).toEqual([
      {
        type: 'summary',
        at: null,
        kind: 'last_message',
        text: 'working on T2\nwrote src/api.ts\nsleeping...',
        turn_ended: false,
      },
    ]);
    expect(summaries('[stderr] only errors\n')).toEqual([]);
    expect(summaries('{"type":"something","x":1}\n')).toEqual([]);
  });
});
