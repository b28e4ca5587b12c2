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
    // after a request of the user, the same words are its answer
    await s.record(ref, { kind: 'request', text: 'and the docs?', at: '2026-01-01T13:00:00.000Z' });
    await say('last_message', 'Done.', '2026-01-01T13:00:05.000Z');
    expect((await summaries())?.last_message?.timestamp).toBe('2026-01-01T13:00:05.000Z');
    // the hook's copy that says the turn ended on them is recorded once more, the transcript's again is not
    await s.record(ref, {
      kind: 'summary',
      summary: { kind: 'last_message', text: 'Done.', source: 'claude-code:hook', turn_ended: true },
      at: '2026-01-01T13:00:06.000Z',
    });
    expect((await summaries())?.last_message).toMatchObject({ turn_ended: true });
    await say('last_message', 'Done.', '2026-01-01T13:00:07.000Z');
    expect((await summaries())?.last_message?.timestamp).toBe('2026-01-01T13:00:06.000Z');
    await s.store.close();
  });
});

describe('recording a compaction summary', () => {
  it("keeps PostCompact's summary once when the transcript's line wraps it, and a new compaction after more work", async () => {
    const s = makeService();
    const w = await s.create({ title: 't', tasks: [{ id: 'A', title: 'a' }], worktree: tempDir() });
    const ref = { workflowId: w.id };
    const say = (kind: 'last_message' | 'compaction', text: string, at: string, source = 'claude-code') =>
      s.record(ref, { kind: 'summary', summary: { kind, text, source }, at });
    const kept = async () =>
      (await s.store.listRecords(w.id, 'summary')).filter(
        (r) => (r.data as { kind: string }).kind === 'compaction',
      );
    const summary = 'Primary Request: add a CSV exporter.\nCurrent Work: the writer.';
    await say('compaction', summary, '2026-01-01T10:00:00.000Z', 'claude-code:compact_summary');
    await say(
      'compaction',
      `This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n${summary}`,
      '2026-01-01T10:00:01.000Z',
    );
    expect(await kept()).toHaveLength(1);
    // the agent works on, and compacts again with the same opening: another compaction
    await say('last_message', 'The writer is done.', '2026-01-01T11:00:00.000Z');
    await say('compaction', summary, '2026-01-01T12:00:00.000Z', 'claude-code:compact_summary');
    expect(await kept()).toHaveLength(2);
    await s.store.close();
  });

  it('takes a last message said in the same millisecond as the compaction as said after it', async () => {
    // `baton run` reads both from the agent's output at its end, one after the other: on a fast machine they carry
    // the same time, and the next session's compaction with the same words is still a new one
    const s = makeService();
    const w = await s.create({ title: 't', tasks: [{ id: 'A', title: 'a' }], worktree: tempDir() });
    const ref = { workflowId: w.id };
    const say = (kind: 'last_message' | 'compaction', text: string, at: string) =>
      s.record(ref, { kind: 'summary', summary: { kind, text, source: 'claude-code:baton run' }, at });
    for (const at of ['2026-01-01T10:00:00.000Z', '2026-01-01T11:00:00.000Z']) {
      await say('compaction', 'Current Work: the schema.', at);
      await say('last_message', 'Done.', at);
    }
    const kinds = (await s.store.listRecords(w.id, 'summary')).map((r) => (r.data as { kind: string }).kind);
    expect(kinds).toEqual(['compaction', 'last_message', 'compaction', 'last_message']);
    await s.store.close();
  });
});
