import './vitest-globals.js';
import {
  deltaChannelHistoryTests,
  validate,
  type CheckpointSaverTestInitializer,
} from '@langchain/langgraph-checkpoint-validation';
import { BatonSaver } from '../../src/integrations/langgraph/index.js';
import { freshPostgresUrl } from '../helpers/postgres.js';

let saver: BatonSaver;

const initializer: CheckpointSaverTestInitializer<BatonSaver> = {
  checkpointerName: 'BatonSaver (PostgreSQL)',
  beforeAllTimeout: 120_000,
  beforeAll: async () => {
    saver = await BatonSaver.fromConnString(await freshPostgresUrl('baton_lg'), { durability: 'normal' });
  },
  createCheckpointer: async () => {
    await (await saver.tables).clear();
    return new BatonSaver(saver.tables);
  },
  afterAll: () => saver.end(),
};

// the whole official suite, plus its opt-in walk of delta channel history
validate(initializer);
deltaChannelHistoryTests(initializer);
