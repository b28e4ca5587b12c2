/**
 * A terminal's control sequences: colours and cursor moves (CSI, `ESC [ ... m`, `ESC [ ?25l`), titles and queries
 * (OSC, `ESC ] 11;? BEL` or ending in `ESC \`), character-set and keypad switches (`ESC ( B`, `ESC =`).
 */
const terminalCodes =
  // eslint-disable-next-line no-control-regex
  /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[()*+][0-~]|[=>78cDEHM])/g;

/**
 * The text a command printed, without its terminal's control sequences. Test runners colour their output even into a
 * pipe (vitest where `TERM` names a terminal, Go's test helpers): left in, the codes would go into the errors, the
 * briefing and every reader of the output (`ESC[41m FAIL ESC[49m` is not the `FAIL` line a test reader looks for).
 */
export const withoutTerminalCodes = (text: string): string =>
  text.includes('\u001b') ? text.replace(terminalCodes, '') : text;
