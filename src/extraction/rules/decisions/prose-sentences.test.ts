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

  it("end where a list's item ran into the next thought without stop or space, not inside camelCase", () => {
    // entire-cli e5/8c50537669, line 23: a thinking block's list item glued to what the agent thought next
    const text =
      'Update the tests to use the new helpersBut actually, looking at this more carefully, `RunResumeInteractive` is resume-specific, so it makes sense to keep it as a thin wrapper.';
    expect(sentences(text).map((s) => s.text)).toEqual([
      'Update the tests to use the new helpers',
      'But actually, looking at this more carefully, `RunResumeInteractive` is resume-specific, so it makes sense to keep it as a thin wrapper.',
    ]);
    expect(sentences('Call getButton and isHmmValid before the render.').map((s) => s.text)).toEqual([
      'Call getButton and isHmmValid before the render.',
    ]);
  });
});
