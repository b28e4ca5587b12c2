export * from './agent-prompt.js';
export * from './classify-side-effect.js';
export * from './usage-limit.js';
export * from './unreported-commits.js';
export * from './run-driven.js';
export { clockAt, clockWords } from './wall-clock.js';
export * from './task-produced.js';
export * from './tests-left-failing.js';
export * from './retry-wait.js';
