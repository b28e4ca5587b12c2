import { describe, expect, it } from 'vitest';
import { importedSession } from '../helpers/imported-session.js';

describe('the resume report of a workflow without tasks left', () => {
  it.each([
    // a Codex session without a task list: asked to commit a hello-world file, it did, and said so
    [
      'without tasks',
      'codex/TrustIntern-TrustIntern/0/full.jsonl',
      'codex',
      /^No task is recorded, and the agent's last message .* ask the user what comes next\./,
    ],
    // a Claude Code session whose five tasks are done, then pushed and opened a pull request as asked
    [
      'with every task done',
      'claude-code/entire-cli/e5/8c50537669/0/full.jsonl',
      'claude-code',
      /^Every task is done; the latest request .* ask the user what comes next\./,
    ],
  ] as const)(
    'says the next action its briefing says (What to Do Next), not a second one of its own (%s)',
    async (_, transcript, agent, says) => {
      const { service, client, repo } = await importedSession(transcript, agent, 'work');
      await client.pause({ cwd: repo }, {});
      const r = await client.resume({ cwd: repo });
      if (!('report' in r)) throw new Error(`no resume: ${JSON.stringify(r)}`);
      const next = /### What to Do Next\n(.+)/.exec(r.context)?.[1];
      // the agent's last message answered the request: the next session asks the user, in both (not "prepare the PR")
      expect(next).toMatch(says);
      expect(r.report.next_action).toBe(next);
      await service.store.close();
    },
  );
});
