/**
 * A slip fixed at once: a call that failed and the very next call, the same one, that succeeded (a wrong argument, a
 * sandbox that let the command run on the second try). The store keeps it as any error; the briefing leaves it out,
 * where it would only be noise to the next session. Said in the error's resolution notes, which the extraction writes
 * and the briefing reads, in these words alone.
 */
const SAID = 'the same call succeeded right after it';
export const fixedAtOnceNote = (line: number): string => `${SAID} (transcript line ${line})`;

/** Whether a resolved error was such a slip (fixedAtOnceNote: read with the words it is written in). */
const said = new RegExp(`^${SAID} \\(transcript line \\d+\\)$`);
export const fixedAtOnce = (e: { resolution: string; resolution_notes: string | null }): boolean =>
  e.resolution === 'fixed' && said.test(e.resolution_notes ?? '');
