/**
 * The library entry of agent-baton (`import { openBaton } from 'agent-baton'`): what a program needs to keep its
 * agents' work in Baton without the CLI. Documented in docs/library.md; the LangGraph checkpointer is the separate
 * entry `agent-baton/langgraph`.
 */

// Opening Baton: a client as the CLI opens one, or the service and the store underneath it.
export { openBaton, openLocalService, type LocalService, type OpenBatonOptions } from './open-baton.js';
export { openStore, isPostgresUrl, type OpenStoreOptions } from './storage/open-store.js';
export type { Durability, Store } from './storage/store.js';
export { loadSettings, type Settings, type SettingOptions } from './config/settings.js';

// The client: one interface, in process (LocalClient) or over HTTP to `baton serve` (HttpClient).
export type {
  BatonClient,
  Channel,
  PauseResult,
  RecordInput,
  Ref,
  TaskAction,
} from './client/baton-client.js';
export { LocalClient } from './client/local-client.js';
export { HttpClient } from './client/http-client.js';
export type { WorkflowView } from './client/views.js';

// The service: every command (create, task moves, records, pause, resume, checkpoints, recovery) and query.
export {
  BatonService,
  DEFAULT_CONTEXT_BUDGET,
  detailCategories,
  type CompiledContext,
  type CreateWorkflowInput,
  type DetailCategory,
  type GitPort,
  type ImportMarker,
  type ResumeResult,
  type ServiceOptions,
  type SessionStatus,
  type WorkflowRef,
} from './service/index.js';

// Errors: one class with a stable code; `isInstance` works across copies of the package.
export {
  BatonError,
  errorCodes,
  type ErrorCode,
  invalidInput,
  notFound,
  invalidTransition,
  conflict,
} from './core/errors.js';

// The shapes of the log and the state (zod schemas validate them; the types are inferred from those).
export {
  decisionTypes,
  errorResolutions,
  snapshotTriggers,
  taskStatuses,
  tddPhases,
  workflowStatuses,
  type BatonEvent,
  type CheckpointRef,
  type Decision,
  type ErrorRecord,
  type EventType,
  type GitState,
  type HistoryEntry,
  type Issue,
  type RecoveryOption,
  type RecoveryPlan,
  type ReviewerFeedback,
  type SessionInfo,
  type SessionSnapshot,
  type SnapshotSummary,
  type SnapshotTrigger,
  type Task,
  type TaskSpecInput,
  type TaskStatus,
  type TestState,
  type UsageMetrics,
  type WorkflowState,
  type WorkflowStatus,
} from './core/index.js';

// The tokenizer the resume context's budget is counted with (o200k_base, loaded on first use).
export { countTokens } from './tokens/count-tokens.js';
export { PACKAGE_NAME, PACKAGE_VERSION } from './config/package-info.js';
