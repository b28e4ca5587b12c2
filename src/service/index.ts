export * from './baton-service.js';
export * from './maintenance.js';
export * from './ports.js';
export * from './queries.js';
export * from './resolve-workflow.js';
export * from './resumer.js';
export { liveStateOf, LiveStates } from './live-states.js';
export * from './session-status.js';
