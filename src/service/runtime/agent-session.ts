import { errorFirst } from './error-first.js';
import { clip } from '../../core/clip.js';
import { describeCall } from '../../core/call-text.js';
import {
  agentActor,
  agentExited,
  capacityVerdict,
  classifySideEffects,
  detectUsageLimit,
  formatSpan,
  machineZone,
  isContextFull,
  measureCapacity,
  pause,
  saveResumeToken,
  recordSideEffect,
  sessionReading,
  warnCapacity,
  type AgentOutcome,
  type CapacityMeasure,
  type CapacityPolicy,
  type CutShort,
  type HistoryStep,
  type UsageMetrics,
  type WorkflowState,
} from '../../core/index.js';
import type { ExecutorRow } from '../../storage/executor-registry.js';
import type { BatonService } from '../baton-service.js';
import { agentSummaryInput, recordOne, type RecordInput } from '../record-input.js';
import type { RunEvent, TaskLogSink } from './run-events.js';
import type { AgentDriver, AgentProcess, AgentProfile, AgentSignal } from './runtime-ports.js';

export interface SessionResult {
  outcome: AgentOutcome;
  exit_code: number | null;
  /** The signal that ended the agent, when one did (SIGKILL by the OOM killer, a person...). */
  signal: string | null;
  text: string | null;
  session_id: string | null;
  steps: HistoryStep[];
  usage: UsageMetrics | null;
  resets_at: string | null;
  /** Why Baton stopped the agent itself (a pause forced meanwhile, the lease taken over), when it did. */
  stopped_by: string | null;
  /** Why Baton stopped an agent that went silent (nothing printed for `stallMs`), when it did. */
  stalled: string | null;
}

export interface SessionContext {
  service: BatonService;
  workflowId: string;
  taskId: string;
  row: ExecutorRow;
  executionId: string;
  profile: AgentProfile;
  driver: AgentDriver;
  capacity: CapacityPolicy;
  heartbeatMs: number;
  /** An agent that prints nothing (stdout or stderr) for this long is hung: stopped (null: never). */
  stallMs?: number | null;
  /** Re-attached after a restart: side effects already in the ledger are not written twice. */
  reattached?: boolean;
  log: (line: string) => void;
  /** Progress for the watcher (status line, `--json` events); agent output only with `verbose`. */
  onEvent?: (e: RunEvent) => void;
  verbose?: boolean;
  /** The task's log in the run folder: everything the agent prints. */
  output?: TaskLogSink | null;
  /**
   * Asked at every heartbeat: a reason to stop the agent now (the workflow was paused, its pause forced, or the
   * lease was taken over), or null to let it work.
   */
  shouldStop?: () => Promise<string | null>;
  /** Aborted when `baton run` itself is told to stop (SIGINT, SIGTERM): the agent is stopped at once. */
  abort?: AbortSignal;
  /** Who stops the session when `abort` fires, for the line that says so (`baton run`, `baton worker on host`). */
  stopper?: string;
  /** What the notes said so far in this run told (their `about`): a note about the same is not said again. */
  notesSaid?: Set<string>;
}

/** The error type of an agent Baton stopped as hung (it printed nothing for the stall timeout). */
export const HUNG = 'agent_hung';

/** A failed tool call as an open error: how a run records one it cannot read the fate of. */
const failedCall = (name: string, text: string, input: unknown, taskId: string): RecordInput => ({
  kind: 'error',
  error: {
    error_type: `tool:${name}`,
    error_message: clip(text || 'tool failed', 1000),
    context: clip(inputText(input), 500),
    task_id: taskId,
    resolution: 'unresolved',
    resolution_notes: null,
  },
});

const inputText = (input: unknown) => {
  if (typeof input === 'string') return input;
  const cmd = (input as { command?: unknown } | null)?.command;
  if (typeof cmd === 'string') return cmd;
  return JSON.stringify(input) ?? '';
};

/** How often a run's context is recorded while it goes on (the first reading at once), and under what source. */
const USAGE_RECORD_EVERY_MS = 30_000;
const CONTEXT_SOURCE = 'baton-run:context';

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** "context 87% full (174000 of 200000 tokens)": the pause's reason and the warning's line say it alike. */
const contextFull = (m: CapacityMeasure) =>
  `context ${percent(m.utilization)} full (${m.tokens} of ${m.context_window} tokens${m.estimated ? ', estimated from cost' : ''})`;

/**
 * A run's totals so far as a usage record (its source is the execution, or the agent session whose totals they are:
 * `runUsage`): the fold adds what is new to the session's
 * and the workflow's, and computes the utilisation from the context size (once, in core).
 */
function usageMetrics(
  u: Extract<AgentSignal, { type: 'usage' }>,
  started: number,
  profileWindow: number | null,
): UsageMetrics {
  return {
    tokens_used: u.total_tokens,
    output_tokens: u.output_tokens ?? null,
    context_tokens: u.context_tokens,
    tokens_remaining_estimate: null,
    context_utilization: null,
    llm_calls: u.llm_calls,
    tool_calls: u.tool_calls,
    cost_usd: u.cost_usd,
    session_duration_seconds: Math.round((Date.now() - started) / 1000),
    context_window: u.context_window ?? profileWindow,
  };
}

/** A reading of the context alone: its counters are zero, so the totals it adds to stay as they are. */
const contextReading = (m: UsageMetrics): UsageMetrics => ({
  ...m,
  tokens_used: 0,
  output_tokens: 0,
  llm_calls: 0,
  tool_calls: 0,
  cost_usd: null,
  session_duration_seconds: 0,
});

/**
 * One driver session of an agent CLI for one task: its stream becomes history (tool calls and results), errors (read
 * with the test runs and decisions from the whole output when it ends: `readRunWork`),
 * side effects, the resume token (compare-and-set on the execution id) and usage with capacity checks; the
 * executor row is heart-beaten while it runs.
 */
export async function followAgent(ctx: SessionContext, proc: AgentProcess): Promise<SessionResult> {
  const { service, workflowId, taskId } = ctx;
  const registry = service.store.executors;
  const now = () => (service.options.now?.() ?? new Date()).toISOString();
  // a run cut off before its agent said anything says so, unless the agent's words were recorded before this run
  const spoke = !!(await service.runner.load(workflowId)).summaries?.last_message;
  const parser = ctx.driver.parser({ fromStart: !spoke });
  // what the run did, read from its whole output when it ends (a `command` agent's output is in no format to read:
  // its failed calls are recorded as they come)
  const readLater = ctx.profile.adapter === 'command' ? null : (service.options.readRunWork ?? null);
  // what it printed, each line stamped with when it came (the agents' JSON lines carry no time): the records read
  // from it after the run keep when each thing happened, beside the side effects recorded as they came
  const printed: string[] = [];
  let partial = '';
  const keep = (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    const at = JSON.stringify(now());
    for (const l of lines)
      // first, so a time the line states itself (a later key of the same name) is the one JSON keeps
      printed.push(l.startsWith('{"') ? `{"timestamp":${at},${l.slice(1)}` : l);
  };
  // the calls that failed, recorded as open errors should the reading after the run fail
  const failedCalls: RecordInput[] = [];
  const steps: HistoryStep[] = [];
  let sessionId: string | null = null;
  let result: Extract<AgentSignal, { type: 'result' }> | null = null;
  let lastError: string | null = null;
  let usage: Extract<AgentSignal, { type: 'usage' }> | null = null;
  /** When this run's usage was last recorded mid-task (never yet: the first reading is recorded at once). */
  let usageRecordedAt: number | null = null;
  let pauseAsked = false;
  let stoppedBy: string | null = null;
  let stalled: string | null = null;
  /** When the agent last printed anything: a hung agent prints nothing (a tool runs within its own time limit). */
  let heardAt = Date.now();
  const started = Date.now();
  const emit = (e: RunEvent) => ctx.onEvent?.(e);
  const base = { workflow_id: workflowId, task_id: taskId };
  // what the agent reports of its own work (its session, its tool calls, its summary) is the agent's in the event log
  const byAgent = { retry: true, actor: agentActor(ctx.profile.name) };
  // Signals are handled one at a time, in order, even though output arrives in bursts.
  let chain = Promise.resolve();
  const handle = async (sig: AgentSignal) => {
    switch (sig.type) {
      case 'session':
        if (sig.id === sessionId) return;
        sessionId = sig.id;
        if (registry && ctx.profile.supports_session_resume)
          await registry.saveToken(ctx.row.id, ctx.executionId, sig.id, now());
        await service.runner.run(workflowId, (d) => saveResumeToken(d, ctx.row.id, sig.id), byAgent);
        return;
      case 'tool_call':
        // the tool and what it acts on (`Write: src/a.ts`), not its whole input (a file's contents)
        steps.push({ kind: 'tool_call', text: clip(describeCall(sig.name, sig.input), 300) });
        emit({ event: 'agent.tool', ...base, text: clip(describeCall(sig.name, sig.input), 120) });
        return;
      case 'tool_result': {
        const text = `${sig.name}${sig.is_error ? ' failed' : ''}: ${clip(sig.text.split('\n')[0] ?? '', 200)}`;
        steps.push({ kind: 'tool_result', text });
        const action = {
          name: sig.name,
          input: sig.input,
          is_error: sig.is_error,
          output: sig.text,
          commands_apart: sig.commands_apart,
        };
        if (sig.is_error && readLater) failedCalls.push(failedCall(sig.name, sig.text, sig.input, taskId));
        await service.runner.run(
          workflowId,
          (d, s) => {
            recordOne(d, {
              kind: 'history',
              text: clip(`tool ${sig.name} ${inputText(sig.input)} -> ${sig.is_error ? 'error' : 'ok'}`, 500),
              task_id: taskId,
              source: 'agent:tool',
            });
            // else read with its fate from the whole output when the run ends (kept aside should that reading fail)
            if (sig.is_error && !readLater) recordOne(d, failedCall(sig.name, sig.text, sig.input, taskId));
            // said as a transcript's import says them: files relative to the worktree the agent works in
            for (const effect of classifySideEffects(action, s.worktree)) {
              const dup =
                ctx.reattached &&
                (s.side_effects ?? []).some((e) => e.summary === effect.summary && e.task_id === taskId);
              if (!dup) recordSideEffect(d, { task_id: taskId, tool: sig.name, ...effect });
            }
          },
          byAgent,
        );
        return;
      }
      case 'message':
        steps.push({ kind: 'message', text: clip(sig.text, 300) });
        return;
      case 'error':
        lastError = sig.text;
        steps.push({ kind: 'error', text: clip(sig.text, 300) });
        return;
      case 'note':
        // the same thing told of each task's agent is said once in a run
        if (ctx.notesSaid?.has(sig.about)) return;
        ctx.notesSaid?.add(sig.about);
        ctx.log(sig.text);
        return;
      case 'compaction':
        steps.push({ kind: 'message', text: `context compacted (${sig.pre_tokens ?? '?'} tokens before)` });
        // said as it happens, once per compaction: the agent goes on from a summary of its own work
        ctx.log(
          `task ${taskId}: the agent compacted its context${sig.pre_tokens ? ` (${sig.pre_tokens} tokens before)` : ''}`,
        );
        return;
      case 'summary':
        // recorded as a transcript import records it (the next briefing's Last State), before the task ends
        await service.runner.run(
          workflowId,
          (d) => recordOne(d, agentSummaryInput(sig, `${ctx.profile.name}:baton run`, machineZone)),
          byAgent,
        );
        return;
      case 'usage': {
        usage = sig;
        const window = sig.context_window ?? ctx.profile.context_window;
        const m = measureCapacity(sig, ctx.profile.context_window);
        emit({
          event: 'usage',
          ...base,
          context_utilization: m?.utilization ?? null,
          context_tokens: sig.context_tokens,
          context_window: window,
          cost_usd: sig.cost_usd,
        });
        await checkCapacity(sig);
        // the context as it fills, recorded while the task goes on (the dashboard's gauge, `baton status`); the
        // run's totals are recorded once, when it ends (a reading below an earlier one of its source would be taken
        // for a run started over and counted twice), so this reading counts nothing, under the one source every
        // run's context readings share (its counters always zero: it adds nothing, and takes one place of the
        // sources the fold keeps)
        if (usageRecordedAt === null || Date.now() - usageRecordedAt >= USAGE_RECORD_EVERY_MS) {
          usageRecordedAt = Date.now();
          const gauge = contextReading(usageMetrics(sig, started, ctx.profile.context_window));
          await service.runner.run(
            workflowId,
            (d) => recordOne(d, { kind: 'usage', usage: gauge, source: CONTEXT_SOURCE }),
            { retry: true },
          );
        }
        return;
      }
      case 'result':
        result = sig;
        if (sig.is_error && sig.text) lastError = sig.text;
        return;
    }
  };
  const checkCapacity = async (u: Extract<AgentSignal, { type: 'usage' }>) => {
    const m = measureCapacity(u, ctx.profile.context_window);
    const verdict = capacityVerdict(m, ctx.capacity);
    if (!m || verdict === 'ok') return;
    // every other task finished: the workflow completes at this task's end, and a pause asked for now never comes
    let last = false;
    /** The warning was written now (once per Baton session: not at every reading after it). */
    let warned = false;
    await service.runner.run(
      workflowId,
      (d) => {
        last = d.state.tasks.every((t) => t.id === taskId || t.status === 'done' || t.status === 'skipped');
        warned = warnCapacity(d, m, verdict === 'pause' ? ctx.capacity.pauseAt : ctx.capacity.warnAt);
        if (
          verdict === 'pause' &&
          !pauseAsked &&
          !d.state.pause_requested &&
          d.state.status === 'in_progress'
        ) {
          pause(d, {
            reason: contextFull(m),
            trigger: 'exhaustion',
            force: false,
            timeoutMs: service.options.pauseTimeoutMs,
            git: { state: null, note: 'not captured mid-task' },
          });
        }
      },
      { retry: true },
    );
    if (verdict === 'warn' && warned)
      ctx.log(
        `${contextFull(m)}: past the warning at ${percent(ctx.capacity.warnAt)}; ${last ? `${taskId} is the last task, so no pause follows` : `past ${percent(ctx.capacity.pauseAt)} the workflow pauses at the task boundary`}`,
      );
    if (verdict === 'pause' && !pauseAsked) {
      pauseAsked = true;
      const full = `context ${percent(m.utilization)} full`;
      ctx.log(
        last
          ? `${full}: ${taskId} is the last task, so no pause: the workflow completes when it is done`
          : `${full}: pausing at the task boundary (exhaustion)`,
      );
    }
  };
  // a failure while recording what the agent does is said in the run's log, once for each cause (the run goes on)
  const reported = new Set<string>();
  const sayOnce = (what: string) => (e: unknown) => {
    const line = `${what}: ${(e as Error).message}`;
    if (reported.has(line)) return;
    reported.add(line);
    ctx.log(line);
  };
  const unrecorded = sayOnce(`could not record what the agent of ${taskId} did`);
  proc.onOutput((chunk) => {
    heardAt = Date.now();
    ctx.output?.write('stdout', chunk);
    if (readLater) keep(chunk);
    if (ctx.verbose) emit({ event: 'agent.output', ...base, stream: 'stdout', text: chunk });
    for (const sig of parser.push(chunk)) chain = chain.then(() => handle(sig)).catch(unrecorded);
  });
  // the executor's own news (its host unreachable, retrying until when, back again): said as it comes
  proc.onNotice?.((line) => ctx.log(`task ${taskId}: ${line}`));
  proc.onStderr?.((chunk) => {
    heardAt = Date.now();
    ctx.output?.write('stderr', chunk);
    if (ctx.verbose) emit({ event: 'agent.output', ...base, stream: 'stderr', text: chunk });
  });
  const onAbort = () => {
    if (stoppedBy) return;
    stoppedBy = `${ctx.stopper ?? 'baton run'} was stopped (${String(ctx.abort?.reason ?? 'abort')})`;
    void proc.stop();
  };
  if (ctx.abort?.aborted) onAbort();
  else ctx.abort?.addEventListener('abort', onAbort, { once: true });
  let checking = false;
  const heartbeat = () =>
    void registry?.heartbeat(ctx.row.id, now()).catch(sayOnce('could not write the session heartbeat'));
  // at once: a driver that has just taken the session over (re-attached) is not silent while its first tick waits
  heartbeat();
  const beat = setInterval(() => {
    heartbeat();
    const quiet = Date.now() - heardAt;
    if (ctx.stallMs && quiet > ctx.stallMs && !stoppedBy && !stalled) {
      // said by the runner once the agent is stopped, with what it does next
      stalled = `the agent printed nothing for ${formatSpan(quiet)} (stall timeout ${formatSpan(ctx.stallMs)}): it was stopped as hung`;
      void proc.stop();
      return;
    }
    if (!ctx.shouldStop || checking || stoppedBy || stalled) return;
    checking = true;
    void ctx
      .shouldStop()
      .then(async (reason) => {
        if (!reason || stoppedBy) return;
        stoppedBy = reason;
        ctx.log(`stopping the agent of ${taskId}: ${reason}`);
        await proc.stop();
      })
      .catch(sayOnce('could not check whether to stop the agent'))
      .finally(() => (checking = false));
  }, ctx.heartbeatMs);
  let exit;
  try {
    exit = await proc.wait();
  } finally {
    clearInterval(beat);
    ctx.abort?.removeEventListener('abort', onAbort);
  }
  if (exit.killed_after_grace_s)
    ctx.log(
      `the agent of ${ctx.taskId} did not stop within ${exit.killed_after_grace_s} s of SIGTERM: it was killed (SIGKILL)`,
    );
  if (exit.left_running_stopped)
    ctx.log(`the agent of ${ctx.taskId} ended with processes of its own still running: they were stopped`);
  for (const sig of parser.end()) chain = chain.then(() => handle(sig)).catch(unrecorded);
  await chain;
  // its errors with their fates, its test runs and decisions, read from the whole run as an import reads them; should
  // that fail, its failed calls are open errors, as a run records them without it
  if (readLater) {
    keep('\n');
    await readLater(printed.join('\n'), await service.runner.load(workflowId), taskId)
      .catch((e: unknown) => {
        sayOnce(
          `could not read what the agent of ${taskId} did from its output (its failed calls are recorded as open errors)`,
        )(e);
        return failedCalls;
      })
      // the agent's, as its live output is (byAgent), not the driver's
      .then((records) =>
        records.length ? service.recordBatch({ workflowId }, records, undefined, ctx.profile.name) : null,
      )
      .catch(unrecorded);
  }
  const r = result as Extract<AgentSignal, { type: 'result' }> | null;
  // A failed run's text is its real cause: the agent's error, else its standard error, else how it ended (never
  // null: the task's failure, the log and the agent.exited event all say it in these words). An agent
  // Baton lost (its host or container gone: a signal that is not a POSIX one) says why first.
  const failed = !r || r.is_error || exit.code !== 0;
  const lost = exit.code === null && exit.signal && !exit.signal.startsWith('SIG') ? exit.stderr : null;
  const killedBy =
    exit.signal && !stoppedBy && !stalled && !lost
      ? `the agent (pid ${proc.pid ?? '?'}) was killed by ${exit.signal}`
      : null;
  // an agent that ended well but said no result is not speaking the driver's format: said so, with what to check
  const silent =
    !r && exit.code === 0 && !exit.signal
      ? `the agent exited with code 0 but gave no result: is ${ctx.profile.bin} a ${ctx.profile.adapter} CLI? Baton reads its ${ctx.profile.adapter === 'codex' ? '`--json` events' : 'stream-json output'}`
      : null;
  const reason = failed
    ? (stalled ?? (r?.is_error ? r.text : null) ?? lastError ?? errorFirst(exit.stderr) ?? killedBy ?? silent)
    : null;
  // no cause said: the agent's last words (a usage limit, a full context is read from them as it said them)
  const lastWords = failed && reason === null && r?.text?.trim() ? r.text.trim() : null;
  const said = failed ? (reason ?? lastWords ?? exitWords(exit)) : (r?.text ?? null);
  const text = lost && said !== lost ? [lost, said].filter(Boolean).join('\n') : said;
  // A reset time without a zone is read in this machine's zone, the one the agent prints it in.
  const limit = detectUsageLimit(
    r?.is_error || exit.code !== 0 ? (text ?? lastError) : null,
    new Date(),
    machineZone,
  );
  // `lost`: Baton lost the agent's host (src/executors/remote): the agent may still be working there, or be done.
  const outcome: AgentOutcome =
    exit.signal === 'lost'
      ? 'lost'
      : exit.signal && !r
        ? 'killed'
        : limit
          ? 'usage_limit'
          : r && !r.is_error && exit.code === 0
            ? 'success'
            : isContextFull(text) || isContextFull(lastError)
              ? 'context_full'
              : 'error';
  const u = usage as Extract<AgentSignal, { type: 'usage' }> | null;
  const metrics = u ? usageMetrics(u, started, ctx.profile.context_window) : null;
  // a run's totals under its execution; an agent that counts its whole session (a resumed Codex thread) under the
  // session, made the session's whole, so each run adds its own share
  const sessionSource = ctx.driver.sessionTotals && sessionId ? `agent-session:${sessionId}` : null;
  const runUsage = (s: WorkflowState, m: UsageMetrics) =>
    sessionSource
      ? {
          kind: 'usage' as const,
          usage: sessionReading(m, s.usage_sources?.[sessionSource]),
          source: sessionSource,
        }
      : { kind: 'usage' as const, usage: m, source: ctx.executionId || undefined };
  // a failure says how the agent ended too, when its own words (its error, its standard error) do not; its last words
  // alone are no cause ("Done with K1" reads as success): said as what they are, after how it ended
  const cause =
    outcome === 'error' && !lost
      ? lastWords
        ? `${exitWords(exit)}; its last output: "${clip(lastWords, 200)}"`
        : withExit(text, exit)
      : text;
  const message = outcome === 'success' ? null : clip(cause ?? '', 1000);
  // Ended short of its task with its conversation whole, which its own session can go on from: cut off in the middle
  // of its turn (killed, or exited on an error before its result line once its session began: a crash, a wrapper
  // whose program was killed; one that failed before it named a session never began a turn, as a bad flag; an exit 0
  // without a result is a program that does not speak the format, no cut), or stopped at its turn limit.
  // Stopped as hung by Baton: its session is whole, but the next run starts a fresh one (it may hang there again).
  const cutShort: CutShort | undefined = stalled
    ? 'hung'
    : outcome === 'killed' || (outcome === 'error' && !r && exit.code !== 0 && sessionId !== null)
      ? 'cut_off'
      : outcome === 'error' && r?.subtype === 'error_max_turns'
        ? 'turn_limit'
        : undefined;
  await service.runner.run(
    workflowId,
    (d) => {
      if (metrics) recordOne(d, runUsage(d.state, metrics));
      // a hang is an error of the work, which the briefing lists (once a task while it is open): the call it hung in
      // may hang again
      if (stalled && !d.state.open_errors.some((e) => e.error_type === HUNG && e.task_id === taskId))
        recordOne(d, {
          kind: 'error',
          error: {
            error_type: HUNG,
            error_message: stalled,
            // where it was: its last call or words
            context: steps.at(-1)?.text ?? null,
            task_id: taskId,
            resolution: 'unresolved',
            resolution_notes: null,
          },
        });
      agentExited(
        d,
        {
          executor_id: ctx.row.id,
          outcome,
          exit_code: exit.code,
          message,
          ...(cutShort ? { cut_short: cutShort } : {}),
        },
        taskId,
      );
    },
    { retry: true },
  );
  return {
    outcome,
    exit_code: exit.code,
    signal: exit.signal,
    text: cause ?? null,
    session_id: sessionId,
    steps,
    usage: metrics,
    resets_at: limit?.resets_at ?? null,
    stopped_by: stoppedBy,
    stalled,
  };
}

/** How the agent ended, in words: killed by a signal, or its exit code. */
const exitWords = (exit: { code: number | null; signal: string | null }) =>
  exit.signal ? `the agent was killed by ${exit.signal}` : `the agent exited with code ${exit.code ?? '?'}`;

/** A failure's cause with how the agent ended (`(the agent exited with code 3)`), unless the cause says it already. */
function withExit(text: string | null, exit: { code: number | null; signal: string | null }): string | null {
  const ended = exit.signal
    ? `the agent was killed by ${exit.signal}`
    : exit.code !== null && exit.code !== 0
      ? `the agent exited with code ${exit.code}`
      : null;
  if (!ended || !text) return text ?? ended;
  return text.includes(exit.signal ?? ended) ? text : `${text} (${ended})`;
}
