export * from './agent-task-calls.js';
export * from './reduce-agent-tasks.js';
