import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { batonHome } from '../config/settings.js';
import { isAgentTaskTool } from '../core/agent-tasks/agent-task-calls.js';
import { errorLine } from '../core/errors.js';
import { findGitTop } from '../git/git.js';
import {
  hookLogPath,
  hookRecordKey,
  lastMessageKey,
  missedBriefing,
  lastWentUnanswered,
  readHookLogOrWhy,
  updateHookLog,
  type HookLog,
  type HookOutcome,
  type TranscriptRead,
} from '../integrations/hooks/hook-log.js';
import { hookFolder } from '../integrations/hooks/hook-cwd.js';
import { damagedReminder, outageReminder } from '../integrations/hooks/outage.js';
import { agentProcess } from '../integrations/hooks/agent-process.js';
import { spuriousStartup } from '../integrations/hooks/resumed-launch.js';
import { subAgentFileOf } from '../integrations/hooks/sub-agent-call.js';
import {
  detectAgent,
  hookBudget,
  hookEventsFor,
  isHookEvent,
  hookEventNamed,
  parsePayload,
  type HookAgent,
  type HookPayload,
  type ParsedPayload,
} from '../integrations/hooks/hook-payload.js';
import type { Io } from './output.js';
import { interpretSchemas } from './short-lived.js';

/**
 * `baton hook <Event>`: the process an agent starts on every turn. It imports only what it needs (this file loads
 * nothing but node's own modules and small pure ones; the store, the schemas and the client load only when the
 * hook has work), never fails the agent's session (exit 0, within its time budget), and never hides a failure:
 * the outcome of every hook goes to the local hook log that `baton doctor` shows, problems to stderr, and a new
 * failure to the user as a systemMessage.
 */

export interface HookIo extends Io {
  readStdin: () => Promise<string>;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

interface Args {
  event: string | null;
  agent: string | null;
  home?: string;
  database?: string;
  server?: string;
}

function parseArgs(argv: string[]): Args {
  const out: Args = { event: null, agent: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    const [flag, inline] = a.includes('=')
      ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
      : [a, null];
    const value = () => inline ?? argv[++i];
    if (flag === '--agent') out.agent = value() ?? null;
    else if (flag === '--home') out.home = value();
    else if (flag === '--database') out.database = value();
    else if (flag === '--server') out.server = value();
    else if (!a.startsWith('-') && out.event === null) out.event = a;
  }
  return out;
}

function sizeOf(path: string | null): number | null {
  if (!path) return null;
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}

interface Finished {
  outcome: HookOutcome;
  note: string;
  output: Record<string, unknown> | null;
  transcripts?: TranscriptRead[];
  takenOver?: string[];
  endsRecorded?: string[];
  tell?: string;
  /** Not written to the hook log: a hook that ran beside another of the same event, whose record is the one kept. */
  unlogged?: true;
  /** Its Baton server did not answer (`lastWentUnanswered`). */
  unanswered?: true;
  /** It could not reach Baton's store (a server or a database down: an `unavailable` failure): an outage. */
  unreachable?: true;
  /** Its answer came from Baton's store: an outage, if one was under way, is over. */
  reached?: true;
  /** The store out of reach is this SQLite file, damaged: said again at each session start, with the way back. */
  damaged?: string;
}

/** The same news however its counts moved (a checkpoint's age, a version, a byte offset): told once, not each time. */
export const sameNote = (a: string, b: string) => a.replace(/\d+/g, '#') === b.replace(/\d+/g, '#');

/** What a hook keeps of its budget to answer once a write gave up waiting for the store's lock. */
const ANSWER_MS = 500;

/** Runs one hook; always resolves to exit code 0. */
export async function runHookCommand(argv: string[], io: HookIo): Promise<number> {
  // process.hrtime, not performance.now(): the global `performance` loads Node.js's perf_hooks on its first use
  const t0 = process.hrtime.bigint();
  const args = parseArgs(argv);
  const home = batonHome(args.home, io.env);
  // a standard input that cannot be read is said as such: "no hook input" would send the user after the hook line
  const parsed: ParsedPayload = await io.readStdin().then(
    (stdin) => parsePayload(stdin, io.cwd),
    (e: unknown) => ({ ok: false, error: `cannot read the hook input on stdin: ${errorLine(e)}` }),
  );
  const payload: HookPayload | null = parsed.ok ? parsed.payload : null;
  const named = hookFolder(payload?.cwd ?? io.cwd, io.cwd);
  const namedTop = await findGitTop(named.dir).catch(() => null);
  // a folder that exists nowhere here (another machine's path: a devcontainer, a remote agent) and no repository above
  // what is left of it: the hook's own folder, where the agent started it, is the session's
  const hostTop = named.missing && !namedTop ? await findGitTop(io.cwd).catch(() => null) : null;
  const folder = hostTop ? { dir: io.cwd, missing: null } : named;
  const worktree = hostTop ?? namedTop;
  if (payload) payload.cwd = folder.dir;
  const cwd = folder.dir;
  const logPath = hookLogPath(home, worktree ?? resolve(cwd));
  const { log, unreadable } = readHookLogOrWhy(logPath, worktree ?? resolve(cwd));
  // a log that could not be read is written anew by this hook: what it held (earlier hooks' results) is gone, said
  const replaced = unreadable
    ? `; the hook log ${logPath} could not be read (${unreadable}): written anew, without what it held`
    : '';
  const event = hookEventNamed(args.event ?? payload?.hook_event_name ?? '');
  const agent: HookAgent = payload
    ? detectAgent(payload, args.agent)
    : args.agent === 'codex'
      ? 'codex'
      : 'claude-code';
  const lastMessage = lastMessageKey(payload?.raw.last_assistant_message);
  // a hook here found the server silent moments ago: this one does not wait for it as long
  const unansweredSince = lastWentUnanswered(log.events, agent);
  // this agent's hooks here could not reach the store lately: told once, and the first hook that reaches it catches up
  const outage = log.outages?.[agent] ?? null;
  let done = false;

  const finish = (finished: Finished): number => {
    if (done) return 0;
    done = true;
    const r = replaced ? { ...finished, note: `${finished.note}${replaced}` } : finished;
    if (r.unlogged) {
      io.err(`baton: ${event || 'hook'}: ${r.note}`);
      return 0;
    }
    // each agent's own: a Claude Code hook never hides (nor repeats) a Codex one's result in one repository
    const key = hookRecordKey(agent, event);
    const previous = log.events[key];
    // the agent's answer first: it gets it whatever becomes of the log
    let output = r.output;
    if (r.outcome === 'failed' || r.outcome === 'timeout') {
      // A failure is shown to the user once (again when it changes), and always at a session start.
      const repeated = previous?.outcome === r.outcome && sameNote(previous.note, r.note);
      const message = `Baton: the ${event || 'unknown'} hook ${r.outcome === 'timeout' ? 'ran out of time' : 'failed'}: ${r.note}. Run \`baton doctor\` in this repository.`;
      // the store out of reach was said whole at the outage's first hook: a new conversation gets a line, others nothing
      if (r.unreachable && outage) {
        if (event === 'SessionStart')
          output = {
            ...(output ?? {}),
            systemMessage: r.damaged ? damagedReminder(outage, r.damaged) : outageReminder(outage),
          };
      } else if (!repeated || event === 'SessionStart')
        output = { ...(output ?? {}), systemMessage: message };
    }
    if (r.tell && !(previous?.outcome === r.outcome && sameNote(previous.note, r.note)))
      output = { ...(output ?? {}), systemMessage: r.tell };
    if (output) io.out(JSON.stringify(output));
    const at = new Date().toISOString();
    // what this hook learnt, written on the log as it is now: hooks of this worktree that ran meanwhile (Stop and
    // SessionEnd, another conversation) keep what they wrote
    const record = (fresh: HookLog) => {
      fresh.events[key] = {
        at,
        agent,
        event: event || 'unknown',
        outcome: r.outcome,
        note: r.note,
        ms: Math.round(Number(process.hrtime.bigint() - t0) / 1e6),
        // a server that did not answer: since when the hooks here do not wait for it (the last full wait)
        ...(r.unanswered ? { unanswered: true as const, unanswered_since: unansweredSince ?? at } : {}),
      };
      // another conversation's transcript (a session start's catch-up) keeps what the hooks knew of its agent
      for (const t of r.transcripts ?? []) {
        const own = t.path === payload?.transcript_path;
        const before = fresh.transcripts[t.path];
        // its own starts over, but a session start (a resume) opens no turn: a conversation between turns stays so
        const between =
          own && event === 'SessionStart' && before?.turn_ended ? { turn_ended: true as const } : {};
        fresh.transcripts[t.path] = {
          ...(own ? between : before),
          bytes: t.bytes,
          workflow_id: t.workflow_id,
          at: new Date().toISOString(),
          last_message: own ? lastMessage : (before?.last_message ?? null),
          ...(t.source ? { source: t.source } : {}),
        };
      }
      for (const path of r.takenOver ?? []) {
        const gone = fresh.transcripts[path];
        if (gone) gone.taken_over = true;
      }
      for (const path of r.endsRecorded ?? []) delete fresh.transcripts[path]?.end_unrecorded;
      // who writes the transcript now (a resume is another process), or that its conversation is over: a session start
      // elsewhere then tells a conversation at work from one cut off (catch-up.ts)
      const seen = payload?.transcript_path ? fresh.transcripts[payload.transcript_path] : undefined;
      // an end this hook may not have recorded (the store down): the next session start here records it (one recorded
      // already changes nothing); a later hook of the conversation in a turn (its next prompt, got through or not) makes
      // it no longer the last word; a session start records it itself (`endsRecorded`)
      const ends =
        event === 'Stop' || event === 'StopFailure' || event === 'Interrupt' || event === 'SessionEnd';
      const unrecorded = r.outcome === 'failed' || r.outcome === 'timeout';
      if (seen && ends && unrecorded)
        seen.end_unrecorded = {
          event,
          at: new Date().toISOString(),
          session_id: payload?.session_id ?? null,
          reason: event === 'SessionEnd' ? (payload?.reason ?? null) : null,
        };
      else if (seen && event !== 'SessionStart' && (!ends || !unrecorded)) delete seen.end_unrecorded;
      if (r.unreachable) {
        // the first failure of an outage is the one told; what the conversation writes from now on is unread
        fresh.outages = { ...fresh.outages, [agent]: fresh.outages?.[agent] ?? { since: at } };
        if (seen) seen.missed_since ??= at;
      } else if (r.reached && fresh.outages?.[agent]) {
        // this hook read what every transcript here gained meanwhile (`outageCatchUp`): the outage's failures are past
        const since = fresh.outages[agent].since;
        for (const h of Object.values(fresh.events))
          if (h.agent === agent && (h.outcome === 'failed' || h.outcome === 'timeout') && h.at >= since)
            h.caught_up = { event: event || 'unknown', at };
        delete fresh.outages[agent];
        for (const t of Object.values(fresh.transcripts)) delete t.missed_since;
      }
      if (seen && event === 'SessionEnd') seen.ended = true;
      else if (seen) {
        delete seen.ended;
        delete seen.taken_over;
        // a session start (a resume) opens no turn: a conversation reopened is between turns until its next prompt
        if (event === 'Stop' || event === 'StopFailure' || event === 'Interrupt') seen.turn_ended = true;
        else if (event !== 'SessionStart') delete seen.turn_ended;
        const proc = agentProcess();
        if (proc) seen.agent_process = proc;
      }
    };
    try {
      updateHookLog(logPath, log.worktree, record);
    } catch (e) {
      io.err(`baton: cannot write the hook log ${logPath}: ${(e as Error).message}`);
    }
    io.err(`baton: ${event || 'hook'}: ${r.note}`);
    return 0;
  };

  // an event no hook of Baton's answers (a name mistyped by hand) is skipped whatever its input: it is no failure that
  // the next hook of that name, which never comes, would clear
  if (!parsed.ok && (args.event === null || isHookEvent(event)))
    return finish({ outcome: 'failed', note: parsed.error, output: null });
  // a hook line edited by hand to name another agent: nothing is done in that agent's name
  if (args.agent !== null && args.agent !== 'claude-code' && args.agent !== 'codex')
    return finish({
      outcome: 'failed',
      note: `unknown agent "${args.agent}" (--agent takes claude-code or codex; \`baton init\` writes the hook lines)`,
      output: null,
    });
  if (!isHookEvent(event))
    return finish({
      outcome: 'skipped',
      note: `no hook handler for ${event || '(no event named)'} (Baton answers ${hookEventsFor(agent, null).join(', ')})`,
      output: null,
    });
  if (!parsed.ok) return finish({ outcome: 'failed', note: parsed.error, output: null });
  const p = parsed.payload;
  if (folder.missing && !worktree)
    return finish({
      outcome: 'skipped',
      note: `the session's folder ${folder.missing} does not exist here, and no git repository holds the folder above it`,
      output: null,
      ...(event === 'SessionStart'
        ? { tell: `Baton is not following this session: its folder ${folder.missing} does not exist` }
        : {}),
    });
  // A subagent's hooks (its own tool calls, task list and compactions) are not the session's: the transcript
  // import reads what the subagent returned to the session, as it leaves subagent transcripts out.
  if (p.subagent)
    return finish({
      outcome: 'skipped',
      note: `fired inside the subagent ${p.subagent.type ? `${p.subagent.type} ` : ''}${p.subagent.id}; Baton follows the main session`,
      output: null,
    });
  // A session `baton run` drives: the run follows its output, gives it its tasks and its context, and records what
  // it does; the hooks step back (else the run's prompt would be a user request, the agent's plan new workflow tasks,
  // and the context injected twice).
  const driven = io.env.BATON_RUN_WORKFLOW;
  if (driven)
    return finish({
      outcome: 'skipped',
      note: `this session is driven by \`baton run\` (workflow ${driven}), which records it`,
      output: null,
    });
  const spurious =
    agent === 'claude-code' && event === 'SessionStart'
      ? spuriousStartup(p.source, p.transcript_path, agentProcess())
      : null;
  // its twin, the resume event, runs at the same time: its record in the hook log is the one that counts
  if (spurious) return finish({ outcome: 'skipped', note: spurious, output: null, unlogged: true });
  // The cheap answers: a tool that is not a task-list tool, a Stop whose transcript and last message are not new (not a
  // SessionEnd: with nothing to import, it still ends the Baton session that follows the agent's).
  if (event === 'PostToolUse' && !(p.tool_name && isAgentTaskTool(p.tool_name)))
    return finish({
      outcome: 'skipped',
      note: `${p.tool_name ?? 'the tool'} is not a task-list tool`,
      output: null,
    });
  // A subagent's task list reported by a Claude Code that names no agent_id in tool hooks: its call is in a subagent's
  // file only, not the session's
  const subAgentFile =
    agent === 'claude-code' && event === 'PostToolUse' && p.transcript_path && p.tool_use_id
      ? subAgentFileOf(p.transcript_path, p.tool_use_id)
      : null;
  if (subAgentFile)
    return finish({
      outcome: 'skipped',
      note: `the call ${p.tool_use_id} is a subagent's (it is in ${subAgentFile}, not the session's transcript); Baton follows the main session`,
      output: null,
    });
  // A prompt since the last Stop: this Stop ends its turn, which the workflow records (a turn whose last response had
  // no words is then not taken for one cut off), so it is no cheap answer.
  const prompted =
    (log.events[hookRecordKey(agent, 'UserPromptSubmit')]?.at ?? '') >
    (log.events[hookRecordKey(agent, 'Stop')]?.at ?? '');
  if (event === 'Stop' && p.transcript_path && !prompted) {
    const seen = log.transcripts[p.transcript_path];
    if (
      seen &&
      seen.bytes === sizeOf(p.transcript_path) &&
      (lastMessage === null || lastMessage === seen.last_message)
    )
      return finish({
        outcome: 'nothing',
        note: `nothing new in the transcript since the last import (${seen.bytes} bytes, workflow ${seen.workflow_id})`,
        output: null,
      });
  }

  let budget: ReturnType<typeof hookBudget>;
  try {
    budget = hookBudget(agent, event, io.env);
  } catch (e) {
    return finish({ outcome: 'failed', note: errorLine(e), output: null });
  }
  // the budget counts from the process's start (the agent's timeout does), its start-up and the input read included
  const left = Math.max(0, budget.ms - process.uptime() * 1000);
  const timer = setTimeout(() => {
    finish({
      outcome: 'timeout',
      note: `no answer within ${budget.ms / 1000} s${budget.why ? ` (${budget.why})` : ''}; what it did so far is kept`,
      output: null,
    });
    process.exit(0);
  }, left);
  timer.unref();
  try {
    await interpretSchemas();
    const { runHookEvent } = await import('./hook-run.js');
    const missed = event === 'UserPromptSubmit' ? missedBriefing(log.events, agent) : null;
    const r = await runHookEvent(
      event,
      p,
      agent,
      worktree,
      args,
      io,
      io.env,
      log.transcripts,
      missed,
      unansweredSince,
      outage,
      // a write waiting for a SQLite lock blocks the timer above: it gives up in time for the hook to answer why
      Date.now() + left - ANSWER_MS,
    );
    return finish({ ...r, reached: true });
  } catch (e) {
    const failure = errorLine(e);
    const output =
      event === 'SessionStart'
        ? {
            hookSpecificOutput: {
              hookEventName: 'SessionStart',
              additionalContext: `Baton could not load this workflow's context (${failure}). Tell the user to run \`baton doctor\` in this repository.`,
            },
          }
        : null;
    // a BatonError's details (read by their shape: this file stays small)
    const details = (e as { details?: { unanswered?: unknown; cause?: unknown; database?: unknown } })
      .details;
    const damaged =
      details?.cause === 'damaged' && typeof details.database === 'string'
        ? { damaged: details.database }
        : {};
    const unanswered = details?.unanswered === true ? { unanswered: true as const } : {};
    // a store or server out of reach loses nothing the agent wrote: said, as a hook that did not wait for one says it
    const outOfReach =
      (e as { code?: unknown }).code === 'unavailable' && !/answers again/.test(failure)
        ? event === 'SessionStart'
          ? '; nothing is lost: the briefing comes with the next prompt once it answers again'
          : "; nothing is lost: the session's transcript is read once it answers again"
        : '';
    return finish({
      outcome: 'failed',
      note: `${failure}${outOfReach}`,
      output,
      ...unanswered,
      ...damaged,
      ...((e as { code?: unknown }).code === 'unavailable' ? { unreachable: true as const } : {}),
    });
  } finally {
    clearTimeout(timer);
  }
}

export async function readProcessStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const line = (t: string) => (t.endsWith('\n') ? t : `${t}\n`);

/** The process's own hook IO (bin/baton.js calls this for `baton hook ...` without loading the whole CLI). */
export function hookMain(argv: string[]): Promise<number> {
  return runHookCommand(argv, {
    out: (t) => process.stdout.write(line(t)),
    err: (t) => process.stderr.write(line(t)),
    readStdin: readProcessStdin,
    env: process.env,
    cwd: process.cwd(),
  });
}
