import { describe, expect, it } from 'vitest';
import { branchInWords } from '../../src/core/branch-change.js';
import * as web from '../../web/src/api/branch-words.js';

describe("the dashboard's words for a branch", () => {
  it('are the ones the CLI says: a detached HEAD in words, a branch by its name', () => {
    for (const branch of ['(detached)', 'HEAD', 'main', 'codex/fix-no-commit-detached-head'])
      expect(web.branchInWords(branch)).toBe(branchInWords(branch));
    expect(web.branchInWords('(detached)')).toBe('a detached HEAD');
  });
});
