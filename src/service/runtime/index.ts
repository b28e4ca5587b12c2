export * from './agent-runner.js';
export * from './agent-session.js';
export * from './launch.js';
export * from './runtime-ports.js';
export * from './startup-recovery.js';
export * from './heartbeat-monitor.js';
export * from './stop-executors.js';
