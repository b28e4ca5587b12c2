import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalClient } from '../../src/client/local-client.js';
import { importTranscriptFile } from '../../src/integrations/transcripts/import-file.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { makeService } from '../helpers/service.js';
import { claudeTool } from '../helpers/transcript-lines.js';

/**
 * entirecontext 39 (SOURCES.md: claude-code/entirecontext/39/01M0CV5D1MQXCRJBJXKV1JQ939): `gh pr merge 221 --squash
 * --auto` (line 36), and far later `gh pr view 221 --json state --jq '.state'` answering MERGED (line 934): read in two
 * imports, as the hooks read a session turn by turn.
 */
describe('a pull request queued to merge, seen merged in a later import', () => {
  it('is said merged only in the briefing: its latest known state', async () => {
    const service = makeService();
    const client = new LocalClient(service);
    const repo = makeRepo();
    const ref = { cwd: repo };
    await client.create({ title: 'imported', tasks: [], cwd: repo });
    const transcript = join(tempDir('baton-pr-'), 'session.jsonl');
    const write = (lines: string[]) => appendFileSync(transcript, `${lines.join('\n')}\n`);
    const asked = {
      type: 'user',
      sessionId: 'S1',
      message: { role: 'user', content: 'merge PR 221 when green' },
    };
    write([
      JSON.stringify(asked),
      ...claudeTool(
        'm1',
        'Bash',
        { command: 'gh pr merge 221 --squash --auto' },
        '(Bash completed with no output)',
      ),
    ]);
    await importTranscriptFile(client, ref, transcript, 'claude-code');
    const queued = await client.context(ref, 100_000);
    expect(queued.markdown).toContain('enabled auto-merge of PR #221');
    write(
      claudeTool(
        'v1',
        'Bash',
        { command: "gh pr view 221 --json state --jq '.state' 2>/dev/null" },
        'MERGED',
      ),
    );
    await importTranscriptFile(client, ref, transcript, 'claude-code');
    const merged = await client.context(ref, 100_000);
    expect(merged.markdown).toContain('  - merged PR #221\n');
    expect(merged.markdown).not.toContain('enabled auto-merge of PR #221');
    service.close();
  });
});
