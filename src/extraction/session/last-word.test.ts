import { describe, expect, it } from 'vitest';
import { parseClaudeTranscript } from '../../agents/claude-code/transcript.js';
import { readCorpus } from '../../../test/helpers/corpus.js';
import { claudeTool } from '../../../test/helpers/transcript-lines.js';
import { readSession } from './read-session.js';

/** The agent's last word, and what it set off after it that never came back (the session cut while it ran). */
const lastWord = (text: string) =>
  readSession(parseClaudeTranscript(text).entries).summaries.findLast((s) => s.kind !== 'interrupted');

describe("the agent's last word", () => {
  it('says which calls after it never returned: the session ended while a commit and a push ran', () => {
    const last = lastWord(readCorpus('claude-code/eklavyagoyal-perigee/0/full.jsonl'));
    expect(last).toMatchObject({ line: 163, kind: 'last_message', turn_ended: false });
    expect(last?.text).toMatch(
      /^All staged cleanly .* Committing and pushing now\.\n\nThe transcript ends before this call returned \(check whether it ran\): `Bash: git commit -m /s,
    );
    // both ends of the call: its message cut in the middle, the push it ends with kept
    expect(last?.text).toMatch(/ … .*git push origin feature\/periodicity-telecommand-signals`$/);
  });

  it('is the calls that never returned when the piece read holds no message (a turn of calls only, cut off)', () => {
    const call = JSON.stringify({
      type: 'assistant',
      timestamp: '2026-01-01T00:00:03.000Z',
      message: {
        id: 'm7',
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'p1', name: 'Bash', input: { command: 'git push -u origin main' } },
        ],
      },
    });
    const text = [...claudeTool('b1', 'Bash', { command: 'git remote add origin x' }, ''), call].join('\n');
    expect(lastWord(text)).toMatchObject({ kind: 'last_message', turn_ended: false });
    expect(lastWord(text)?.text).toBe(
      'No message since the last one. The transcript ends before this call returned (check whether it ran): `Bash: git push -u origin main`',
    );
    // every call answered and nothing said: nothing to tell
    expect(lastWord(claudeTool('b2', 'Bash', { command: 'ls' }, 'a').join('\n'))).toBeUndefined();
    // read from the transcript's first line, there is no earlier message: the session was cut off before any word
    const whole = readSession(parseClaudeTranscript(text).entries, { fromStart: true }).summaries.at(-1);
    expect(whole).toMatchObject({ kind: 'last_message', turn_ended: false, said_nothing: true });
    expect(whole?.text).toBe(
      'The session was cut off before the agent said anything. The transcript ends before this call returned (check whether it ran): `Bash: git push -u origin main`',
    );
    expect(lastWord(text)?.said_nothing).toBeUndefined();
  });

  it("names a cut-off commit by its message's subject when the message is a heredoc, not by its trailer", () => {
    const said = JSON.stringify({
      type: 'assistant',
      timestamp: '2026-01-01T00:00:02.000Z',
      message: {
        id: 'm5',
        role: 'assistant',
        content: [{ type: 'text', text: 'The build passes. Committing.' }],
      },
    });
    const command = [
      "git add Dockerfile && git commit -q -F - <<'EOF'",
      'Fix the PATH in the build image after the installer moved',
      '',
      'The installer now puts its binaries elsewhere, so the build step failed with exit 127.',
      'Keep both folders on PATH so old and new layouts build.',
      '',
      'Co-Authored-By: Someone <someone@example.com>',
      'EOF',
      'git push origin main 2>&1 | tail -5',
    ].join('\n');
    const call = JSON.stringify({
      type: 'assistant',
      timestamp: '2026-01-01T00:00:03.000Z',
      message: {
        id: 'm6',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'c1', name: 'Bash', input: { command } }],
      },
    });
    expect(lastWord([said, call].join('\n'))?.text).toBe(
      "The build passes. Committing.\n\nThe transcript ends before this call returned (check whether it ran): `Bash: git add Dockerfile && git commit -q -F - <<'EOF' Fix the PATH in the build image after the installer moved … EOF git push origin main 2>&1 | tail -5`",
    );
  });

  it('says nothing more when every call returned', () => {
    const said = JSON.stringify({
      type: 'assistant',
      timestamp: '2026-01-01T00:00:02.000Z',
      message: { id: 'm9', role: 'assistant', content: [{ type: 'text', text: 'All done.' }] },
    });
    const text = [...claudeTool('b1', 'Bash', { command: 'npm test' }, 'ok'), said].join('\n');
    expect(lastWord(text)?.text).toBe('All done.');
    // the turn ended on it
    expect(lastWord(text)?.turn_ended).toBe(true);
  });

  it('says the turn did not end on it when the agent went on, or the user stopped it', () => {
    const said = (text: string) =>
      JSON.stringify({
        type: 'assistant',
        timestamp: '2026-01-01T00:00:02.000Z',
        message: { id: 'm8', role: 'assistant', content: [{ type: 'text', text }] },
      });
    const stopped = JSON.stringify({
      type: 'user',
      timestamp: '2026-01-01T00:00:04.000Z',
      message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] },
    });
    const wentOn = [
      said("I'll start by reading auth.ts."),
      ...claudeTool('r1', 'Read', { file_path: 'auth.ts' }, 'x'),
    ];
    expect(lastWord(wentOn.join('\n'))).toMatchObject({
      text: "I'll start by reading auth.ts.",
      turn_ended: false,
    });
    expect(lastWord([said('Thinking about the layout.'), stopped].join('\n'))?.turn_ended).toBe(false);
  });
});
