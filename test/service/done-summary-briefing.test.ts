import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { makeService, sqliteStore } from '../helpers/service.js';

const tasks = [
  { id: 'Y1', title: 'one' },
  { id: 'Y2', title: 'two', deps: ['Y1'] },
];
const summary =
  'wrote the tokenizer in src/lex.ts with its tests in test/lex.test.ts; the grammar in docs/grammar.md is final, do not regenerate it';

/** Y1 completed with the agent's summary, and a decision recorded: the briefing for the session that takes Y2. */
async function oneDone() {
  const svc = makeService(sqliteStore());
  const wf = await svc.create({ title: 'T', tasks, worktree: makeRepo() });
  const ref = { workflowId: wf.id };
  await svc.startTask(ref, 'Y1');
  await svc.record(ref, {
    kind: 'decision',
    decision: {
      decision_type: 'approach',
      description: 'Hand-written lexer',
      rationale: 'the generated one was slow',
      alternatives_considered: null,
      task_id: 'Y1',
    },
  });
  await svc.completeTask(ref, 'Y1', summary);
  return { svc, ref };
}

const y1Line = (markdown: string) => markdown.split('\n').find((l) => l.startsWith('  [x] Y1 ')) ?? '';
/** The briefing without its stamp (its hash) and without Y1's line in Plan Status. */
const rest = (markdown: string) =>
  markdown
    .split('\n')
    .slice(1)
    .filter((l) => !l.startsWith('  [x] Y1 '))
    .join('\n');

describe("a completed task's summary in the briefing", () => {
  it('is shown beside the task in Plan Status, so the next session does not redo it', async () => {
    const { svc, ref } = await oneDone();
    const c = await svc.queries.context(await svc.resolve(ref));
    expect(y1Line(c.markdown)).toBe(`  [x] Y1 one (done: ${summary})`);
    expect(c.json.completed_tasks).toEqual([{ id: 'Y1', title: 'one', status: 'done', summary }]);
    await svc.close();
  });

  it('is the first part to give way when the budget is short: shortened, then gone, before anything else', async () => {
    const { svc, ref } = await oneDone();
    const s = await svc.resolve(ref);
    const whole = await svc.queries.context(s);
    // budget by budget, a token less each time, until something besides the summary gives way
    const lines: string[] = [];
    for (let budget = whole.tokens - 1; ; budget--) {
      const c = await svc.queries.context(s, budget);
      expect(c.over_budget).toBe(false);
      if (rest(c.markdown) !== rest(whole.markdown)) break;
      lines.push(y1Line(c.markdown));
    }
    expect(lines[0]).toMatch(/^ {2}\[x\] Y1 one \(done: wrote the tokenizer .*…\)$/);
    expect(lines.at(-1)).toBe('  [x] Y1 one');
    await svc.close();
  });
});
