import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalClient } from '../../src/client/local-client.js';
import { importTranscriptFile } from '../../src/integrations/transcripts/import-file.js';
import { corpusPath } from '../helpers/corpus.js';
import { codexHook } from '../helpers/codex-conversation.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { hookWorkspace } from '../helpers/hook-workspace.js';
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

describe('a slip corrected at once (a failing call, then the failed one corrected succeeding right after it)', () => {
  it('is left out of the briefing at every budget, kept in the store; a failure that took more is still said', async () => {
    // a real Codex session (of the tuning split): `python` and `pkl` not found, each run another way by the next call
    const service = makeService();
    const client = new LocalClient(service);
    const repo = makeRepo();
    const ref = { cwd: repo };
    await client.create({ title: 'imported', tasks: [], cwd: repo });
    await importTranscriptFile(client, ref, corpusPath('codex/hk/e5/cb0813e003/0/full.jsonl'), 'codex');
    for (const budget of [400, 800, 1500, 4000, 100_000]) {
      const c = await client.context(ref, budget);
      expect(c.markdown, `at ${budget}`).not.toContain('command not found: python');
      expect(c.markdown, `at ${budget}`).not.toContain('sh: pkl: command not found');
    }
    // the lint failure the agent fixed by editing the code, turns later, is still said
    expect((await client.context(ref, 100_000)).markdown).toContain(
      'trailing semicolon in macro used in expression position [fixed]',
    );
    const errors = (await client.details(ref, null, 'errors')) as {
      error_message: string;
      resolution: string;
      resolution_notes: string;
    }[];
    expect(errors.map((e) => [e.error_message, e.resolution, e.resolution_notes])).toEqual(
      expect.arrayContaining([
        [
          expect.stringContaining('zsh:1: command not found: python'),
          'workaround',
          expect.stringMatching(
            /^a corrected call succeeded right after it \(transcript line 225\): `python3 /,
          ),
        ],
        [
          expect.stringContaining('sh: pkl: command not found'),
          'workaround',
          expect.stringMatching(
            /^a corrected call succeeded right after it \(transcript line 243\): `mise exec -- pkl/,
          ),
        ],
      ]),
    );
    await service.store.close();
  });
});

describe('an edit refused until its file is read, made again once the agent had read it', () => {
  it('is left out of the briefing at every budget, and kept in the store with what fixed it', async () => {
    // a real Claude Code session (of the tuning split): Edit refused ("File has not been read yet"), a Read of the
    // file, the same Edit succeeding
    const aidev =
      'claude-code/tomochang-aidev/.entire/metadata/c5f4a9cc-124d-4ca2-a57a-a111f631f14c/full.jsonl';
    const service = makeService();
    const client = new LocalClient(service);
    const repo = makeRepo();
    const ref = { cwd: repo };
    await client.create({ title: 'imported', tasks: [], cwd: repo });
    await importTranscriptFile(client, ref, corpusPath(aidev), 'claude-code');
    for (const budget of [400, 800, 1500, 4000, 100_000])
      expect((await client.context(ref, budget)).markdown, `at ${budget}`).not.toContain(
        'File has not been read yet',
      );
    const errors = (await client.details(ref, null, 'errors')) as {
      error_message: string;
      resolution: string;
      resolution_notes: string;
    }[];
    expect(errors.map((e) => [e.error_message, e.resolution, e.resolution_notes])).toEqual([
      [
        expect.stringContaining('File has not been read yet'),
        'fixed',
        expect.stringMatching(
          /^the same call succeeded once the agent had read the file \(transcript line \d+\)$/,
        ),
      ],
    ]);
    await service.store.close();
  });
});

describe('a slip fixed at once, read turn by turn by the hooks', () => {
  it('is judged as one import of the whole transcript judges it when the failure and its fix land in different reads', async () => {
    const { repo, baton } = hookWorkspace();
    await baton(['create', '--title', 'Review', '--task', 'A:Review the lineage feature']);
    const lines = readFileSync(corpusPath(lineage), 'utf8').split('\n').filter(Boolean);
    const rollout = join(tempDir('baton-tr-'), 'rollout-lineage.jsonl');
    const codex = codexHook(baton, { repo, id: '01a00ba5-53c1-7913-9b92-78d33ccae73c', transcript: rollout });
    // the rollout grows between Stops: the first two come right after a refused call (lines 44, 114), before its retry
    for (const upTo of [44, 114, lines.length]) {
      const written = readFileSync(rollout, { encoding: 'utf8', flag: 'a+' })
        .split('\n')
        .filter(Boolean).length;
      appendFileSync(rollout, `${lines.slice(written, upTo).join('\n')}\n`);
      expect((await codex('Stop', { stop_hook_active: false })).code).toBe(0);
    }
    const errors = (await baton(['details', 'errors', '--json'])).json<
      { error_message: string; resolution: string; resolution_notes: string | null }[]
    >();
    expect(errors.map((e) => [e.error_message, e.resolution, e.resolution_notes])).toEqual(
      expect.arrayContaining([
        [
          expect.stringContaining('Full-history forked agents'),
          'fixed',
          'the same call succeeded right after it (transcript line 49)',
        ],
        [
          'wait_agent: timeout_ms must be at least 10000',
          'fixed',
          'the same call succeeded right after it (transcript line 118)',
        ],
      ]),
    );
    const context = (await baton(['context', '--budget', '100000'])).stdout;
    // a failure that took more than a retry is still said
    expect(context).toContain('followup_task: collab tool failed: agent thread limit reached [fixed]');
    expect(context).not.toContain('Full-history forked agents inherit the parent agent type');
    expect(context).not.toContain('timeout_ms must be at least 10000');
  });
});
