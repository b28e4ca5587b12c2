export * from './transcript-types.js';
export { LineBuffer, parseJsonLine } from './line-buffer.js';
export { ClaudeTranscriptParser, parseClaudeTranscript } from './claude-code/transcript.js';
export {
  StreamJsonParser,
  parseStreamJson,
  type StreamJsonEvent,
  type StreamJsonOptions,
} from './claude-code/stream-json.js';
export { CodexRolloutParser, parseCodexRollout } from './codex/rollout.js';
export { detectTranscriptFormat, parseTranscript } from './parse-transcript.js';
export { contextWindowOf } from './model-limits.js';
export { branchOf, cwdOf, recentCallsOf } from './parser-state.js';
