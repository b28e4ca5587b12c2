import { isAgentTaskTool, planInCell } from '../core/agent-tasks/agent-task-calls.js';
import {
  callCommands,
  describeCall,
  LEFT_RUNNING,
  NEVER_RETURNED,
  oneLineCommand,
  SPOKE_AFTER,
} from '../core/call-text.js';
import { clip, clipEnds } from '../core/clip.js';
import { createsPr, openedPrs } from '../core/pull-requests.js';
import { heredoc } from '../core/heredoc.js';
import { isContextFull, isLimitNotice, isUsageLimit } from '../core/runtime/usage-limit.js';
import { stillRunning } from './background-commands.js';
import { isRelayed } from './relayed-message.js';
import { sessionOf } from './codex/codex-output.js';
import { answersIn, subAgentsOfTurn } from './sub-agent-answers.js';
import type { TranscriptEntry } from './transcript-types.js';
import { isUserInterruption } from './user-interruption.js';

/**
 * What the agent's own words say of where it stands, read from a transcript's entries: the summaries a compaction
 * left, its last message (with what the calls after it came to, those that never returned, and what the sub-agents of
 * its unfinished turn found), the usage-limit notice it stopped on and the user's interruption of its last turn.
 * A transcript a hook or `baton import` reads and the output `baton run` reads from its agent (live, or from the task
 * log after a crash) are read here alike, so both record the same summaries.
 */
export interface AgentSummary {
  line: number;
  at: string | null;
  kind: 'compaction' | 'last_message' | 'usage_limit' | 'api_error' | 'interrupted' | 'sub_agent';
  text: string;
  /** A last message: whether the turn ended on it (no tool call, no interruption after it). */
  turn_ended?: boolean;
  /** A last message the agent never said: cut off before it said anything (the text names the calls left open). */
  said_nothing?: boolean;
  /**
   * A last message followed by calls (named in its text: those that returned, as what came of them is newer than its
   * words, and those that never did): the line of the last of them or of their results. A piece of the transcript
   * read after the message was imported, which holds such a call or result, changes what the message says.
   */
  open_through?: number;
}

/**
 * A message the user typed (not one queued into the agent's turn, nor their interruption, nor one another agent sent
 * and Claude Code wrote as the user's): a turn of its own.
 */
const startsTurn = (e: TranscriptEntry) =>
  e.role === 'user' && e.kind === 'text' && !e.queued && !isUserInterruption(e) && !isRelayed(e.text);

/** Where the turn holding entry `at` began: the index of the user's request before it, or -1 (from the first entry). */
const turnStartBefore = (entries: readonly TranscriptEntry[], at: number) =>
  entries.slice(0, at).findLastIndex((e) => !e.sidechain && startsTurn(e));

/**
 * The calls after the agent's last word that never returned: the transcript ends while they ran (a crash, a quit, a
 * kill), so whether they took effect is unknown. At most three, each shown by both ends. A call the user's next
 * request came after (the conversation resumed after a crash) is not one: the transcript went on past it. A poll that
 * read a command's output (Codex's `write_stdin`) returned; a command whose last output said it still ran did not.
 */
function unanswered(
  entries: readonly TranscriptEntry[],
  after: number,
): { calls: string[]; through: number } {
  const rest = entries.slice(after + 1).filter((e) => !e.sidechain);
  const answered = new Set<string>();
  for (const e of rest) {
    if (e.kind !== 'tool_result' || !e.tool?.id) continue;
    if (e.tool.running === true) answered.delete(e.tool.id);
    else answered.add(e.tool.id);
    if (e.tool.polled_by) answered.add(e.tool.polled_by);
  }
  const lastTurn = rest.slice(rest.findLastIndex(startsTurn) + 1);
  const open = lastTurn.filter(
    (e) => e.kind === 'tool_call' && e.tool?.id && !answered.has(e.tool.id) && !setsPlan(e),
  );
  // a poll (Codex's write_stdin) waits on a command: while one is open, the command names what was under way
  const polls = open.filter((e) => sessionOf(e.tool?.name ?? null, e.tool?.input) !== null);
  const named = polls.length < open.length ? open.filter((e) => !polls.includes(e)) : open;
  return {
    calls: named.map((e) => callInWords(e, 160)).slice(0, 3),
    through: open.at(-1)?.line ?? -1,
  };
}

/** A wait's answer that it ran out of time: Codex's collaboration tools answer `{"timed_out": true, ...}`. */
const timedOut = /^\s*\{[^]*"timed_out"\s*:\s*true\b/;

/** The calls after the agent's last word that returned, named in its last state: at most this many, the latest. */
const AFTER_CALLS = 4;

/**
 * What the calls the agent made after its last word came to, when its turn went on (`After it: ...`): their outcomes
 * are newer than its words ("that's likely the issue. Let me set aggressive timeouts", then the timing still 1.1 s).
 * The latest few of the message's turn, each once with how many times it ran in a row, whether it worked (a command by
 * its exit status: "exited 1" is no failure of `rg`; one that carries none, as a Codex code-mode cell's, by what its
 * output says, read as the error extraction reads it: `failed`), and how the last one's output ended when it ran a
 * command. Null when none returned.
 */
function afterWord(
  entries: readonly TranscriptEntry[],
  after: number,
  judges: Judges,
  lead = 'After it',
): { text: string; through: number } | null {
  const rest = entries.slice(after + 1).filter((e) => !e.sidechain);
  const end = rest.findIndex(startsTurn);
  const turn = end < 0 ? rest : rest.slice(0, end);
  const results = new Map<string, TranscriptEntry>();
  for (const e of turn) {
    if (e.kind !== 'tool_result' || !e.tool?.id || e.tool.running === true) continue;
    results.set(e.tool.id, e);
  }
  // a code-mode cell whose commands Codex recorded apart is said by them, not again by itself (unless it failed)
  const apart = (r: TranscriptEntry | undefined) =>
    r?.tool?.commands_apart === true && r.tool.is_error !== true;
  const done = onePerPr(
    turn.filter(
      (e) =>
        e.kind === 'tool_call' &&
        e.tool?.id &&
        results.has(e.tool.id) &&
        !apart(results.get(e.tool.id)) &&
        !setsPlan(e),
    ),
    results,
  );
  const last = done.at(-1);
  if (!last) return null;
  const runs: { said: string; n: number }[] = [];
  for (const call of done) {
    const result = results.get(call.tool?.id ?? '');
    // a command's status is said as it is (`rg` exits 1 finding nothing, a question answered), a tool's error as failed
    const code = result?.tool?.exit_code ?? 0;
    const what = callInWords(call, 120);
    // a wait that ran out of time (Codex's wait_agent: `"timed_out": true`) neither worked nor failed
    // a call the user declined neither worked nor failed: said as the error extraction says it, no failure to fix
    const outcome =
      result && judges.declined?.(result)
        ? 'declined by the user'
        : code !== 0
          ? `exited ${code}`
          : result?.tool?.is_error === true
            ? 'failed'
            : timedOut.test(result?.text ?? '')
              ? 'timed out'
              : verdict(call, result, judges.failed);
    const said = `\`${what}\` ${outcome}`;
    if (runs.at(-1)?.said === said) (runs.at(-1) as { n: number }).n += 1;
    else runs.push({ said, n: 1 });
  }
  const shown = runs.slice(-AFTER_CALLS);
  const before = runs.slice(0, -AFTER_CALLS).reduce((n, r) => n + r.n, 0);
  // a command's output ends on its verdict (a timing, a summary line); a file read or written ends on its content
  // (the text editor tool's `command: 'view'` names a file: no shell command)
  const input = last.tool?.input as { command?: unknown; cmd?: unknown; path?: unknown } | null;
  const shell =
    input?.path === undefined &&
    (typeof input?.command === 'string' || typeof input?.cmd === 'string' || Array.isArray(input?.cmd));
  const ending = (shell ? (results.get(last.tool?.id ?? '')?.text ?? '') : '')
    .split('\n')
    .map((l) => l.trim())
    // a rule or a closing bracket (`---`, `}`) ends many outputs and says nothing of them, nor does the note Claude
    // Code adds when a command left the project's folder ("Shell cwd was reset to /w/app")
    .filter((l) => /[\p{L}\p{N}]/u.test(l) && !/^Shell cwd was reset to /.test(l))
    .at(-1);
  const parts = shown.map((r) => (r.n > 1 ? `${r.said} (${r.n} times)` : r.said));
  const tail = ending ? `, its output ending: ${clipEnds(ending, 160)}` : '';
  const earlier = before ? ` (after ${before} earlier call${before === 1 ? '' : 's'})` : '';
  // what it says changes with a result as much as with a call: a piece holding only a result takes back "never returned"
  const through = Math.max(last.line, ...done.map((c) => results.get(c.tool?.id ?? '')?.line ?? -1));
  return { text: `${lead}${earlier}: ${parts.join('; ')}${tail}`, through };
}

/**
 * The calls with one per pull request opened: a call that opened one already opened (by its address: `gh pr create`,
 * then a GitHub MCP tool answering with the same pull request) is left out, and so is one made to open a pull request
 * whose answer names none right beside one that names it (a Codex code-mode cell calling the MCP tool prints "Action
 * completed.", the tool's call Codex records beside it the address).
 */
function onePerPr(
  calls: TranscriptEntry[],
  results: ReadonlyMap<string, TranscriptEntry>,
): TranscriptEntry[] {
  const outcomes = calls.map((call) => {
    const result = results.get(call.tool?.id ?? '');
    const code = result?.tool?.exit_code ?? 0;
    const outcome = {
      tool: call.tool?.name ?? 'tool',
      input: call.tool?.input,
      commands: callCommands(
        call.tool?.name ?? null,
        call.tool?.input,
        result?.tool?.commands_apart === true,
      ),
      output: result?.text ?? '',
      failed: code !== 0 || result?.tool?.is_error === true,
    };
    return { creates: createsPr(outcome), opened: openedPrs(outcome) };
  });
  const seen = new Set<string>();
  return calls.filter((_, i) => {
    const { creates, opened } = outcomes[i] as { creates: boolean; opened: string[] };
    if (opened.length > 0) {
      const again = opened.every((url) => seen.has(url));
      for (const url of opened) seen.add(url);
      return !again;
    }
    const beside = [outcomes[i - 1], outcomes[i + 1]].some((o) => (o?.opened.length ?? 0) > 0);
    return !(creates && beside);
  });
}

/**
 * How the error extraction reads a result (extraction/rules/errors/failure.ts `failed`): whether it shows its call
 * failing, also when it carries no exit code ("zsh:2: command not found: hk" printed by a Codex code-mode cell). It
 * lives in the extraction layer, which this one may not import: its reader passes it.
 */
export type Judge = (result: TranscriptEntry) => boolean;

/** How the error extraction reads a result: whether it failed, and whether the user declined its call. */
export interface Judges {
  failed?: Judge;
  declined?: Judge;
}

/**
 * Whether a call that exited 0 or carries no exit code, and no error flag, worked: as the error extraction reads its
 * result, so the briefing's Errors and its last calls say the same (`baton run` reading its agent's output live is
 * given it by the edge that runs agents: agent-profiles.ts `driverFor`). Without that reading, a command that carries
 * no exit code is said to have returned, with no verdict.
 */
function verdict(call: TranscriptEntry, result: TranscriptEntry | undefined, failed: Judge | undefined) {
  if (result && failed) return failed(result) ? 'failed' : 'worked';
  const command = callCommands(call.tool?.name ?? null, call.tool?.input).length > 0;
  return command && (result?.tool?.exit_code ?? null) === null ? 'returned' : 'worked';
}

/**
 * A call that sets the agent's own plan or task list (update_plan, TodoWrite, TaskCreate, a Codex code-mode cell that
 * calls `tools.update_plan` and runs no command): the briefing shows that list under its own heading, so it is no call
 * to name among the work.
 */
function setsPlan(call: TranscriptEntry): boolean {
  const name = call.tool?.name ?? '';
  if (isAgentTaskTool(name)) return true;
  const input = call.tool?.input;
  return name === 'exec' && planInCell(input) !== null && callCommands(name, input).length === 0;
}

/**
 * A call on one line, as the briefing's errors name a command (`oneLineCommand`: its lines joined with "; ", a line
 * continued with a space), its here-documents by their first lines, cut to `max` characters keeping both ends.
 */
const callInWords = (call: TranscriptEntry, max: number) =>
  clipEnds(
    oneLineCommand(byFirstLines(describeCall(call.tool?.name ?? null, call.tool?.input)))
      .replace(/\s+/g, ' ')
      .trim(),
    max,
  );

/**
 * A call's here-documents cut to their first line: a commit message's subject (Claude Code writes every message as
 * one: `git commit -F - <<'EOF'`), a PR's title line. It is what tells whether the call ran (`git log` shows the
 * subject); the body and its trailers would take the room of both ends, the subject cut in the middle.
 */
function byFirstLines(call: string): string {
  return call.replace(heredoc, (_, opening: string, _q: string, tag: string, body: string) => {
    const lines = body.split('\n').filter((l) => l.trim());
    // on one line: its body is no command of the line (joined with "; " as the commands are)
    return `${opening} ${lines[0]?.trim() ?? ''}${lines.length > 1 ? ' …' : ''} ${tag}`;
  });
}

/**
 * The user's message after the agent's last word (entry `at`), in a turn the agent had said nothing in yet, with
 * what the calls of that turn came to (`Then the user said "...", and the agent's calls on it, with no word yet:
 * ...`), or that it made calls that had not returned (named after it). Null when no turn of the user's came after it,
 * or the agent made no call in it.
 */
function spokeAfter(
  entries: readonly TranscriptEntry[],
  at: number,
  judges: Judges,
): { text: string; through: number } | null {
  const start = entries.findLastIndex((e, j) => j > at && !e.sidechain && startsTurn(e));
  if (start < 0) return null;
  const calls = entries.slice(start + 1).some((e) => !e.sidechain && e.kind === 'tool_call' && !setsPlan(e));
  if (!calls) return null;
  // their words, on one line and short (the Goal or What to Do Next has them whole)
  const said = `${SPOKE_AFTER}${clip((entries[start] as TranscriptEntry).text.replace(/\s+/g, ' ').trim(), 80)}"`;
  const done = afterWord(entries, start, judges, `${said}, and the agent's calls on it, with no word yet`);
  return done ?? { text: `${said}, and the agent made calls on it, with no word yet.`, through: -1 };
}

/** Whether the agent's turn went on after entry `at` (a tool call) or the user stopped it (user-interruption.ts). */
function wentOn(entries: readonly TranscriptEntry[], at: number): boolean {
  return entries.slice(at + 1).some((e) => !e.sidechain && (e.kind === 'tool_call' || isUserInterruption(e)));
}

/** A session whose transcript ends on calls that never returned, the agent silent from its first line. */
const CUT_OFF_SILENT = 'The session was cut off before the agent said anything.';

/** A notice Claude Code writes in the agent's place: a usage limit's, a full context's, an API error's. */
export const isNotice = (text: string) =>
  isLimitNotice(text) || (text.length <= 300 && (isContextFull(text) || /^API Error\b/i.test(text)));

/**
 * The agent's last word in these entries: its last message, or a headless run's final result, with the calls it
 * made after it that never returned, and whether its turn ended on it. `fromStart`: the entries hold the transcript
 * from its first line, so none of the agent's words came before them.
 */
function lastMessage(
  entries: readonly TranscriptEntry[],
  fromStart: boolean,
  judges: Judges,
): AgentSummary | null {
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const e = entries[i] as TranscriptEntry;
    if (e.sidechain) continue;
    if ((e.role === 'assistant' && e.kind === 'text') || e.kind === 'result') {
      const said = e.text.trim();
      // a notice in the agent's place (stream-json writes Claude Code's as the agent's text) is no word of the agent's:
      // a limit's, a full context's ("Prompt is too long"), an API error's
      if (!said || isNotice(said)) continue;
      const open = unanswered(entries, i);
      // a sub-agent's answer after it starts the agent's next turn (a Claude Code background agent's notification)
      const answeredAfter = entries.slice(i + 1).some((x) => answersIn(x).length > 0);
      // a message said on its way (Codex's commentary) is followed by more of the turn, read or not yet
      const ended = { turn_ended: !wentOn(entries, i) && e.commentary !== true && !answeredAfter };
      const since = ended.turn_ended ? null : afterWord(entries, i, judges);
      // the user spoke again after it and the agent worked on that without a word (the session cut off in that turn):
      // the message is not its answer to them, and what those calls came to is newer than it
      const spoke = spokeAfter(entries, i, judges);
      // the turn's sub-agents: what they found, which an unfinished turn had not yet reported on, and who had not
      // answered (a turn may end waiting for them)
      const answers = subAgentsOfTurn(entries, turnStartBefore(entries, i), {
        ended: ended.turn_ended,
        message: e.line,
      });
      // commands of the turn left running in the background, whose end the transcript never shows
      const background = stillRunning(entries, turnStartBefore(entries, i), i);
      const text = [
        said,
        since?.text,
        answers?.text,
        background.calls.length ? runningInBackground(background.calls) : null,
        spoke?.text,
        open.calls.length ? neverReturned(open.calls) : null,
      ]
        .filter(Boolean)
        .join('\n\n');
      const through = Math.max(
        open.calls.length ? open.through : -1,
        since?.through ?? -1,
        spoke?.through ?? -1,
        answers?.through ?? -1,
        background.through,
      );
      if (through < 0) return { line: e.line, at: e.at, kind: 'last_message', text: said, ...ended };
      return { line: e.line, at: e.at, kind: 'last_message', text, ...ended, open_through: through };
    }
  }
  // a turn of calls only, cut off (a Codex turn that had said nothing yet): what was running is its last state
  const open = unanswered(entries, -1).calls;
  const call = [...entries].reverse().find((e) => e.kind === 'tool_call' && !e.sidechain);
  if (!call) return null;
  const last = { line: call.line, at: call.at, kind: 'last_message', turn_ended: false } as const;
  // the whole transcript holds no word of the agent's: there is no last message to point back to; when it ends on
  // the results of its calls, what they came to (a piece read after a message tells nothing new that way)
  const returned = fromStart && !open.length ? callsOfLastTurn(entries, judges) : null;
  // said as of the last result, so what it came to (a test run) is not newer than it
  if (returned)
    return {
      ...last,
      line: returned.end.line,
      at: returned.end.at,
      text: `${CUT_OFF_SILENT} ${returned.text}`,
      said_nothing: true,
      open_through: returned.through,
    };
  if (!open.length) return null;
  if (fromStart) return { ...last, text: `${CUT_OFF_SILENT} ${neverReturned(open)}`, said_nothing: true };
  return { ...last, text: `No message since the last one. ${neverReturned(open)}` };
}

/**
 * What the calls of the last turn came to, when the entries end on their results, the agent silent in that turn and
 * the user not stopping it: the turn was cut off between a result and the agent's next word. Null otherwise.
 */
function callsOfLastTurn(
  entries: readonly TranscriptEntry[],
  judges: Judges,
): { text: string; through: number; end: TranscriptEntry } | null {
  const end = entries.filter((e) => !e.sidechain).at(-1);
  if (end?.kind !== 'tool_result' || isUserInterruption(end)) return null;
  const said = afterWord(entries, turnStartBefore(entries, entries.length), judges, 'Its last calls');
  return said ? { ...said, end } : null;
}

const runningInBackground = (calls: string[]) => `${LEFT_RUNNING} ${calls.map((c) => `\`${c}\``).join('; ')}`;

const neverReturned = (open: string[]) =>
  `${NEVER_RETURNED} ${open.length === 1 ? 'this call' : 'these calls'} returned (check whether ${open.length === 1 ? 'it' : 'they'} ran): ${open.map((c) => `\`${c}\``).join('; ')}`;

/**
 * The API error the agent stopped on, with nothing of the agent's after it: a usage limit's notice (an API error
 * saying a limit: Claude Code's synthetic message, Codex's error event, a notice written as the agent's text), or
 * another API error (overloaded, a server error, a dropped connection), after which the turn's request may not have
 * been carried out. One it went on from (a retry that worked) is over, and not said.
 */
function stoppedOnApiError(entries: readonly TranscriptEntry[]): AgentSummary | null {
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const e = entries[i] as TranscriptEntry;
    if (e.sidechain) continue;
    if (
      (e.kind === 'error' && isUsageLimit(e.text)) ||
      (e.role === 'assistant' && e.kind === 'text' && isLimitNotice(e.text))
    )
      return { line: e.line, at: e.at, kind: 'usage_limit', text: e.text.trim() };
    if (e.kind === 'error' && e.text.trim())
      return { line: e.line, at: e.at, kind: 'api_error', text: e.text.trim() };
    const agent =
      (e.role === 'assistant' && e.kind === 'text') || e.kind === 'tool_call' || e.kind === 'result';
    if (agent && e.text.trim()) return null;
  }
  return null;
}

/**
 * The user's interruption the entries end on: they stopped the agent's last turn (Esc, Ctrl-C) before it ended, and
 * the agent did nothing since. Its text is the marker; the turn's request is the latest one recorded before it. A
 * request typed after it starts a turn of its own, which the records' requests show (core/interrupted-turn.ts).
 */
function stoppedByUser(entries: readonly TranscriptEntry[]): AgentSummary | null {
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const e = entries[i] as TranscriptEntry;
    if (e.sidechain) continue;
    if (isUserInterruption(e)) return { line: e.line, at: e.at, kind: 'interrupted', text: e.text.trim() };
    const agent =
      (e.role === 'assistant' && (e.kind === 'text' || e.kind === 'thinking')) ||
      e.kind === 'tool_call' ||
      e.kind === 'result';
    if (agent && e.text.trim()) return null;
  }
  return null;
}

/** The most of a sub-agent's answer kept (a review's findings fit; a pasted log is cut in the middle). */
const SUB_AGENT_CHARS = 12_000;

/**
 * Every compaction summary and every sub-agent's answer, then the agent's last message (each kept whole), then the API
 * error (a usage limit's notice or another) and the user's interruption the entries end on, when they do.
 * `fromStart`: the entries begin at the transcript's first line (not a piece after an earlier import), so what the
 * agent did not say in them it never said. `failed`, `declined`: how the error extraction reads a result (`Judges`), by
 * which the last calls are said to have worked, failed or been declined by the user.
 */
export function agentSummaries(
  entries: readonly TranscriptEntry[],
  opts: { fromStart?: boolean } & Judges = {},
): AgentSummary[] {
  const compactions = entries
    .filter((e) => e.kind === 'summary' && !e.sidechain && e.text.trim())
    .map((e): AgentSummary => ({ line: e.line, at: e.at, kind: 'compaction', text: e.text.trim() }));
  const answers = entries.flatMap((e) =>
    answersIn(e).map((a): AgentSummary => ({
      line: a.line,
      at: e.at,
      kind: 'sub_agent',
      text: clipEnds(`${a.agent}: ${a.text}`, SUB_AGENT_CHARS),
    })),
  );
  const last = lastMessage(entries, opts.fromStart === true, opts);
  const limit = stoppedOnApiError(entries);
  const stopped = stoppedByUser(entries);
  return [
    ...compactions,
    ...answers,
    ...(last ? [last] : []),
    ...(limit ? [limit] : []),
    ...(stopped ? [stopped] : []),
  ];
}
