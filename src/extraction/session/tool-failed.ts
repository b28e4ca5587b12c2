import type { TranscriptEntry } from '../../agents/transcript-types.js';
import type { ToolOutcome } from '../../core/call-text.js';
import { shellCommands } from '../rules/shell-command.js';

/** A tool call that failed: flagged as an error, or a command that exited with a non-zero code. */
export const toolFailed = (e: TranscriptEntry): boolean =>
  e.tool?.is_error === true ||
  (e.tool?.exit_code !== null && e.tool?.exit_code !== undefined && e.tool.exit_code !== 0);

/** A tool result as the readers of a call's effects take it (core's, which `baton run` reads its calls with too). */
export const toolOutcome = (e: TranscriptEntry): ToolOutcome => ({
  tool: e.tool?.name ?? 'tool',
  input: e.tool?.input,
  commands: shellCommands(e),
  output: e.text,
  failed: toolFailed(e),
});
