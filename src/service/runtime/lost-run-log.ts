import { errorLine, machineZone, type WorkflowState } from '../../core/index.js';
import type { BatonService } from '../baton-service.js';
import { agentSummaryInput, type RecordInput } from '../record-input.js';

/** How much of a lost run's task log is read: its end, where the last message and the calls after it are. */
const TAIL_BYTES = 8 * 1024 * 1024;
/** How much of its start is read besides, when the end is not all of it: where the agent names its session. */
const HEAD_BYTES = 64 * 1024;

/** What a lost run's task log tells: the agent's last words, and its own session id. */
export interface LostRun {
  summaries: RecordInput[];
  /**
   * The agent's session id as its output named it: the resume token when the run was killed before it saved the
   * token it had read (the agent's first line, a moment before the crash).
   */
  session: string | null;
  /** Why the log could not be read (its path and the error): the briefing lacks the agent's last words, and says so. */
  unread: string | null;
}

const NOTHING: LostRun = { summaries: [], session: null, unread: null };

/**
 * What the agent of a run Baton lost (`baton run` killed, the machine restarted) last said, read from the run's task
 * log as `baton run` would have read its output at the end: its last message, naming the calls that never returned
 * (a `git commit` under way), and any compaction summary or usage limit. These are recorded before the workflow is
 * interrupted, so the crash snapshot's briefing has them as its Last State. Nothing without a log (another machine's
 * run folder, a driver that died before it launched the agent) or a reader; a log that cannot be read leaves the
 * briefing without them, and `unread` says why (recovery goes on: the log is still in the run folder's `logs/`).
 */
export async function readLostRun(
  service: BatonService,
  s: WorkflowState,
  taskId: string,
  sessionNumber: number,
  agent: string,
): Promise<LostRun> {
  const { logs, readAgentOutput } = service.options;
  if (!logs || !readAgentOutput) return NOTHING;
  try {
    const log = await logs.latest(s, taskId, sessionNumber);
    if (!log) return NOTHING;
    const from = Math.max(0, log.size - TAIL_BYTES);
    const { text } = await logs.read(s, log.name, from, TAIL_BYTES);
    // read from its first line, a log with no word of the agent's is a run cut off before it said anything, unless
    // an earlier run of the workflow's agent spoke (its calls left open are then what came after that message)
    const signals = await readAgentOutput(text, { fromStart: from === 0 && !s.summaries?.last_message });
    const sessionOf = (sigs: typeof signals) =>
      sigs.flatMap((sig) => (sig.type === 'session' ? [sig.id] : [])).at(-1) ?? null;
    let session = sessionOf(signals);
    if (!session && from > 0) {
      const head = await logs.read(s, log.name, 0, HEAD_BYTES);
      session = sessionOf(await readAgentOutput(head.text, { fromStart: true }));
    }
    return {
      summaries: signals.flatMap((sig) =>
        sig.type === 'summary' ? [agentSummaryInput(sig, `${agent}:task log`, machineZone)] : [],
      ),
      session,
      unread: null,
    };
  } catch (e) {
    return { ...NOTHING, unread: errorLine(e) };
  }
}
