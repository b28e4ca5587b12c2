/**
 * A slip fixed at once: a call that failed and the very next call succeeding, the same one (a sandbox that let the
 * command run on the second try) or the failed one corrected (a typo'd path, a missing flag, `python3` for a missing
 * `python`: by the extraction's rules for a retry, the same step with other flags or a call that does what failed).
 * The store keeps it as any error; the briefing leaves it out, where it would only be noise to the next session. Said
 * in the error's resolution notes, which the extraction writes and the briefing reads, in these words alone.
 */
const SAID = 'the same call succeeded right after it';
const LOOKED = 'the same call succeeded once the agent had read the file';
const CORRECTED = 'a corrected call succeeded right after it';
/**
 * The note of a slip fixed at once: the same call, the same call after only reading its file (`looked`: an edit
 * refused until the file is read, or made on text the file no longer has), or (`corrected`) the call that corrected
 * it.
 */
export const fixedAtOnceNote = (line: number, corrected?: string, looked = false): string =>
  corrected !== undefined
    ? `${CORRECTED} (transcript line ${line}): \`${corrected}\``
    : `${looked ? LOOKED : SAID} (transcript line ${line})`;

/** Whether a resolved error was such a slip (fixedAtOnceNote: read with the words it is written in). */
const said = new RegExp(
  `^(?:(?:${SAID}|${LOOKED}) \\(transcript line \\d+\\)|${CORRECTED} \\(transcript line \\d+\\): \`[^]+\`)$`,
);
export const fixedAtOnce = (e: { resolution: string; resolution_notes: string | null }): boolean =>
  (e.resolution === 'fixed' || e.resolution === 'workaround') && said.test(e.resolution_notes ?? '');
