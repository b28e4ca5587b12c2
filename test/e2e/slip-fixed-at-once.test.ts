import { describe, expect, it } from 'vitest';
import { LocalClient } from '../../src/client/local-client.js';
import { importTranscriptFile } from '../../src/integrations/transcripts/import-file.js';
import { corpusPath } from '../helpers/corpus.js';
import { makeRepo } from '../helpers/git-repo.js';
import { makeService } from '../helpers/service.js';

/**
 * A real Codex session (of the tuning split) whose agent slipped twice and fixed each at once: `spawn_agent` refused
 * a full-history fork with an agent type, `wait_agent` a timeout under 10,000 ms, each retried right after with the
 * argument asked for. A refused follow-up, retried only after other calls, is a failure that took more.
 */
const lineage = 'codex/entirecontext/7H/01M05W0DK3S06FP7YAJHNPXG7H/3/full.jsonl';

describe('a slip fixed at once (a failing call, then the same call succeeding right after it)', () => {
  it('is left out of the briefing at every budget, and kept in the store', async () => {
    const service = makeService();
    const client = new LocalClient(service);
    const repo = makeRepo();
    const ref = { cwd: repo };
    await client.create({ title: 'imported', tasks: [], cwd: repo });
    await importTranscriptFile(client, ref, corpusPath(lineage), 'codex');
    for (const budget of [400, 800, 1500, 4000]) {
      const c = await client.context(ref, budget);
      expect(c.tokens).toBeLessThanOrEqual(budget);
      expect(c.markdown, `at ${budget}`).not.toContain(
        'Full-history forked agents inherit the parent agent type',
      );
      expect(c.markdown, `at ${budget}`).not.toContain('timeout_ms must be at least 10000');
    }
    // the follow-up refused at the thread limit, retried after other calls, is still said where there is room
    const whole = await client.context(ref, 100_000);
    expect(whole.markdown).toContain('followup_task: collab tool failed: agent thread limit reached [fixed]');
    const errors = (await client.details(ref, null, 'errors')) as {
      error_message: string;
      resolution_notes: string;
    }[];
    expect(errors.map((e) => [e.error_message, e.resolution_notes])).toEqual(
      expect.arrayContaining([
        [
          expect.stringContaining('Full-history forked agents inherit the parent agent type'),
          expect.stringMatching(/^the same call succeeded right after it \(transcript line \d+\)$/),
        ],
        [
          'wait_agent: timeout_ms must be at least 10000',
          expect.stringMatching(/^the same call succeeded right after it \(transcript line \d+\)$/),
        ],
      ]),
    );
    await service.store.close();
  });
});
