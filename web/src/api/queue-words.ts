/**
 * The dashboard's copy of who queued work waits for (src/core/queue/work-reach.ts: takersText): web/ may import only
 * types from src/, so the words are restated here, and test/lint/web-queue-words.test.ts checks them against the
 * core's, so the banner and `baton status` say the same.
 */
export const takersText = (takers: number): string =>
  `${takers === 1 ? 'the worker' : `one of the ${takers} workers`} that can take it`;
