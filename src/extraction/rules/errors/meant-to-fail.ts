import type { TranscriptEntry } from '../../../agents/transcript-types.js';

/**
 * The agent saying, just before a call, that it is meant to fail: "it should exit 2", "expect an error", "check that
 * bad input is rejected", "confirm it refuses an empty name", "try the error path". (An announced red test run is
 * decided with the test runs.)
 */
const announced = new RegExp(
  [
    String.raw`\bshould (?:fail|error(?: out)?|exit (?:with )?(?:(?:code|status) )?[1-9]\d*|exit non-?zero|be (?:rejected|refused)|reject|refuse|complain|print (?:an? |the )?(?:error|usage))\b`,
    String.raw`\bexpect(?:ed|ing)? (?:it to fail|an? (?:error|failure|non-?zero exit|usage error|rejection)|(?:a )?non-?zero exit|exit (?:code|status) [1-9]\d*)\b`,
    String.raw`\b(?:check|verify|confirm|make sure|test|ensure|see) (?:that |whether |how |if )?(?:it |the (?:cli|command|script|program|tool|server|endpoint|api) )?(?:rejects|refuses|fails on|errors on|exits (?:with )?(?:(?:code|status) )?[1-9])`,
    String.raw`\b(?:check|verify|confirm|test|try|exercise) (?:the |an? )?(?:error (?:path|case|handling)|failure (?:path|case)|(?:bad|invalid|malformed) input|usage error)\b`,
  ].join('|'),
  'i',
);

/** Said after it: "Exits 2 as expected.", "It correctly rejects ...", "the usage error works". */
const confirmed =
  /\bas (?:expected|intended|designed)\b|\b(?:correctly|properly) (?:rejects?|rejected|refuses?|refused|fails?|failed|errors?|errored|exits?|exited|reports?|reported|prints?|printed)\b|\b(?:error|failure) (?:path|case|handling) works\b/i;
/** "Not working as expected", "didn't fail as expected": the opposite. */
const denied =
  /\b(?:not|n't|never|no longer)\b[^.!?\n]{0,40}\b(?:as (?:expected|intended|designed)|correctly|properly)\b/i;

/** The agent's words since the last thing it did (the user's message or a tool result) up to `index`. */
function saidBefore(entries: readonly TranscriptEntry[], index: number): string {
  const said: string[] = [];
  for (let i = index - 1; i >= 0; i -= 1) {
    const e = entries[i] as TranscriptEntry;
    if (e.sidechain) continue;
    if (e.kind === 'tool_result' || (e.role === 'user' && e.kind === 'text')) break;
    if (e.role === 'assistant' && (e.kind === 'text' || e.kind === 'thinking')) said.unshift(e.text);
  }
  return said.join('\n');
}

/** The agent's first words after `index`, before it does anything else or the user speaks. */
function saidAfter(entries: readonly TranscriptEntry[], index: number): string {
  for (const e of entries.slice(index + 1)) {
    if (e.sidechain) continue;
    if (e.kind === 'tool_call' || e.kind === 'tool_result' || (e.role === 'user' && e.kind === 'text')) break;
    if (e.role === 'assistant' && e.kind === 'text') return e.text;
  }
  return '';
}

/**
 * A failed call the agent meant to fail: it said just before that the call should fail (a check that bad input is
 * refused, an error path tried), or said just after that it failed as expected. The outcome it wanted, not an error.
 */
export function meantToFail(entries: readonly TranscriptEntry[], index: number): boolean {
  const before = saidBefore(entries, index);
  if (announced.test(before) && !denied.test(before)) return true;
  const after = saidAfter(entries, index);
  return confirmed.test(after) && !denied.test(after);
}
