import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/git-repo.js';
import { readFirstLines, readLinesBefore } from './read-new-bytes.js';

function file(text: string): string {
  const path = join(tempDir('lines-before-'), 't.jsonl');
  writeFileSync(path, text);
  return path;
}

describe('readLinesBefore', () => {
  it('gives the whole lines before a byte, the last ones only', async () => {
    const text = 'one\ntwo\nthree\nfour\n';
    const path = file(text);
    const to = text.indexOf('four');
    expect(await readLinesBefore(path, to, 1024, 30)).toBe('one\ntwo\nthree\n');
    expect(await readLinesBefore(path, to, 1024, 2)).toBe('two\nthree\n');
    expect(await readLinesBefore(path, to, 1024, 0)).toBe('');
    expect(await readLinesBefore(path, 0, 1024, 30)).toBe('');
  });

  it('drops a line it would read only in part, and a line longer than it may read', async () => {
    const text = 'first line here\nsecond\nthird\n';
    const path = file(text);
    // 12 bytes before the end start inside "second": only "third" is whole
    expect(await readLinesBefore(path, text.length, 12, 30)).toBe('third\n');
    const long = file(`${'x'.repeat(5000)}\nnext\n`);
    expect(await readLinesBefore(long, 5001, 100, 30)).toBe('');
  });

  it('reads a last line without its newline (a finished file)', async () => {
    const text = 'a\nb\n{"done":true}';
    expect(await readLinesBefore(file(text), text.length, 1024, 2)).toBe('b\n{"done":true}');
  });
});

describe('readFirstLines', () => {
  it('gives the whole lines within the first bytes, reading a long first line to its end', async () => {
    expect(await readFirstLines(file('one\ntwo\nthree\n'), 9)).toBe('one\ntwo\n');
    const long = `${'x'.repeat(50)}\n${'next line\n'.repeat(5)}`;
    expect(await readFirstLines(file(long), 16)).toBe(`${'x'.repeat(50)}\nnext line\n`);
    // no newline at all, or nothing: what there is
    expect(await readFirstLines(file('{"a":1}'), 4)).toBe('{"a":1}');
    expect(await readFirstLines(file(''), 4)).toBe('');
    // a first line past the limit: what was read up to it
    expect(await readFirstLines(file('y'.repeat(100)), 16, 32)).toBe('y'.repeat(32));
  });
});

describe('a transcript that cannot be read', () => {
  it('says why and what to check', async () => {
    const missing = join(tempDir('lines-missing-'), 'gone.jsonl');
    await expect(readFirstLines(missing, 1024)).rejects.toThrow(
      `cannot read the transcript ${missing}: no such file; check the path (Claude Code keeps transcripts under ~/.claude/projects/, Codex under ~/.codex/sessions/)`,
    );
    await expect(readFirstLines(tempDir('lines-dir-'), 1024)).rejects.toThrow(/is not a file/);
  });
});
