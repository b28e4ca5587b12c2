import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { succeeded, wentOn } from './failure.js';
import { coversTests, sameStep, shellCommand, testCommand } from '../shell-command.js';

export interface OpenError {
  id: string;
  error_type: string;
  error_message: string;
}

export interface LaterResolution {
  error_id: string;
  resolution: 'fixed';
  notes: string;
  line: number;
}

/** The command an error drafted from a transcript names: its message starts with it in backticks. */
const commandOf = (message: string) => /^`([^`]+?)(?:…)?`:/.exec(message)?.[1] ?? null;
/** Whether the message holds the command whole (a long one is cut with "…"). */
const wholeCommand = (message: string) => /^`[^`]+`:/.test(message) && !/^`[^`]*…`:/.test(message);

/**
 * Errors an earlier import left open or worked around (a workaround is not a fix: the same command succeeding later
 * is) that the new entries resolve: an agent's own error (an API error, a dropped
 * stream; a usage limit recorded as one before it was told apart) once the agent works again; the same command, or its failed step with
 * other flags, succeeds later (a test failure: a later run of the same tests passes). An import reads a session turn by turn, so a failure and its fix often land
 * in different imports.
 */
export function resolveKnown(
  open: readonly OpenError[],
  entries: readonly TranscriptEntry[],
): LaterResolution[] {
  const out: LaterResolution[] = [];
  for (const err of open) {
    if (err.error_type === 'agent_error') {
      // an API error an earlier import left open: passed once the agent works again
      const on = wentOn(entries);
      if (on)
        out.push({
          error_id: err.id,
          resolution: 'fixed',
          notes: `the agent went on after it (transcript line ${on.line})`,
          line: on.line,
        });
      continue;
    }
    const command = commandOf(err.error_message);
    if (!command) continue;
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
    if (fix)
      out.push({
        error_id: err.id,
        resolution: 'fixed',
        notes: `succeeded later (transcript line ${fix.line})`,
        line: fix.line,
      });
  }
  return out;
}
