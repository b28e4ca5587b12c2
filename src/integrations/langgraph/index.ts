import { PACKAGE_NAME } from '../../config/package-info.js';
import { BatonError } from '../../core/index.js';

/**
 * LangGraph's own packages are peers of this entry, not dependencies of Baton: the saver must extend the very
 * `BaseCheckpointSaver` the graph uses (a second copy breaks `instanceof` checks such as `BaseMessage`'s), and a CLI
 * user who never imports this entry does not install them. They are checked before the saver's module is loaded, so
 * a missing one is named with the command that installs it instead of a bare module-resolution error.
 */
export const LANGGRAPH_PEERS = ['@langchain/core', '@langchain/langgraph-checkpoint'] as const;

function installed(name: string): boolean {
  try {
    import.meta.resolve(name);
    return true;
  } catch {
    return false;
  }
}

const missing = LANGGRAPH_PEERS.filter((name) => !installed(name));
if (missing.length > 0) {
  throw new BatonError(
    'unavailable',
    `${PACKAGE_NAME}/langgraph needs ${missing.join(' and ')}, which ${missing.length > 1 ? 'are' : 'is'} not installed: ` +
      `run \`npm install ${LANGGRAPH_PEERS.join(' ')}\` in your project (the graph and the saver share one copy of each)`,
    { missing },
  );
}

const saver = await import('./baton-saver.js');

/** The LangGraph checkpointer on Baton's database: see docs/langgraph.md. */
export const BatonSaver = saver.BatonSaver;
export type BatonSaver = import('./baton-saver.js').BatonSaver;
export type { BatonSaverOptions } from './baton-saver.js';
