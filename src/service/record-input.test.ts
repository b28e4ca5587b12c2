import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/git-repo.js';
import { makeService } from '../../test/helpers/service.js';

describe("recording the agent's last message", () => {
  it('writes the same words once, but again after a compaction summary came (they are the newer state then)', async () => {
    const s = makeService();
    const w = await s.create({ title: 't', tasks: [{ id: 'A', title: 'a' }], worktree: tempDir() });
    const ref = { workflowId: w.id };
    const say = (kind: 'last_message' | 'compaction', text: string, at: string) =>
      s.record(ref, { kind: 'summary', summary: { kind, text, source: 'claude-code' }, at });
    const summaries = async () => (await s.store.loadState(w.id))?.summaries;
    await say('last_message', 'Done.', '2026-01-01T10:00:00.000Z');
    await say('last_message', 'Done. ', '2026-01-01T10:00:05.000Z');
    expect((await summaries())?.last_message?.timestamp).toBe('2026-01-01T10:00:00.000Z');
    await say(
      'compaction',
      'This session is being continued from a previous conversation...',
      '2026-01-01T11:00:00.000Z',
    );
    await say('last_message', 'Done.', '2026-01-01T12:00:00.000Z');
    expect((await summaries())?.last_message?.timestamp).toBe('2026-01-01T12:00:00.000Z');
    await s.store.close();
  });
});
