import { describe, expect, it } from 'vitest';
import { bash, say, toolResult } from '../../../../test/helpers/tool-results.js';
import { readCorpus } from '../../../../test/helpers/corpus.js';
import { parseCorpusLines } from '../../../../test/helpers/corpus-lines.js';
import { parseTranscript } from '../../../agents/parse-transcript.js';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { findErrors } from './error-rules.js';
import { resolveKnown, type OpenError } from './resolve-known.js';

/**
 * A session read in two pieces (a Stop between them): the first piece's errors as it recorded them (open, seen in
 * `path`), then what the second piece resolves of them, with the first piece's lines read again for context.
 */
function readInTwo(first: TranscriptEntry[], second: TranscriptEntry[], path = 'session.jsonl') {
  const open: OpenError[] = findErrors(first, null)
    .filter((d) => d.resolution === 'unresolved')
    .map((d, i) => ({
      id: `e${i}`,
      error_type: d.error_type,
      error_message: d.error_message,
      evidence: { transcript: 'session.jsonl', line: d.evidence_line ?? 0 },
    }));
  expect(open).toHaveLength(1);
  return resolveKnown(open, second, { path, before: first }).map((r) => r.notes);
}

/** What one import of the whole transcript notes of its first error. */
const wholeNotes = (entries: TranscriptEntry[]) => findErrors(entries, null)[0]?.resolution_notes;

describe('an error of an earlier read, resolved by a later one', () => {
  it('is a slip fixed at once when the very next call, the same, succeeds in the later read, as one import says', () => {
    const first = [say('Building.'), ...bash('npm run build', 1, 'sandbox: operation not permitted')];
    const second = [say('Again, outside the sandbox.'), ...bash('npm run build', 0, 'built in 2s')];
    expect(readInTwo(first, second)).toEqual([wholeNotes([...first, ...second])]);
    expect(readInTwo(first, second)[0]).toMatch(
      /^the same call succeeded right after it \(transcript line \d+\)$/,
    );
  });

  it('is a slip fixed at once when the very next call, the failed one corrected, succeeds in the later read', () => {
    const first = [
      say('Running the scan.'),
      ...bash('python scan.py', 127, 'zsh:1: command not found: python'),
    ];
    const second = [say('With python3.'), ...bash('python3 scan.py', 0, '12 files')];
    expect(readInTwo(first, second)).toEqual([wholeNotes([...first, ...second])]);
    expect(readInTwo(first, second)[0]).toMatch(
      /^a corrected call succeeded right after it \(transcript line \d+\): `python3 scan.py`$/,
    );
  });

  it('is a slip fixed at once for a tool other than the shell too (a refused argument retried)', () => {
    const first = [toolResult('wait_agent', 'timeout_ms must be at least 10000', true)];
    const second = [
      say('With the least timeout it takes.'),
      toolResult('wait_agent', '{"timed_out":true}', false),
    ];
    expect(readInTwo(first, second)).toEqual([wholeNotes([...first, ...second])]);
    expect(readInTwo(first, second)[0]).toMatch(/^the same call succeeded right after it/);
  });

  it('succeeded later when another call came between, as one import says', () => {
    const first = [...bash('npm run build', 1, 'sandbox: operation not permitted')];
    const second = [...bash('ls dist', 0, 'index.js'), ...bash('npm run build', 0, 'built in 2s')];
    expect(readInTwo(first, second)).toEqual([wholeNotes([...first, ...second])]);
    expect(readInTwo(first, second)[0]).toMatch(/^succeeded later \(transcript line \d+\)$/);
  });

  it('is judged on the later read alone when the failure is not among the lines read again, or of another transcript', () => {
    const first = [...bash('npm run build', 1, 'sandbox: operation not permitted')];
    const second = [...bash('npm run build', 0, 'built in 2s')];
    // the fix's line is of the other transcript, and named with it: the error's "seen at" names its own
    expect(readInTwo(first, second, 'another.jsonl')[0]).toBe(
      `succeeded later (transcript line ${second[1]!.line} of another.jsonl)`,
    );
    const open = [
      {
        id: 'e1',
        error_type: 'command_failed',
        error_message: '`npm run build`: sandbox: operation not permitted',
        evidence: { transcript: 'session.jsonl', line: first[1]!.line },
      },
    ];
    expect(resolveKnown(open, second, { path: 'session.jsonl', before: [] })[0]?.notes).toMatch(
      /^succeeded later/,
    );
  });
});

/**
 * The real hk rollout (tuning split): `sh: pkl: command not found` from a Codex cell (lines 238-239), got round by
 * `mise exec -- pkl format` (242-243). Read as two conversations (another agent, or a new session, taking the work
 * up), the second opens with a request and runs the workaround.
 */
describe('an error of an earlier conversation, got round in a later one', () => {
  const rollout = 'codex/hk/e5/cb0813e003/0/full.jsonl';
  const failing = parseCorpusLines(rollout, [1, 198, 199, 238, 239]);
  const [pkl] = findErrors(failing, null);
  const open = (resolution = 'unresolved'): OpenError[] => [
    {
      id: 'e1',
      error_type: pkl!.error_type,
      error_message: pkl!.error_message,
      evidence: { transcript: 'codex.jsonl', line: pkl!.evidence_line ?? 0 },
      resolution,
    },
  ];
  /** A conversation made of the rollout's lines: its session, a request (line 198), the workaround. */
  const taking = parseCorpusLines(rollout, [197, 198, 199, 242, 243]);
  const whole = findErrors(parseTranscript(readCorpus(rollout)).entries, null).find(
    (d) => d.evidence_line === 239,
  );

  it('is worked around, its way round said as one import of the whole transcript says it, when its opening turn gets round it', () => {
    expect(pkl?.error_message).toMatch(/sh: pkl: command not found$/);
    expect(pkl?.resolution).toBe('unresolved');
    const [later] = resolveKnown(open(), taking, { path: 'claude.jsonl', before: [], fromStart: true });
    expect(later).toEqual({
      error_id: 'e1',
      resolution: 'workaround',
      notes: whole?.resolution_notes
        ?.replace('a corrected call succeeded right after it', 'a different shell call succeeded')
        // the way round is a line of this conversation's transcript, not of the failure's
        .replace('(transcript line 243)', '(transcript line 243 of claude.jsonl)'),
      line: 243,
    });
    expect(whole?.resolution).toBe('workaround');
    // the failure the earlier conversation ended on is no slip of this one's: the way round is said, to be told; in
    // the whole rollout, where the call right after it got round it, it is a slip fixed at once
    expect(later?.notes).toMatch(
      /^a different shell call succeeded \(transcript line 243 of claude\.jsonl\): `mise exec -- pkl/,
    );
    expect(whole?.resolution_notes).toMatch(
      /^a corrected call succeeded right after it \(transcript line 243\): `mise exec -- pkl/,
    );
  });

  it('is found when the opening turn is read in two pieces, the first read again before the second', () => {
    const [before, after] = [taking.slice(0, 2), taking.slice(2)];
    expect(resolveKnown(open(), after, { path: 'claude.jsonl', before, fromStart: true })).toHaveLength(1);
    // the lines read do not reach the conversation's start: its opening turn is not known
    expect(resolveKnown(open(), after, { path: 'claude.jsonl', before, fromStart: false })).toEqual([]);
    // found by the read that held it, not again
    expect(resolveKnown(open(), [], { path: 'claude.jsonl', before: taking, fromStart: true })).toEqual([]);
  });

  it('stays open when the way round comes in a later turn, as it does in one transcript', () => {
    const laterTurn = parseCorpusLines(rollout, [1, 9, 10, 98, 99, 242, 243]);
    expect(resolveKnown(open(), laterTurn, { path: 'claude.jsonl', before: [], fromStart: true })).toEqual(
      [],
    );
  });

  it("is not got round by a call made before it (a fork copying its parent's opening turn)", () => {
    const [after, before] = ['2026-07-16T04:05:30.000Z', '2026-07-16T04:05:35.000Z'];
    const at = (timestamp: string) => [{ ...open()[0]!, timestamp }];
    expect(
      resolveKnown(at(after), taking, { path: 'claude.jsonl', before: [], fromStart: true }),
    ).toHaveLength(1);
    expect(resolveKnown(at(before), taking, { path: 'claude.jsonl', before: [], fromStart: true })).toEqual(
      [],
    );
  });

  it('is not taken up from its own transcript, nor recorded as worked around twice', () => {
    expect(resolveKnown(open(), taking, { path: 'codex.jsonl', before: [], fromStart: true })).toEqual([]);
    expect(
      resolveKnown(open('workaround'), taking, { path: 'claude.jsonl', before: [], fromStart: true }),
    ).toEqual([]);
  });
});
