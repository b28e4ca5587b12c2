export * from './events.js';
export * from './git-state.js';
export * from './records.js';
export * from './snapshot.js';
export * from './state.js';
export * from './workflow.js';
export * from './runtime.js';
export * from './interrupt-recovery.js';
