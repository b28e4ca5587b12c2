import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { fixedAtOnce } from '../../../core/fixed-at-once.js';
import type { Evidence } from '../../../core/schemas/records.js';
import type { ErrorDraft } from '../../extractor.js';
import { ciFixOf } from './ci-checks.js';
import { fateOf, findErrors } from './error-rules.js';
import { succeeded, wentOn } from './failure.js';
import { coversTests, sameStep, shellCommand, testCommand } from '../shell-command.js';

export interface OpenError {
  id: string;
  error_type: string;
  error_message: string;
  /** Where it was seen (a transcript and its line), when it was read from one. */
  evidence?: Evidence;
  /** How it stands when not open: a workaround (or a deferral) a later fix may still turn into a fix. */
  resolution?: string;
  /** When it happened (the transcript's time), when known. */
  timestamp?: string;
}

export interface LaterResolution {
  error_id: string;
  resolution: 'fixed' | 'workaround';
  notes: string;
  line: number;
}

/** The command an error drafted from a transcript names: its message starts with it in backticks. */
const commandOf = (message: string) => /^`([^`]+?)(?:…)?`:/.exec(message)?.[1] ?? null;
/** Whether the message holds the command whole (a long one is cut with "…"). */
const wholeCommand = (message: string) => /^`[^`]+`:/.test(message) && !/^`[^`]*…`:/.test(message);

type Fix = { notes: string; line: number; resolution?: 'workaround' } | null;

/** An agent's own error (an API error, a dropped stream): passed once the agent works again. */
function agentWentOn(err: OpenError, entries: readonly TranscriptEntry[]): Fix {
  if (err.error_type !== 'agent_error') return null;
  const on = wentOn(entries);
  return on ? { notes: `the agent went on after it (transcript line ${on.line})`, line: on.line } : null;
}

/** A failing CI check: fixed as one import of the whole transcript fixes it (ciFixOf: the check passes later). */
function ciPassed(err: OpenError, entries: readonly TranscriptEntry[]): Fix {
  return err.error_type === 'ci_failure' ? ciFixOf(err.error_message, entries) : null;
}

/** A failed command: the same command, or its failed step with other flags, succeeds later (tests: the same pass). */
function commandSucceeded(err: OpenError, entries: readonly TranscriptEntry[]): Fix {
  const command = commandOf(err.error_message);
  if (!command) return null;
  const isTest = err.error_type === 'test_failure' || testCommand.test(command);
  const fix = entries.find((e) => {
    if (e.sidechain || !succeeded(e)) return false;
    const ran = shellCommand(e);
    if (ran === null) return false;
    // a command cut with "…" is known by its start only
    const whole = wholeCommand(err.error_message);
    return (
      ran === command ||
      (!whole && ran.startsWith(command)) ||
      (whole && sameStep(command, ran) && (e.tool?.exit_code ?? 0) === 0) ||
      (isTest && testCommand.test(ran) && coversTests(command, ran))
    );
  });
  return fix ? { notes: `succeeded later (transcript line ${fix.line})`, line: fix.line } : null;
}

/** What can fix an error an earlier import recorded, by what the error is: each finds its fix or says nothing. */
const laterFixes = [agentWentOn, ciPassed, commandSucceeded];

/**
 * The lines read again before the new ones, for context (`before`), the transcript they are of (`path`), and whether
 * they (then the new ones) start at its first line (`fromStart`): a conversation's opening turn is then among them.
 */
export interface ReadBefore {
  path: string | null;
  before: readonly TranscriptEntry[];
  fromStart?: boolean;
}

/** The transcript line a resolution's notes name (the call that fixed it or went on past it). */
const lineOfNotes = (notes: string) => Number(/\((?:went on: )?transcript line (\d+)\)/.exec(notes)?.[1]);

/**
 * An error whose failure is among the lines read again for context, judged as one import of the whole transcript
 * judges it (the error rules run over those lines and the new ones: `drafts`): fixed by what the new lines hold, in the
 * same words. So a slip fixed at once stays one when the failure and its retry land in different reads (a Stop between
 * them), and a failed call of any tool finds its fix, not only a command.
 */
function judgedAgain(
  err: OpenError,
  read: ReadBefore,
  drafts: readonly ErrorDraft[],
  entries: readonly TranscriptEntry[],
): Fix {
  if (err.evidence?.transcript !== read.path) return null;
  const line = err.evidence.line;
  const draft = drafts.find((d) => d.evidence_line === line && d.error_message === err.error_message);
  // a fix, or a slip corrected at once (a workaround by its resolution: `python3` for a missing `python`)
  if (!draft?.resolution_notes) return null;
  if (draft.resolution !== 'fixed' && !fixedAtOnce(draft)) return null;
  const fixLine = lineOfNotes(draft.resolution_notes);
  const resolution = draft.resolution === 'workaround' ? { resolution: 'workaround' as const } : {};
  // a fix among the lines read before would have been found by the read that held them
  return entries.some((e) => e.line === fixLine)
    ? { notes: draft.resolution_notes, line: fixLine, ...resolution }
    : null;
}

/**
 * A failed command of an earlier conversation (another transcript), got round in this one's opening turn: the
 * conversation takes up the work where the other left it (another agent, or a new session of the same one), so its
 * first request's turn goes on from the failure, judged by the rules one import of a whole transcript uses (fateOf,
 * the failed command standing in before the turn's calls). A way round found in a later turn resolves nothing, as it
 * does not in one transcript; one already recorded is not recorded again.
 */
function takenUp(err: OpenError, read: ReadBefore, entries: readonly TranscriptEntry[]): Fix {
  if (!read.fromStart || read.path === null || err.resolution === 'workaround') return null;
  if (!err.evidence || err.evidence.transcript === read.path) return null;
  const command = commandOf(err.error_message);
  if (command === null) return null;
  const lines = [...read.before, ...entries].filter((e) => !e.sidechain);
  const asked = lines.findIndex((e) => e.role === 'user' && e.kind === 'text' && !e.queued);
  // the failed call as its record keeps it: its command and the line that explains it, not its exit status (the last
  // line of a list of lines is not known to be where it failed)
  const failure: TranscriptEntry = {
    line: err.evidence.line,
    at: null,
    role: 'tool',
    kind: 'tool_result',
    text: err.error_message.slice(err.error_message.indexOf('`:') + 2).trim(),
    truncated: false,
    tool: { id: null, name: 'Bash', input: { command }, is_error: null, exit_code: null },
    sidechain: false,
  };
  // a failure the earlier conversation ended on is no slip of this one's, whatever its first call does
  const fate = fateOf([failure, ...lines.slice(asked + 1)], 0, err.error_type, failure.text, false);
  if (fate.resolution !== 'workaround' || !fate.notes) return null;
  const line = lineOfNotes(fate.notes);
  // a way round among the lines read before was judged by the read that held them; one made before the failure (a
  // fork's copy of its parent's first turn) did not get round it
  const onward = entries.find((e) => e.line === line);
  const earlier = onward?.at && err.timestamp && Date.parse(onward.at) < Date.parse(err.timestamp);
  return onward && !earlier ? { notes: fate.notes, line, resolution: 'workaround' } : null;
}

/**
 * Errors an earlier import left open or worked around (a workaround is not a fix: the same command succeeding later
 * is) that the new entries resolve: an agent's own error (an API error, a dropped stream; a usage limit recorded as
 * one before it was told apart) once the agent works again; a failing CI check once a later report shows it passing
 * (or failing for another cause); the same command, or its failed step with other flags, succeeds later (a test
 * failure: a later run of the same tests passes). An import reads a session turn by turn, so a failure and its fix
 * often land in different imports; an error whose failure the lines read again before the new ones (`read`) hold is
 * first judged as one import of the whole transcript judges it (judgedAgain). A failed command of an earlier
 * conversation that nothing fixes is worked around when this conversation's opening turn gets round it (takenUp).
 */
export function resolveKnown(
  open: readonly OpenError[],
  entries: readonly TranscriptEntry[],
  read: ReadBefore = { path: null, before: [] },
): LaterResolution[] {
  const seenBefore = (err: OpenError) =>
    err.evidence?.transcript === read.path && read.before.some((e) => e.line === err.evidence?.line);
  // the error rules run again only when an open error's failure is among the lines read before
  const drafts = open.some(seenBefore) ? findErrors([...read.before, ...entries], null) : [];
  const out: LaterResolution[] = [];
  for (const err of open) {
    const fix =
      laterFixes.reduce<Fix>(
        (found, find) => found ?? find(err, entries),
        judgedAgain(err, read, drafts, entries),
      ) ?? takenUp(err, read, entries);
    if (fix)
      out.push({
        error_id: err.id,
        resolution: fix.resolution ?? 'fixed',
        notes: inTranscript(fix.notes, err, read.path),
        line: fix.line,
      });
  }
  return out;
}

/**
 * The notes of a fix found in another transcript than the error's (a later session's): its "transcript line N" names
 * that transcript, as the error's own "seen at" names the one it failed in; a line of the same transcript is said as
 * it was.
 */
function inTranscript(notes: string, err: OpenError, path: string | null): string {
  if (path === null || err.evidence?.transcript === path) return notes;
  return notes.replace(/transcript line (\d+)\)/, (_, line: string) => `transcript line ${line} of ${path})`);
}
