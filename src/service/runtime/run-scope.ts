import type { AutoResumeWaits, CutOff, HistoryStep } from '../../core/index.js';
import type { BatonService } from '../baton-service.js';
import type { RunOptions, RunReport } from './run-options.js';
import type { RunEvent } from './run-events.js';
import type { TaskStart } from './task-commits.js';

/** What the parts of one `baton run` share: its workflow, what it was told, its report, and how it speaks. */
export interface RunScope {
  svc: BatonService;
  id: string;
  o: RunOptions;
  report: RunReport;
  emit: (e: RunEvent) => void;
  log: (line: string) => void;
  /** A progress note (`baton run` shows them; `baton serve` does not). */
  note: (message: string) => void;
  /** A progress line said once: as a note where progress is shown (`baton run`), else in the runner's log. */
  say: (line: string) => void;
}

/** How the run's next agent session starts: going on in the agent's own session, or fresh with the briefing. */
export interface NextTurn {
  /** The agent's own session to go on in (`--resume <token>`); null: a fresh one. */
  token: string | null;
  /** The compiled context a fresh session is fed (null: none, or the agent's own session goes on). */
  resumeContext: string | null;
  /** What the session before did, handed to a fresh driver session that takes its task over. */
  history: HistoryStep[];
  /** Why the session starts fresh when its own could not go on (recorded with the launch). */
  fallback: string | null;
  /** Why and where the agent's own session, going on after a crash, a hang or an API error, was cut off (said once). */
  cutOff: CutOff | null;
}

/** What the run remembers of its tasks from one turn to the next. */
export interface RunMemory {
  /** Tasks done in this run (`--max-tasks`). */
  done: number;
  /** Tasks that failed in this run: the run stops when it comes back to one. */
  failedHere: Set<string>;
  /** The times each task's agent hung in this run. */
  stalls: Map<string, number>;
  /** Where each task's work began in git, in this run. */
  begun: Map<string, TaskStart>;
  waits: AutoResumeWaits;
}

/** A task's turn: when it began, and where its agent's output is kept. */
export interface TaskTurn {
  taskId: string;
  started: number;
  log: string | null;
}
