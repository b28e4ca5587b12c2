import { describe, expect, it } from 'vitest';
import { importedSession } from '../helpers/imported-session.js';

/**
 * A real session (of the tuning split) that committed twice, pushed and opened a pull request, its last message the
 * pull request's address: a 400-token briefing used to keep both commits' subjects at length while the push and the
 * pull request became "2 more pushes and pull requests".
 */
const DELIVERED = 'claude-code/entire-cli/e5/8c50537669/0/full.jsonl';

describe('what the work delivered, at a small budget', () => {
  it('keeps the push, the pull request and the last message before the length of the commit subjects', async () => {
    const { service, client, repo } = await importedSession(DELIVERED);
    const c = await client.context({ cwd: repo }, 400);
    const where = c.markdown;
    expect(c.over_budget, where).toBe(false);
    const done = c.markdown.split('### Already Done (do not redo)\n')[1]?.split('\n### ')[0] ?? '';
    expect(done, where).toContain('  - pushed fix-resume-test-hanging\n');
    expect(done, where).toContain('  - pull request https://github.com/entireio/cli/pull/58\n');
    expect(done, where).not.toContain('more pushes and pull requests');
    // every commit by its hash all the same
    expect(done, where).toContain('commit a7129d7');
    expect(done, where).toContain('commit de5656b');
    expect(c.markdown, where).toMatch(
      /### Last State [^\n]*\nPR created: https:\/\/github.com\/entireio\/cli\/pull\/58\n/,
    );
    await service.store.close();
  });
});
