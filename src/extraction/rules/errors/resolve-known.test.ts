import { describe, expect, it } from 'vitest';
import { bash, say, toolResult } from '../../../../test/helpers/tool-results.js';
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
    expect(readInTwo(first, second, 'another.jsonl')[0]).toMatch(/^succeeded later/);
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
