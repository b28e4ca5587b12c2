import { describeCall } from '../core/call-text.js';
import { clipEnds } from '../core/clip.js';
import { startedPattern } from './claude-code/anthropic-message.js';
import type { TranscriptEntry } from './transcript-types.js';

/** The tools that stop a background command (by its id: `shell_id`, `task_id`). */
const stoppers = new Set(['KillShell', 'KillBash', 'TaskStop']);

/** The commands named at most. */
const SHOWN = 3;

/**
 * The commands the agent left running in the background in `entries` (from index `from` on) whose end the transcript
 * never shows: no later read of their output that says they ended, no task notification naming them, no kill. Each by
 * its command, both ends kept; empty when every one ended. So too a command called up to index `until` (the agent's
 * last message) whose last output said it still ran (a Codex command polled, a code-mode cell waited on: a CI watch the
 * agent said it waits on); one called after it is a call that never returned, which the message says apart.
 */
export function stillRunning(
  entries: readonly TranscriptEntry[],
  from: number,
  until = entries.length - 1,
): { calls: string[]; through: number } {
  const turn = entries.slice(from + 1).filter((e) => !e.sidechain);
  const lastResult = new Map<string, TranscriptEntry>();
  for (const e of turn) if (e.kind === 'tool_result' && e.tool?.id) lastResult.set(e.tool.id, e);
  const polled = entries.slice(from + 1, until + 1).flatMap((e) => {
    const last = e.kind === 'tool_call' && !e.sidechain ? lastResult.get(e.tool?.id ?? '') : undefined;
    return last?.tool?.running === true ? [{ call: e, last }] : [];
  });
  const started = turn.flatMap((e, i) => {
    const bg =
      e.kind === 'tool_result' && e.tool?.id ? startedPattern.exec(e.text.slice(0, 300))?.[1] : undefined;
    return bg ? [{ i, entry: e, call: e.tool?.id as string, bg }] : [];
  });
  const running = started.filter(({ i, call, bg }) =>
    turn.slice(i + 1).every((e) => {
      // a read of its output once it ended carries its call's id; a notification names the call or the command
      if (e.kind === 'tool_result' && e.tool?.id === call) return false;
      if (/<task-notification>/.test(e.text) && (e.text.includes(`>${call}<`) || e.text.includes(`>${bg}<`)))
        return false;
      const input = e.tool?.input as { shell_id?: unknown; task_id?: unknown } | null;
      return !(
        e.kind === 'tool_call' &&
        stoppers.has(e.tool?.name ?? '') &&
        (input?.shell_id ?? input?.task_id) === bg
      );
    }),
  );
  const left = [
    ...running.map(({ entry }) => ({ call: entry, line: entry.line })),
    ...polled.map(({ call, last }) => ({ call, line: last.line })),
  ].sort((a, b) => a.call.line - b.call.line);
  return {
    calls: left
      .slice(-SHOWN)
      .map(({ call }) =>
        clipEnds(describeCall(call.tool?.name ?? null, call.tool?.input).replace(/\s+/g, ' '), 160),
      ),
    through: Math.max(-1, ...left.map((l) => l.line)),
  };
}
