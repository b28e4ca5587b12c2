export { api, ApiError, onUnauthorized, seg } from './api-client.js';
export { openLiveSocket, type LiveState } from './live-socket.js';
export { tokenStore } from './token-store.js';
export { isResumable, isTerminal } from './status-rules.js';
export { hookedResume, resumedWords } from './resumed-words.js';
export {
  severalOwners,
  teammateGoesOn,
  teammateOf,
  theirCheckpointWords,
  theirsNeeded,
  theirsQuestion,
  type Owners,
  type TheirsAct,
  type Teammate,
} from './owner-words.js';
export { pauseWaitWords, pendingPauseWords, type PauseWaits } from './pause-words.js';
export { takersText } from './queue-words.js';
export { shortHash } from './short-hash.js';
export { branchInWords } from './branch-words.js';
export { agentLogLines, type LogLine, type LogLineKind } from './agent-log-lines.js';
export type * from './types.js';
