import type { TranscriptEntry } from '../../agents/transcript-types.js';
import type { ErrorDraft } from '../extractor.js';
import { similarity } from '../similarity.js';
import { isNoMatch, program, shellCommand, testCommand, toolFamily } from './shell-command.js';

/** Output that reads as a failure even when the agent did not flag it. */
const failureText =
  /^(error\b|fatal\b|traceback \(most recent call last\)|exception\b|.*\b(rejected this action|permission denied|operation not permitted|command not found|no such file or directory)\b)/i;
const rejectedText = /doesn't want to proceed|user rejected|rejected this action|was rejected/i;
const stackTrace = /(Traceback \(most recent call last\)|^\s+at \S.*:\d+:\d+\)?$)/m;
const afterwardsWorkaround = /\b(instead|fall(ing)? back|work ?around|alternative)\b/i;

function failed(entry: TranscriptEntry): boolean {
  if (entry.kind === 'error') return true;
  if (entry.kind !== 'tool_result' || !entry.tool) return false;
  const command = shellCommand(entry);
  const code = entry.tool.exit_code;
  if (command !== null && isNoMatch(command, code, entry.text)) return false;
  if (code !== null && code !== 0) return true;
  if (entry.tool.is_error === true) return true;
  if (code === 0) return false;
  return failureText.test(entry.text.trimStart().slice(0, 300)) || stackTrace.test(entry.text.slice(0, 2000));
}

function succeeded(entry: TranscriptEntry): boolean {
  return entry.kind === 'tool_result' && !failed(entry) && !rejectedText.test(entry.text.slice(0, 300));
}

/** The first informative output line: skips "Exit code N", chunk headers, warnings and blank lines. */
function firstLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim());
  const useful = lines.filter(
    (l) => l !== '' && !/^(Error: )?Exit code \d+$/.test(l) && !/^\(?(node:\d+\)|Use `node)/.test(l),
  );
  const errorish = useful.find((l) =>
    /error|fail|denied|not permitted|not found|does not exist|cannot|rejected|×|✗/i.test(l),
  );
  return (errorish ?? useful[0] ?? '').replace(/<\/?tool_use_error>/g, '').slice(0, 240);
}

function typeOf(entry: TranscriptEntry, command: string | null): string {
  if (entry.kind === 'error') return 'agent_error';
  if (rejectedText.test(entry.text.slice(0, 300)) && !/policy/i.test(entry.text.slice(0, 300)))
    return 'tool_rejected';
  if (command && testCommand.test(command)) return 'test_failure';
  if (/does not exist|no such file|not found/i.test(entry.text.slice(0, 300))) return 'file_not_found';
  if (stackTrace.test(entry.text.slice(0, 2000))) return 'exception';
  if (command !== null && entry.tool?.exit_code) return 'command_failed';
  return 'tool_error';
}

interface Resolution {
  resolution: ErrorDraft['resolution'];
  notes: string | null;
}

/**
 * fixed: the same command (or the same call) later succeeds; workaround: a later call of the same tool family
 * succeeds within the next few calls, or the agent says it does something instead; unresolved otherwise (and
 * always when the user rejected the call).
 */
function resolve(entries: readonly TranscriptEntry[], index: number, type: string): Resolution {
  const failure = entries[index] as TranscriptEntry;
  if (type === 'tool_rejected') return { resolution: 'unresolved', notes: 'the user rejected the tool call' };
  const command = shellCommand(failure);
  const family = toolFamily(failure);
  const turn: TranscriptEntry[] = [];
  for (let i = index + 1; i < entries.length; i += 1) {
    const e = entries[i] as TranscriptEntry;
    if (e.role === 'user' && e.kind === 'text') break;
    turn.push(e);
  }
  const results = turn.filter((e) => e.kind === 'tool_result');
  const isTest = command !== null && testCommand.test(command);
  const same = (e: TranscriptEntry) =>
    command
      ? shellCommand(e) === command || (isTest && testCommand.test(shellCommand(e) ?? ''))
      : e.tool?.id === failure.tool?.id;
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

/** Errors from failed commands, tool errors, agent-reported errors and stack traces. */
export function findErrors(entries: readonly TranscriptEntry[], taskId: string | null): ErrorDraft[] {
  const drafts: ErrorDraft[] = [];
  const seenCalls = new Set<string>();
  let context: string | null = null;
  let lastKey = '';
  let lastDetail = '';
  entries.forEach((entry, index) => {
    if (entry.sidechain) return;
    if (entry.role === 'assistant' && entry.kind === 'text') context = entry.text.slice(0, 300);
    if (!failed(entry)) return;
    const callId = entry.tool?.id;
    if (callId) {
      if (seenCalls.has(callId)) return;
      seenCalls.add(callId);
    }
    const command = shellCommand(entry);
    const type = typeOf(entry, command);
    const detail = firstLine(entry.text) || `exit code ${entry.tool?.exit_code ?? 'unknown'}`;
    const subject = command ? `\`${command.slice(0, 160)}\`` : (entry.tool?.name ?? 'agent');
    const message = `${subject}: ${detail}`;
    // the same program failing the same way again is one error (a retry), not two
    const key = command !== null ? `shell:${program(command)}` : `tool:${entry.tool?.name ?? entry.kind}`;
    if (key === lastKey && similarity(lastDetail, detail) >= 0.8) return;
    lastKey = key;
    lastDetail = detail;
    const { resolution, notes } = resolve(entries, index, type);
    drafts.push({
      task_id: taskId,
      error_type: type,
      error_message: message,
      context,
      resolution,
      resolution_notes: notes,
      at: entry.at,
      evidence_line: entry.line,
    });
  });
  return drafts;
}
