import { describe, expect, it } from 'vitest';
import { BATON_ACTOR } from '../../src/core/actors.js';
import type { RecordInput } from '../../src/service/index.js';
import { makeRepo } from '../helpers/git-repo.js';
import { makeService } from '../helpers/service.js';

/** A decision to record (each text once: the same one twice is one record). */
const decision = (description = 'Keep SQLite'): RecordInput => ({
  kind: 'decision',
  decision: {
    decision_type: 'approach',
    description,
    rationale: 'one file',
    alternatives_considered: null,
    task_id: null,
  },
});
const marker = (format: string) => ({
  format,
  transcript_session_id: `s-${format}`,
  path: `/tmp/${format}.jsonl`,
  through_line: 1,
});

/** The actors of the events each step appended, in order (a real SQLite store). */
async function setup(actor?: string) {
  const svc = makeService(undefined, actor ? { actor } : {});
  const wf = await svc.create({
    title: 'who',
    tasks: [{ id: 'T1', title: 'Work', deps: [] }],
    cwd: makeRepo(),
  });
  let seen = (await svc.store.readEvents(wf.id)).length;
  const appended = async () => {
    const events = await svc.store.readEvents(wf.id);
    const fresh = events.slice(seen).map((e) => `${e.type} ${e.actor}`);
    seen = events.length;
    return fresh;
  };
  return { svc, ref: { workflowId: wf.id }, appended };
}

describe("records read from an agent's words are the agent's, whoever reads them", () => {
  it("a transcript's records and its import mark act as the agent its format names, not the reader", async () => {
    const { svc, ref, appended } = await setup();
    await svc.recordBatch(ref, [decision()], marker('codex-rollout'));
    // the first import starts the workflow: the agent's work began
    expect(await appended()).toEqual([
      'decision.recorded codex',
      'workflow.started codex',
      'transcript.imported codex',
    ]);
    await svc.recordBatch(ref, [decision('B')], marker('claude-code-stream-json'));
    expect(await appended()).toEqual(['decision.recorded claude-code', 'transcript.imported claude-code']);
  });

  it('the agent wins over a named actor and over the work the reader is part of (a server driving agents)', async () => {
    const { svc, ref, appended } = await setup('orchestrator');
    await svc.runner.actingAs(BATON_ACTOR, () =>
      svc.recordBatch(ref, [decision()], marker('claude-code-transcript')),
    );
    expect(await appended()).toEqual([
      'decision.recorded claude-code',
      'workflow.started claude-code',
      'transcript.imported claude-code',
    ]);
  });

  it("a run's output is its agent's by the profile's name, as its live output is", async () => {
    const { svc, ref, appended } = await setup();
    await svc.runner.actingAs(BATON_ACTOR, () =>
      svc.recordBatch(ref, [decision()], undefined, 'claude-opus'),
    );
    expect(await appended()).toEqual(['decision.recorded claude-opus']);
  });

  it("records no agent wrote (a bulk writer's, an unknown format's) stay the reader's", async () => {
    const { svc, ref, appended } = await setup();
    await svc.recordBatch(ref, [decision()]);
    expect(await appended()).toEqual(['decision.recorded user']);
    await svc.recordBatch(ref, [decision('C')], marker('gemini-session'));
    expect(await appended()).toEqual([
      'decision.recorded user',
      'workflow.started user',
      'transcript.imported user',
    ]);
  });
});
