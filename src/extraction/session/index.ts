export { readSession, type AgentSummary, type SessionFacts } from './read-session.js';
export { findRequests, spoken, type UserRequest } from './requests.js';
export { findTaskCalls, replayTasks, type AgentTask, type TaskToolCall } from './tasks.js';
export { findGitEffects, type Commit, type Effect } from './git-effects.js';
export { findFileEffects } from './file-effects.js';
export { findTestRuns, type TestRun } from './test-runs.js';
export { readTestOutput, type TestReport } from './test-output.js';
