import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import type { ErrorDraft } from '../../extractor.js';
import { commandParts, shellCommands } from '../shell-command.js';
import { causeOf, explainsFailure } from './cause-line.js';

/**
 * Failing CI checks the agent read with the GitHub CLI (`gh pr checks`, `gh pr view --json statusCheckRollup`,
 * `gh run list/view/watch`, `gh run view --log-failed`): the command succeeds, the checks it reports failed. That is
 * an error of the work even with exit code 0. One error per turn (a turn's several looks at the same red CI are one
 * problem), said with the line of a failed job's log that explains it when the turn read one; fixed when a later
 * report shows a check of the same name passing, or when that check's next failure has another cause (the job got
 * past it: the push that fixed it moved the failure on).
 */

type Status = 'fail' | 'pass';
const failWord = /^(?:failure|failed|fail|timed_out|error)$/i;
const passWord = /^(?:success|pass|passed)$/i;

function statusOf(word: string): Status | null {
  if (failWord.test(word)) return 'fail';
  if (passWord.test(word)) return 'pass';
  return null;
}

/**
 * Check names with their status, from gh's JSON objects, its tab-separated tables (`gh pr checks`, `gh run list`) or
 * `name: STATE` lines; one per name, the first listed (the newest run of a workflow).
 */
export function ciChecks(output: string): { name: string; status: Status }[] {
  const out: { name: string; status: Status }[] = [];
  for (const m of output.matchAll(/\{[^{}]*\}/g)) {
    const obj = m[0];
    const name = /"(?:name|workflowName)"\s*:\s*"([^"]+)"/.exec(obj)?.[1];
    const word = /"(?:conclusion|state|bucket)"\s*:\s*"(\w+)"/.exec(obj)?.[1];
    const status = word ? statusOf(word) : null;
    if (name && status) out.push({ name, status });
  }
  for (const m of output.matchAll(/^([^\t\n]{1,80})\t(fail|pass)\t/gm))
    out.push({ name: (m[1] ?? '').trim(), status: m[2] === 'fail' ? 'fail' : 'pass' });
  for (const m of output.matchAll(/^([\w .()/-]{1,80}): (FAILURE|SUCCESS|fail|pass)\s*$/gm)) {
    const status = statusOf(m[2] ?? '');
    if (status) out.push({ name: (m[1] ?? '').trim(), status });
  }
  // `gh run list` as a table: STATUS, CONCLUSION, TITLE, WORKFLOW, BRANCH, EVENT, ID, ELAPSED, AGE
  for (const m of output.matchAll(/^completed\t(\w*)\t[^\t\n]*\t([^\t\n]{1,80})\t/gm)) {
    const status = statusOf(m[1] ?? '');
    if (status) out.push({ name: (m[2] ?? '').trim(), status });
  }
  // `gh run view` / `gh run watch` for a person: a job per line, `X Deploy app in 1m3s (ID 99163574759)` (its steps
  // are indented under it, without a time and an ID)
  for (const m of output.matchAll(/^([✓X✗×]) (.{1,80}?) in [\dhms ]+\(ID \d+\)\s*$/gmu))
    out.push({ name: (m[2] ?? '').trim(), status: m[1] === '✓' ? 'pass' : 'fail' });
  // gh lists runs newest first: a workflow's older runs are history, its newest one says how it stands
  const seen = new Set<string>();
  return out.filter((c) => !seen.has(c.name) && seen.add(c.name));
}

/** The command of a tool result that reads CI with the GitHub CLI (`gh pr checks 12`, `gh run view`, ...). */
export const ciCommandOf = (e: TranscriptEntry): string | null =>
  shellCommands(e)
    .flatMap((c) => commandParts(c))
    .find((p) => /^gh (?:pr (?:checks|view)|run (?:list|view|watch))\b/.test(p)) ?? null;

const readsCi = (e: TranscriptEntry) => ciCommandOf(e) !== null;

/**
 * What `gh run view --log-failed` printed (the logs of failed steps only, `job<TAB>step<TAB>time message` a line, kept
 * through a grep or sed): the jobs that failed, and the line of their log that explains the failure.
 */
export function failedJobLogs(output: string): { jobs: string[]; cause: string | null } {
  const jobs = new Set<string>();
  const messages: string[] = [];
  for (const m of output.matchAll(/^(?:\d+[:-])?([^\t\n]{1,80})\t[^\t\n]{1,120}\t(?:\S+Z )?(.*)$/gm)) {
    jobs.add((m[1] ?? '').trim());
    messages.push((m[2] ?? '').replace(/^(?:#\d+ )?(?:\d+\.\d+ )?/, ''));
  }
  // a log cut before its error (a long one, or read through a filter) has no cause: a later read may say it
  const cause = messages.length ? causeOf(messages.join('\n')) : '';
  return { jobs: [...jobs], cause: cause && explainsFailure(cause) ? cause : null };
}

/** A cause as a run says it, without what changes from run to run: times, counts, run and step numbers, hashes. */
const causeShape = (cause: string) => cause.replace(/\b[0-9a-f]*\d[0-9a-f]*\b/gi, '#').replace(/\s+/g, ' ');

const readsFailedLogs = (e: TranscriptEntry) =>
  shellCommands(e).some((c) => /\bgh run view\b[^|;&]*--log-failed\b/.test(c));

/**
 * The checks a CI report (a tool result that `readsCi`) names with their status, a failed job's log counting as its
 * job failing, and that log's cause: what the errors and the CI state both read of it.
 */
export function reportedChecks(e: TranscriptEntry): {
  checks: { name: string; status: Status }[];
  cause: string | null;
} {
  const logs = readsFailedLogs(e) ? failedJobLogs(e.text) : { jobs: [], cause: null };
  return {
    checks: [...ciChecks(e.text), ...logs.jobs.map((name) => ({ name, status: 'fail' as const }))],
    cause: logs.cause,
  };
}

const pendingWord = /^(?:pending|queued|in_progress|waiting|requested|expected|action_required)$/i;

/**
 * Whether a CI report lists a check still running: gh's JSON (`"bucket": "pending"`, `"state": "IN_PROGRESS"`, a job's
 * `"status": "queued"`), its tables (`gh pr checks`: `name<TAB>pending<TAB>`; `gh run list`: `in_progress<TAB>`), a
 * `name: IN_PROGRESS` line (a `--jq` of names and states), or a
 * job gh prints for a person without a result (`* build (ID 87532975419)`). Such a report says nothing yet of how CI
 * stands, unless a check of it failed already.
 */
export function listsPending(output: string): boolean {
  for (const m of output.matchAll(/\{[^{}]*\}/g)) {
    const words = [...m[0].matchAll(/"(?:bucket|state|status)"\s*:\s*"(\w+)"/g)].map((w) => w[1] ?? '');
    if (words.some((w) => pendingWord.test(w))) return true;
  }
  return (
    /^[^\t\n]{1,80}\tpending\t/m.test(output) ||
    /^[\w .()/-]{1,80}: (?:IN_PROGRESS|PENDING|QUEUED|WAITING|EXPECTED|pending)\s*$/m.test(output) ||
    /^(?:in_progress|queued|pending|waiting|requested)\t/m.test(output) ||
    /^\* .{1,80}? \(ID \d+\)\s*$/mu.test(output)
  );
}

/** How a failure of checks is said: the checks, and the line of a failed job's log that explains it. */
const ciMessage = (names: Iterable<string>, cause: string | null) =>
  `CI check failed: ${[...names].join(', ')}${cause ? `: ${cause}` : ''}`;

/** What a ci_failure's message says (as ciMessage said it): the checks that failed, and why when a log said it. */
export function ciFailureOf(message: string): { names: string[]; cause: string | null } | null {
  const m = /^CI check failed: (.+?)(?:: ([\s\S]+))?$/.exec(message);
  if (!m) return null;
  return { names: (m[1] ?? '').split(', '), cause: m[2] ?? null };
}

/** A failure of checks being followed: what it names, why it failed, and what fixed it once something did. */
interface Tracked {
  names: Set<string>;
  cause: string | null;
  message: string;
  fix: { notes: string; line: number } | null;
  draft?: ErrorDraft;
}

/**
 * Reads the CI reports of `entries` in order: drafts a failure of a turn's checks (one error per turn), and fixes any
 * failure followed (`followed`: ones an earlier import recorded, and those drafted here) when a check it names passes
 * later or fails again for another cause. One import of a whole transcript and an import of its later lines with the
 * earlier failures followed decide alike.
 */
function followCi(
  entries: readonly TranscriptEntry[],
  taskId: string | null,
  followed: Tracked[],
): ErrorDraft[] {
  const out: ErrorDraft[] = [];
  let open: Tracked | null = null;
  const all: Tracked[] = [...followed];
  const fixed = (err: Tracked, notes: string, line: number) => {
    err.fix = { notes, line };
  };
  /** The earlier failures of a check this one names that it failed for another cause: the job got past them. */
  const movedOn = (now: Tracked, line: number) => {
    for (const err of all)
      if (err !== now && !err.fix && err.cause && now.cause) {
        const name = [...err.names].find((n) => now.names.has(n));
        if (name && causeShape(err.cause) !== causeShape(now.cause))
          fixed(
            err,
            `check ${name} got past it: its next failure has another cause (transcript line ${line})`,
            line,
          );
      }
  };
  for (const e of entries) {
    if (e.sidechain) continue;
    if (e.role === 'user' && e.kind === 'text' && !e.queued) open = null;
    if (e.kind !== 'tool_result' || !readsCi(e)) continue;
    const { checks, cause } = reportedChecks(e);
    for (const check of checks.filter((c) => c.status === 'pass'))
      for (const err of all)
        if (!err.fix && err.names.has(check.name))
          fixed(err, `check ${check.name} passed later (transcript line ${e.line})`, e.line);
    const failing = [...new Set(checks.filter((c) => c.status === 'fail').map((c) => c.name))];
    if (failing.length === 0) continue;
    if (open) {
      for (const name of failing) open.names.add(name);
      // the turn's first look named the checks; a failed job's log read after it says why
      if (cause && !open.cause) {
        open.message = ciMessage(open.names, cause);
        open.cause = cause;
        movedOn(open, e.line);
      }
      continue;
    }
    const draft: ErrorDraft = {
      task_id: taskId,
      error_type: 'ci_failure',
      error_message: '',
      context: null,
      resolution: 'unresolved',
      resolution_notes: null,
      at: e.at,
      evidence_line: e.line,
    };
    open = {
      names: new Set(failing),
      cause,
      message: ciMessage(failing, cause),
      fix: null,
      draft,
    };
    all.push(open);
    out.push(draft);
    movedOn(open, e.line);
  }
  for (const err of all)
    if (err.draft) {
      err.draft.error_message = err.message;
      if (err.fix) {
        err.draft.resolution = 'fixed';
        err.draft.resolution_notes = err.fix.notes;
      }
    }
  return out;
}

export function findCiFailures(entries: readonly TranscriptEntry[], taskId: string | null): ErrorDraft[] {
  return followCi(entries, taskId, []);
}

/**
 * What fixes a CI failure an earlier import recorded (its message says the checks and the cause) among later entries,
 * as findCiFailures would have fixed it had one import read them all: a check it names passing, or failing for another
 * cause. Null when nothing does yet, or the message is not a CI failure's.
 */
export function ciFixOf(
  message: string,
  entries: readonly TranscriptEntry[],
): { notes: string; line: number } | null {
  const said = ciFailureOf(message);
  if (!said) return null;
  const earlier: Tracked = { names: new Set(said.names), cause: said.cause, message, fix: null };
  followCi(entries, null, [earlier]);
  return earlier.fix;
}
