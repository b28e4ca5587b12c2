import { sentencesOf } from '../../../core/sentences.js';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';
import { shellCommand, testCommand } from '../shell-command.js';

/** What the call is meant to do: fail, exit non-zero, be refused, error out. */
const FAIL = String.raw`(?:fail|error out|exit (?:with )?(?:(?:code|status) )?[1-9]\d*|exit non-?zero|be (?:rejected|refused)|reject it|refuse it)`;

/**
 * The agent saying, just before the call, that it is meant to fail, of the call itself: "it should exit 2", "this
 * should be rejected", "expect it to fail".
 */
const announced = new RegExp(
  String.raw`\b(?:it|this|that|the (?:command|call|cli|script|program|request))\s+(?:should|will|must|ought to)\s+${FAIL}\b|\bexpect(?:ing)? (?:it|this|that) to ${FAIL}\b`,
  'i',
);

/** Said after it, of the failure: "Exits 2 as expected.", "Rejected as intended". */
const confirmed = /\bas (?:expected|intended|designed)\b/i;
const failureWord =
  /\b(?:fail(?:s|ed|ure)?|exit(?:s|ed)?|reject(?:s|ed)?|refus(?:es|ed)|error(?:s|ed)?|usage)\b/i;

/** "doesn't fail as expected", "not an error I expected", "but", "need to fix": not an outcome wanted. */
const denied =
  /(?:\bnot\b|n't\b|\bnever\b|\bno longer\b|\bunexpected(?:ly)?\b|\bbut\b|\bhowever\b|\b(?:need|have) to\b|\bfix(?:es|ed|ing)?\b)/i;

/** The agent's text just before the call (since the last thing it did), thinking left out. */
function saidBefore(entries: readonly TranscriptEntry[], index: number): string {
  const said: string[] = [];
  for (let i = index - 1; i >= 0; i -= 1) {
    const e = entries[i] as TranscriptEntry;
    if (e.sidechain) continue;
    if (e.kind === 'tool_result' || (e.role === 'user' && e.kind === 'text')) break;
    if (e.role === 'assistant' && e.kind === 'text') said.unshift(e.text);
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
 * A failed call the agent meant to fail: it said just before, of the call, that it should fail ("it should exit 2",
 * "this should be rejected"), or its first sentence after says it failed as expected ("Exits 2 as expected."), with
 * no word against it. Test runs are left to the test runs' own reading of a red step.
 */
export function meantToFail(entries: readonly TranscriptEntry[], index: number): boolean {
  const call = entries[index] as TranscriptEntry;
  if (testCommand.test(shellCommand(call) ?? '')) return false;
  const fine = (s: string) => !denied.test(s);
  if (sentencesOf(saidBefore(entries, index)).some((s) => announced.test(s) && fine(s))) return true;
  const [first] = sentencesOf(saidAfter(entries, index));
  return first !== undefined && confirmed.test(first) && failureWord.test(first) && fine(first);
}
