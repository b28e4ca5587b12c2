import { join } from 'node:path';
import { AIMessage, BaseMessage, HumanMessage } from '@langchain/core/messages';
import { Annotation, END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { emptyCheckpoint, uuid6 } from '@langchain/langgraph-checkpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatonError } from '../../src/core/index.js';
import { BatonSaver } from '../../src/integrations/langgraph/index.js';
import { tempDir } from '../helpers/git-repo.js';
import { freshPostgresUrl } from '../helpers/postgres.js';

const backends = {
  sqlite: async () => join(tempDir('baton-lg-'), 'baton.db'),
  postgres: () => freshPostgresUrl('baton_lg'),
};

const State = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  count: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
});

/** One node that appends a line and bumps the counter: a state that grows at every step. */
const counter = (saver: BatonSaver) =>
  new StateGraph(State)
    .addNode('step', (s) => ({ log: [`line ${s.count} ${'x'.repeat(200)}`], count: s.count + 1 }))
    .addEdge(START, 'step')
    .addEdge('step', END)
    .compile({ checkpointer: saver });

for (const [name, database] of Object.entries(backends)) {
  describe(`BatonSaver on ${name}`, () => {
    let saver: BatonSaver;
    beforeAll(async () => {
      saver = await BatonSaver.fromConnString(await database(), { durability: 'normal' });
    });
    afterAll(() => saver.end());

    it('reads back every checkpoint of a growing state stored as deltas', async () => {
      const app = counter(saver);
      const config = { configurable: { thread_id: 'grow' } };
      for (let i = 0; i < 60; i++) await app.invoke({}, config);
      const state = await app.getState(config);
      expect(state.values.count).toBe(60);
      expect(state.values.log).toHaveLength(60);
      // every checkpoint in the history still has the log it had then (each rebuilt from its delta chain)
      const history = [];
      for await (const s of app.getStateHistory(config)) history.push(s);
      for (const s of history) expect(s.values.log).toHaveLength(s.values.count ?? 0);
      // a fresh saver (no cache of recent values) reads the same
      const fresh = new BatonSaver(saver.tables);
      expect((await counter(fresh).getState(config)).values).toEqual(state.values);
    });

    it('lists LangChain messages revived as their classes, no two checkpoints sharing one', async () => {
      const app = new StateGraph(MessagesAnnotation)
        .addNode('reply', (s) => ({ messages: [new AIMessage(`reply ${s.messages.length} },{ é 😀`)] }))
        .addEdge(START, 'reply')
        .addEdge('reply', END)
        .compile({ checkpointer: saver });
      const config = { configurable: { thread_id: 'messages' } };
      for (let i = 0; i < 20; i++) await app.invoke({ messages: [new HumanMessage(`ask ${i}`)] }, config);
      const history = [];
      for await (const s of app.getStateHistory(config)) history.push(s.values.messages as BaseMessage[]);
      const full = history.filter((m) => m.length === 40);
      expect(full.length).toBeGreaterThan(0);
      expect(full[0]!.every((m) => m instanceof BaseMessage)).toBe(true);
      expect(full[0]!.map((m) => m.content)).toContain('reply 39 },{ é 😀');
      // the first message of every checkpoint is its own object
      const firsts = history.filter((m) => m.length).map((m) => m[0]!);
      expect(new Set(firsts).size).toBe(firsts.length);
      expect(firsts.every((m) => m.content === 'ask 0')).toBe(true);
    });

    it('keeps both branches apart after time travel (versions are unique across forks)', async () => {
      const app = counter(saver);
      const config = { configurable: { thread_id: 'fork' } };
      for (let i = 0; i < 3; i++) await app.invoke({}, config);
      const history = [];
      for await (const s of app.getStateHistory(config)) history.push(s);
      const older = history.find((s) => s.values.count === 1 && s.next.length === 0)!;
      // fork from the older checkpoint with a different log
      const forked = await app.updateState(older.config, { log: ['fork'], count: 10 });
      await app.invoke({}, forked);
      const fork = await app.getState({ configurable: { thread_id: 'fork' } });
      expect(fork.values.log.slice(-2)).toEqual(['fork', expect.stringMatching(/^line 10 /)]);
      expect(fork.values.log).toHaveLength(3);
      // the original branch's last checkpoint is unchanged
      const original = await app.getState(history[0]!.config);
      expect(original.values.count).toBe(3);
      expect(original.values.log).toHaveLength(3);
      expect(original.values.log).not.toContain('fork');
    });

    it('refuses a put without a thread_id with a BatonError naming it', async () => {
      const err = await saver
        .put({ configurable: {} }, emptyCheckpoint(), { source: 'input', step: -1, parents: {} }, {})
        .catch((e: unknown) => e);
      expect(BatonError.isInstance(err) && err.code === 'invalid_input').toBe(true);
      expect(String(err)).toMatch(/thread_id/);
      await expect(
        saver.putWrites({ configurable: { thread_id: 't' } }, [['a', 1]], uuid6(0)),
      ).rejects.toThrow(/checkpoint_id/);
    });
  });
}

describe('BatonSaver.fromConnString', () => {
  it('says what it needs when given nothing', async () => {
    expect(() => BatonSaver.fromConnString('')).toThrow(/SQLite file path or a postgres:\/\/ URL/);
  });

  it('reports an unreachable PostgreSQL as unavailable', async () => {
    const err = await BatonSaver.fromConnString('postgres://nobody:x@127.0.0.1:1/none')
      .setup()
      .catch((e: unknown) => e);
    expect(BatonError.isInstance(err) && err.code).toBe('unavailable');
  });
});
