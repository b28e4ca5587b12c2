export * from './agent-profiles.js';
export * from './transcript-signals.js';
export { readAgentOutput } from './read-agent-output.js';
export { claudeCodeDriver } from '../claude-code/claude-code-driver.js';
export { codexDriver } from '../codex/codex-driver.js';
export { commandDriver } from '../command/command-driver.js';
