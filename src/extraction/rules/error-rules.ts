import type { TranscriptEntry } from '../../agents/transcript-types.js';
import type { ErrorDraft } from '../extractor.js';
import { findTestRuns } from '../session/test-runs.js';
import { findCiFailures } from './ci-checks.js';
import { similarity } from '../similarity.js';
import { expectedOutcome, failed, hookFeedback, refusalType, stackTrace, succeeded } from './failure.js';
import { program, shellCommand, testCommand, toolFamily } from './shell-command.js';

const afterwardsWorkaround = /\b(instead|fall(ing)? back|work ?around|alternative)\b/i;
/** Lines that say what went wrong, in the words tools use. */
const causeLine =
  /error|fail|denied|not permitted|not found|does not exist|cannot|can't|unable|invalid|unknown|missing|requires?\b|incompatible|not supported|refused|rejected|timed? ?out|×|✗|panicked/i;

/** The line that explains a failure: an error-ish line first, skipping "Exit code N", chunk headers and warnings. */
export function causeOf(text: string): string {
  const lines = text.split('\n').map((l) => l.trim());
  const useful = lines.filter(
    (l) =>
      l !== '' &&
      !/^(Error: )?Exit code \d+$/.test(l) &&
      !/^\(?(node:\d+\)|Use `node)/.test(l) &&
      !/^(Chunk ID|Wall time|Process exited|Original token count|Output|Exit code:|Script error:?$)/.test(
        l,
      ) &&
      !/^\[\w[\w:-]*\] \$ /.test(l),
  );
  const errorish = useful.find((l) => causeLine.test(l) && !/warn(ing)?\b/i.test(l));
  return (errorish ?? useful[0] ?? '').replace(/<\/?tool_use_error>/g, '').slice(0, 300);
}

function typeOf(entry: TranscriptEntry, command: string | null): string {
  if (entry.kind === 'error') return 'agent_error';
  const refusal = refusalType(entry);
  if (refusal) return refusal;
  if (command && testCommand.test(command)) return 'test_failure';
  if (/does not exist|no such file|not found/i.test(entry.text.slice(0, 300))) return 'file_not_found';
  if (stackTrace.test(entry.text.slice(0, 2000))) return 'exception';
  if (command !== null && entry.tool?.exit_code) return 'command_failed';
  return 'tool_error';
}

/**
 * What a file or web tool acted on (its path or URL; a patch's first file, from Codex's apply_patch text or
 * `codex exec --json` file changes): a retry of the same tool on another file is not a fix.
 */
function targetOf(entry: TranscriptEntry): string | null {
  const input = entry.tool?.input;
  if (typeof input === 'string') return /^\*\*\* (?:Update|Add|Delete) File: (.+)$/m.exec(input)?.[1] ?? null;
  if (typeof input !== 'object' || input === null) return null;
  const v = input as Record<string, unknown>;
  const change = Array.isArray(v.changes)
    ? (v.changes[0] as { path?: unknown } | undefined)?.path
    : undefined;
  const target = v.file_path ?? v.path ?? v.notebook_path ?? v.url ?? change;
  return typeof target === 'string' ? target : null;
}

interface Resolution {
  resolution: ErrorDraft['resolution'];
  notes: string | null;
}

/** The entries after `index` up to the user's next request (the rest of the turn). */
function restOfTurn(entries: readonly TranscriptEntry[], index: number): TranscriptEntry[] {
  const turn: TranscriptEntry[] = [];
  for (let i = index + 1; i < entries.length; i += 1) {
    const e = entries[i] as TranscriptEntry;
    if (e.role === 'user' && e.kind === 'text' && !e.queued) break;
    if (!e.sidechain) turn.push(e);
  }
  return turn;
}

/**
 * fixed: the same command (or the same call; for tests, a later test run) succeeds later in the turn;
 * workaround: the agent says it does something instead, or a different call of the same tool family succeeds
 * soon after; unresolved otherwise. A hook's feedback stays open: only the hook can say it is satisfied.
 */
function resolve(entries: readonly TranscriptEntry[], index: number, type: string): Resolution {
  const failure = entries[index] as TranscriptEntry;
  if (type === 'hook_feedback') return { resolution: 'unresolved', notes: null };
  const command = shellCommand(failure);
  const family = toolFamily(failure);
  const turn = restOfTurn(entries, index);
  const results = turn.filter((e) => e.kind === 'tool_result');
  const isTest = command !== null && testCommand.test(command);
  const same = (e: TranscriptEntry) =>
    command
      ? shellCommand(e) === command || (isTest && testCommand.test(shellCommand(e) ?? ''))
      : e.tool?.id === failure.tool?.id ||
        (e.tool?.name === failure.tool?.name && family !== 'shell' && targetOf(e) === targetOf(failure));
  const fix = results.find((e) => same(e) && succeeded(e));
  if (fix) return { resolution: 'fixed', notes: `succeeded later (line ${fix.line})` };
  const said = turn
    .slice(0, 12)
    .find((e) => e.role === 'assistant' && e.kind === 'text' && afterwardsWorkaround.test(e.text));
  if (said) return { resolution: 'workaround', notes: said.text.slice(0, 200) };
  const other = results.slice(0, 10).find((e) => !same(e) && toolFamily(e) === family && succeeded(e));
  if (other)
    return { resolution: 'workaround', notes: `a different ${family} call succeeded (line ${other.line})` };
  return { resolution: 'unresolved', notes: null };
}

/**
 * Errors: failed commands and tool calls, tool and permission refusals, hook refusals and a Stop hook's feedback,
 * errors the agent reports, failing CI checks read with gh. Expected outcomes are not errors: a call the user declined, a probe of a missing path,
 * git with nothing to commit, a test run the agent said would fail (the red step).
 */
export function findErrors(entries: readonly TranscriptEntry[], taskId: string | null): ErrorDraft[] {
  const drafts: ErrorDraft[] = [];
  const seenCalls = new Set<string>();
  const red = findTestRuns(entries).filter((r) => r.expected_failure);
  const intendedRed = new Set([
    ...red.map((r) => r.line),
    ...red.flatMap((r) => (r.tool_id ? [r.tool_id] : [])),
  ]);
  let context: string | null = null;
  let lastKey = '';
  let lastDetail = '';
  entries.forEach((entry, index) => {
    if (entry.sidechain) return;
    if (entry.role === 'assistant' && entry.kind === 'text') context = entry.text.slice(0, 300);
    if (!failed(entry) || expectedOutcome(entry)) return;
    if (intendedRed.has(entry.line) || (entry.tool?.id && intendedRed.has(entry.tool.id))) return;
    const callId = entry.tool?.id;
    if (callId) {
      if (seenCalls.has(callId)) return;
      seenCalls.add(callId);
    }
    const command = shellCommand(entry);
    const type = typeOf(entry, command);
    const feedback = type === 'hook_feedback' ? entry.text.replace(hookFeedback, '').trim() : null;
    const detail = feedback ?? (causeOf(entry.text) || `exit code ${entry.tool?.exit_code ?? 'unknown'}`);
    const subject =
      type === 'hook_feedback'
        ? 'Stop hook'
        : command
          ? `\`${command.length > 100 ? `${command.slice(0, 99)}…` : command}\``
          : (entry.tool?.name ?? 'agent');
    // the same program failing the same way again is one error (a retry), not two
    const key = command !== null ? `shell:${program(command)}` : `tool:${entry.tool?.name ?? entry.kind}`;
    if (key === lastKey && similarity(lastDetail, detail) >= 0.8) return;
    lastKey = key;
    lastDetail = detail;
    const { resolution, notes } = resolve(entries, index, type);
    drafts.push({
      task_id: taskId,
      error_type: type,
      error_message: `${subject}: ${detail.slice(0, 600)}`,
      context,
      resolution,
      resolution_notes: notes,
      at: entry.at,
      evidence_line: entry.line,
    });
  });
  return [...drafts, ...findCiFailures(entries, taskId)].sort(
    (a, b) => (a.evidence_line ?? 0) - (b.evidence_line ?? 0),
  );
}
