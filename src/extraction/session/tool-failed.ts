import type { TranscriptEntry } from '../../agents/transcript-types.js';

/** A tool call that failed: flagged as an error, or a command that exited with a non-zero code. */
export const toolFailed = (e: TranscriptEntry): boolean =>
  e.tool?.is_error === true ||
  (e.tool?.exit_code !== null && e.tool?.exit_code !== undefined && e.tool.exit_code !== 0);
