/** Word-set similarity lives in core (the agent's task list matching needs it); extraction uses the same functions. */
export { dedupe, duplicateThreshold, similarity, words } from '../core/similarity.js';
