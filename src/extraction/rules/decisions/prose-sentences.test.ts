import { describe, expect, it } from 'vitest';
import { sentences } from './prose-sentences.js';

describe('sentences', () => {
  it('end at a stop before a capital, but not at one inside inline code', () => {
    // spotter 258c7280, line 723
    const text =
      'The auto-generated migration uses `ALTER TABLE ... ADD` without a default, which will fail on SQLite if rows exist (NOT NULL without default). Let me rewrite it with proper SQLite handling.';
    expect(sentences(text).map((s) => s.text)).toEqual([
      'The auto-generated migration uses `ALTER TABLE ... ADD` without a default, which will fail on SQLite if rows exist (NOT NULL without default).',
      'Let me rewrite it with proper SQLite handling.',
    ]);
    expect(sentences('Run `make test. Then` ship. Done with it now.').map((s) => s.text)).toEqual([
      'Run `make test. Then` ship.',
      'Done with it now.',
    ]);
  });
});
