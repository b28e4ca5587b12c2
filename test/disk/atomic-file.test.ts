import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFilesAtomic } from '../../src/disk/atomic-file.js';
import { tempDir } from '../helpers/git-repo.js';

describe('writeFilesAtomic', () => {
  it('writes every file of a batch, in several folders, leaving no temp file', () => {
    const dir = tempDir();
    writeFilesAtomic([
      { path: join(dir, 'a.json'), text: 'A\n' },
      { path: join(dir, 'sub', 'b.json'), text: 'B\n' },
      { path: join(dir, 'sub', 'c.json'), text: 'C\n' },
    ]);
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe('A\n');
    expect(readFileSync(join(dir, 'sub', 'b.json'), 'utf8')).toBe('B\n');
    expect(readdirSync(join(dir, 'sub')).sort()).toEqual(['b.json', 'c.json']);
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'sub']);
  });

  it('leaves a file that holds its text already as it is, and replaces one that does not', () => {
    const dir = tempDir();
    const same = join(dir, 'same.json');
    const other = join(dir, 'other.json');
    writeFileSync(same, 'kept\n');
    writeFileSync(other, 'old\n');
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(same, past, past);
    utimesSync(other, past, past);
    const before = statSync(same);
    writeFilesAtomic([
      { path: same, text: 'kept\n' },
      { path: other, text: 'new\n' },
    ]);
    const after = statSync(same);
    // not written again: the same file (a replacement is a new inode), its time untouched
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(readFileSync(other, 'utf8')).toBe('new\n');
    expect(statSync(other).mtimeMs).toBeGreaterThan(past.getTime());
  });

  it('when a file cannot be replaced, throws and leaves no temp file behind', () => {
    const dir = tempDir();
    // a folder where a file should go: the rename over it fails
    mkdirSync(join(dir, 'b.json'));
    expect(() =>
      writeFilesAtomic([
        { path: join(dir, 'a.json'), text: 'A\n' },
        { path: join(dir, 'b.json'), text: 'B\n' },
        { path: join(dir, 'c.json'), text: 'C\n' },
      ]),
    ).toThrow();
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
