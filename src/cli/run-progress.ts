import { counted, formatSpan, pausedBy, type TaskProduced } from '../core/index.js';
import type { RunEvent, RunReport } from '../service/runtime/index.js';
import { thousands, type Io } from './output.js';

/** Commits named on a task's line before the rest are counted. */
const COMMITS_NAMED = 3;

/**
 * What a task done produced, in one line for the person reading the run later: its commits, its last test run's
 * result, the tokens and cost its agent used (each left out when Baton recorded none of it).
 */
export function producedWords(p: TaskProduced): string {
  const more = p.commits.length - COMMITS_NAMED;
  const used = [
    ...(p.tokens ? [`${thousands(p.tokens)} tokens`] : []),
    ...(p.cost_usd ? [`$${p.cost_usd.toFixed(2)}`] : []),
  ];
  return [
    p.commits.length
      ? `${p.commits.slice(0, COMMITS_NAMED).join(', ')}${more > 0 ? `, and ${counted(more, 'more commit')}` : ''}`
      : 'no commit',
    ...(p.tests ? [`tests: ${p.tests.result}`] : []),
    ...(used.length ? [used.join(', ')] : []),
  ].join('; ');
}

export interface ProgressOptions {
  io: Io;
  /** NDJSON progress events on standard output (`--json`). */
  json: boolean;
  /** The agent's own output on standard error (`--verbose`). */
  verbose: boolean;
  /** A terminal to redraw one live status line on (standard error of an interactive run), else null. */
  tty: { write(text: string): void; columns: number } | null;
}

/** A usage limit the run waited for and went on after (one it did not wait for is said by `report.next`). */
function waitedLine(report: RunReport): string | null {
  const limit = report.usage_limit;
  const when = limit?.reset_words ?? limit?.resets_at;
  if (!limit?.auto_resumed) return null;
  return when
    ? `usage limit (reset at ${when}): waited for it and went on`
    : 'usage limit (its notice gave no reset time): waited and went on';
}

/**
 * How `baton run` shows what it does: `--json` prints every progress event as one JSON line; on a terminal a live
 * status line (task, elapsed time, context %, cost, last tool call) is redrawn in place, with one line per step
 * above it; elsewhere one line per step. `--verbose` adds the agent's own output.
 */
export function runProgress(o: ProgressOptions) {
  let task: string | null = null;
  let taskStarted = 0;
  let context: number | null = null;
  let runCost = 0;
  let doneCost = 0;
  /** Whether the agent reported any cost: a figure it never gave is left out, not shown as $0.00. */
  let costKnown = false;
  let tool = '';
  let drawn = false;
  let timer: NodeJS.Timeout | null = null;
  const clear = () => {
    if (o.tty && drawn) o.tty.write('\r\x1b[K');
    drawn = false;
  };
  const draw = () => {
    if (!o.tty || !task) return;
    const parts = [
      `▶ ${task}`,
      formatSpan(Date.now() - taskStarted),
      context === null ? 'context ?' : `context ${Math.round(context * 100)}%`,
      costKnown ? `$${(doneCost + runCost).toFixed(2)}` : '',
      tool,
    ].filter(Boolean);
    const line = parts.join(' · ');
    o.tty.write(`\r\x1b[K${line.length > o.tty.columns - 1 ? line.slice(0, o.tty.columns - 2) + '…' : line}`);
    drawn = true;
  };
  const say = (line: string) => {
    clear();
    o.io.err(`baton run: ${line}\n`);
    draw();
  };
  if (o.tty) {
    timer = setInterval(draw, 1000);
    timer.unref();
  }
  const onEvent = (e: RunEvent) => {
    if (o.json) {
      if (e.event !== 'agent.output' || o.verbose) o.io.out(JSON.stringify(e));
      return;
    }
    switch (e.event) {
      case 'run.started':
        // going on from a pause or an interruption, the new session is said by the next line (session.started)
        return say(
          `driving ${e.workflow_id} with ${e.agent}${e.resuming ? '' : ` (session ${e.session_number})`}`,
        );
      case 'crash.handled':
        return; // said by the runner's own line
      case 'note':
        return say(e.message);
      case 'session.started':
        return say(
          `session ${e.session_number} started after ${e.reason.replace('_', ' ')}: ${e.agent_session ? `the agent's own session ${e.agent_session} goes on` : `a fresh agent session with the compiled context (${e.context_tokens} tokens)`}`,
        );
      case 'task.started':
        task = `${e.task_id} ${e.title}`;
        taskStarted = Date.now();
        context = null;
        runCost = 0;
        tool = '';
        return say(
          `task ${e.task_id} started${e.resume_token ? ` (resuming ${e.resume_token})` : ''}${e.fallback ? ` (fallback: ${e.fallback})` : ''}${e.log ? `; log ${e.log}` : ''}`,
        );
      case 'agent.tool':
        tool = e.text;
        return draw();
      case 'usage':
        context = e.context_utilization;
        runCost = e.cost_usd ?? runCost;
        if (e.cost_usd !== null && e.cost_usd !== undefined) costKnown = true;
        return draw();
      case 'agent.output':
        if (!o.verbose) return;
        clear();
        o.io.err(e.text.endsWith('\n') ? e.text : `${e.text}\n`);
        return draw();
      case 'task.finished':
        doneCost += runCost;
        runCost = 0;
        task = null;
        return say(
          e.outcome === 'done'
            ? `task ${e.task_id} done in ${formatSpan(e.seconds * 1000)}${e.produced ? `: ${producedWords(e.produced)}` : ''}`
            : e.outcome === 'lost'
              ? `task ${e.task_id} not finished, its agent lost: ${e.detail ?? 'no detail'}${e.log ? ` (log ${e.log})` : ''}`
              : e.outcome === 'usage_limit'
                ? `task ${e.task_id} not finished, stopped by the usage limit: it stays in progress${e.log ? ` (log ${e.log})` : ''}`
                : e.outcome === 'api_error'
                  ? `task ${e.task_id} not finished, ${e.detail ?? 'stopped by an API error: it stays in progress'}${e.log ? ` (log ${e.log})` : ''}`
                  : `task ${e.task_id} failed (${e.outcome}): ${e.detail ?? 'no detail'}${e.log ? ` (log ${e.log})` : ''}`,
        );
      case 'workflow.paused':
        return say(`workflow ${pausedBy(e.trigger)}${e.reason ? `: ${e.reason}` : ''}`);
    }
  };
  return {
    onEvent,
    /** The runner's own lines (a crash handled, a takeover, a pause forced) go to standard error in every mode. */
    log: (line: string) => say(line),
    finish(report: RunReport) {
      if (timer) clearInterval(timer);
      clear();
      if (o.json) {
        o.io.out(JSON.stringify({ event: 'run.finished', ...report }));
        return;
      }
      o.io.out(
        [
          `workflow ${report.workflow_id} is ${report.stopped.startsWith(report.status) ? report.stopped : `${report.status}: ${report.stopped}`} (${counted(report.sessions, 'session')} in this run)`,
          ...report.tasks.map(
            (t) =>
              `  ${t.id}: ${t.outcome}${t.produced ? `: ${producedWords(t.produced)}` : t.detail ? `: ${t.detail.split('\n')[0]}` : ''}`,
          ),
          ...(report.fallbacks.length ? [`fallbacks: ${report.fallbacks.join('; ')}`] : []),
          ...[waitedLine(report), report.next].filter((l) => l !== null),
        ].join('\n'),
      );
    },
    stop() {
      if (timer) clearInterval(timer);
      clear();
    },
  };
}
