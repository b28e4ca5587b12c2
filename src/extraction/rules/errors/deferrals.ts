import { clip } from '../../../core/clip.js';
import { sentencesOf } from '../../../core/sentences.js';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';

/**
 * Words by which an agent leaves a failure on purpose: it was there before ("pre-existing", "already failing on
 * main", "not caused by my change"), it is not this work's ("unrelated to our changes", "out of scope"), or it is
 * kept for later ("leave them for a follow-up", "in a separate PR").
 */
const deferral = new RegExp(
  [
    String.raw`\bpre-?existing\b`,
    String.raw`\b(?:unrelated|not related) to (?:my|our|the|this|these) (?:\w+ )?(?:changes?|edits?|work|fix(?:es)?|PR|task|diff)\b`,
    String.raw`\bnot (?:caused|introduced) by (?:my|our|this|these|the) (?:\w+ )?(?:changes?|edits?|work|fix(?:es)?|PR|diff)\b`,
    String.raw`\b(?:already|also) fail(?:s|ed|ing)? (?:on|in) (?:main|master|the base branch|origin)\b`,
    String.raw`\bfail(?:s|ed|ing)? (?:on|in) (?:main|master) (?:too|as well)\b`,
    String.raw`\bout of (?:scope|this (?:task|PR|change)'?s? scope)\b`,
    String.raw`\b(?:leave|leaving|left) (?:it|them|this|these|those|that)(?: \w+){0,2} (?:for (?:later|now|a follow-?up)|as (?:is|they are)|unfixed|untouched)\b`,
    String.raw`\b(?:in|for) a (?:separate|follow-?up|later) (?:PR|pull request|issue|change|commit|task)\b`,
  ].join('|'),
  'i',
);

/** How far into the rest of the turn the agent's words about a failure are looked for. */
const NEAR = 12;

/**
 * The sentence in which the agent, soon after a failure and before the user speaks again, says it leaves that
 * failure on purpose (it was there before, it is not this work's, it is kept for later), or null. The rest of the
 * turn is given (`turn`); only the agent's own words count, not a tool's output.
 */
export function deferralSaid(turn: readonly TranscriptEntry[]): { words: string; line: number } | null {
  for (const e of turn.slice(0, NEAR)) {
    if (e.role !== 'assistant' || e.kind !== 'text') continue;
    const words = sentencesOf(e.text).find((s) => deferral.test(s));
    if (words) return { words: clip(words.replace(/\s+/g, ' ').trim(), 160), line: e.line };
  }
  return null;
}
