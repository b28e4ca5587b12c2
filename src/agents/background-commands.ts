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
 * its command, both ends kept; empty when every one ended.
 */
export function stillRunning(
  entries: readonly TranscriptEntry[],
  from: number,
): { calls: string[]; through: number } {
  const turn = entries.slice(from + 1).filter((e) => !e.sidechain);
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
  return {
    calls: running
      .slice(-SHOWN)
      .map(({ entry }) =>
        clipEnds(describeCall(entry.tool?.name ?? null, entry.tool?.input).replace(/\s+/g, ' '), 160),
      ),
    through: running.at(-1)?.entry.line ?? -1,
  };
}
