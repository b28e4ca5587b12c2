import { describe, expect, it } from 'vitest';
import { importedSession } from '../helpers/imported-session.js';

/**
 * Real sessions (of the tuning split) whose last message a 400-token briefing used to leave out while it kept lines
 * that only count (`2 files created, edited or deleted`, `tests pass`) and every push and pull request: each with how
 * the agent's last message opens.
 */
const sessions = [
  [
    'claude-code/entire-cli/e5/8c50537669/0/full.jsonl',
    'PR created: https://github.com/entireio/cli/pull/58',
  ],
  [
    'claude-code/entire-cli/70/33bba9319c/0/full.jsonl',
    'Done! Fixed the integration tests by adding a `CountSessionStateFiles()`',
  ],
] as const;

describe('the Last State of a briefing at a small budget', () => {
  it.each(sessions)(
    '%s: is kept, trimmed to fit, before the lines that only count and the pushes',
    async (transcript, opening) => {
      const { service, client, repo } = await importedSession(transcript);
      for (const budget of [400, 800, 1500, 4000]) {
        const c = await client.context({ cwd: repo }, budget);
        const where = `at ${budget}:\n${c.markdown}`;
        expect(c.over_budget, where).toBe(false);
        expect(c.tokens, where).toBeLessThanOrEqual(budget);
        const state = c.markdown.split("### Last State (the agent's last message, ")[1]?.split('\n### ')[0];
        expect(state, where).toBeDefined();
        // at the least budget the Last State gives way word by word to a token or two of the stamp's random ids: its
        // first five words are what says it was kept
        const head = budget <= 400 ? opening.split(' ').slice(0, 5).join(' ') : opening;
        expect(state!.split('\n').slice(1).join('\n'), where).toContain(head);
      }
      await service.store.close();
    },
  );
});
