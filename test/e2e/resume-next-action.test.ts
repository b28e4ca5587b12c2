import { describe, expect, it } from 'vitest';
import { LocalClient } from '../../src/client/local-client.js';
import { importTranscriptFile } from '../../src/integrations/transcripts/import-file.js';
import { corpusPath } from '../helpers/corpus.js';
import { makeRepo } from '../helpers/git-repo.js';
import { makeService } from '../helpers/service.js';

/** A Codex session without a task list: asked to commit a hello-world file, it did, and said so. */
const ANSWERED = 'codex/TrustIntern-TrustIntern/0/full.jsonl';

describe('the resume report of a workflow without tasks', () => {
  it('says the next action its briefing says (What to Do Next), not a second one of its own', async () => {
    const service = makeService();
    const client = new LocalClient(service);
    const repo = makeRepo();
    await client.create({ title: 'hello', tasks: [], cwd: repo });
    await importTranscriptFile(client, { cwd: repo }, corpusPath(ANSWERED), 'codex');
    await client.pause({ cwd: repo }, {});
    const r = await client.resume({ cwd: repo });
    if (!('report' in r)) throw new Error(`no resume: ${JSON.stringify(r)}`);
    const next = /### What to Do Next\n(.+)/.exec(r.context)?.[1];
    // the agent's last message answered the request: the next session asks the user, in both
    expect(next).toMatch(
      /^No task is recorded, and the agent's last message .* ask the user what comes next\./,
    );
    expect(r.report.next_action).toBe(next);
    await service.store.close();
  });
});
