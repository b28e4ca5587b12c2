import './vitest-globals.js';
import { join } from 'node:path';
import {
  deltaChannelHistoryTests,
  validate,
  type CheckpointSaverTestInitializer,
} from '@langchain/langgraph-checkpoint-validation';
import { BatonSaver } from '../../src/integrations/langgraph/index.js';
import { tempDir } from '../helpers/git-repo.js';

let saver: BatonSaver;

const initializer: CheckpointSaverTestInitializer<BatonSaver> = {
  checkpointerName: 'BatonSaver (SQLite)',
  beforeAll: async () => {
    saver = await BatonSaver.fromConnString(join(tempDir('baton-lg-'), 'baton.db'), { durability: 'normal' });
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
