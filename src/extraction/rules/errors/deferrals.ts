import { clip } from '../../../core/clip.js';
import { sentencesOf } from '../../../core/sentences.js';
import type { TranscriptEntry } from '../../../agents/transcript-types.js';

/** What names a failure: "these errors", "the lint warnings", "the failing test". */
const FAILURE = String.raw`(?:failures?|failing|fails?|errors?|warnings?|issues?|problems?|bugs?|breakages?|lint|red)`;

/**
 * Words by which an agent leaves a failure on purpose, said of the failure: it was there before ("these errors are
 * pre-existing", "a pre-existing failure", "already failing on main", "not caused by my change"), it is not this
 * work's ("unrelated to our changes", "out of scope"), or it is kept for later ("leave them for a follow-up", "in a
 * separate PR").
 */
const deferral = new RegExp(
  [
    String.raw`\bpre-?existing (?:\w+ ){0,2}${FAILURE}`,
    String.raw`\b(?:are|is|were|was|looks?|seems?|all) (?:all |likely |probably |clearly )?pre-?existing\b`,
    String.raw`\b(?:unrelated|not related) to (?:my|our|the|this|these) (?:\w+ )?(?:changes?|edits?|work|fix(?:es)?|PR|task|diff)\b`,
    String.raw`\bnot (?:caused|introduced) by (?:my|our|this|these|the) (?:\w+ )?(?:changes?|edits?|work|fix(?:es)?|PR|diff)\b`,
    String.raw`\b(?:already|also) fail(?:s|ed|ing)? (?:on|in) (?:main|master|the base branch|origin)\b`,
    String.raw`\bfail(?:s|ed|ing)? (?:on|in) (?:main|master) (?:too|as well)\b`,
    String.raw`\bout of (?:scope|this (?:task|PR|change)'?s? scope)\b`,
    String.raw`\b(?:leave|leaving|left) (?:it|them|these|those|that)(?: \w+){0,2} (?:for (?:later|now|a follow-?up)|as (?:is|they are)|unfixed)\b`,
    String.raw`\b(?:in|for) a (?:separate|follow-?up|later) (?:PR|pull request|issue|ticket)\b`,
  ].join('|'),
  'i',
);

/** The sentence is about the failure: it names one, or speaks of it as "it", "these", "they". */
const ofTheFailure = new RegExp(
  String.raw`\b${FAILURE}\b|^(?:(?:but|and|so|note:?)\s+)?(?:it|this|that|these|those|they)(?:'re|'s|\s+(?:are|is|were|was|looks?|seems?|all|both))\b`,
  'i',
);

/** The agent going on to fix it: "Let me rename it", "I'll fix the type error", "Now update the fixture". */
const fixesIt =
  /\b(?:let me|let's|I'll|I will|I'm going to|we'll|we will|now I|next,? I)\s+(?:just\s+|quickly\s+)?(?:fix|rename|update|change|correct|adjust|repair|resolve|address (?:it|this|them|these) now)\b/i;

/**
 * The sentence in which the agent, in its first words after a failure (before the user speaks again), says it leaves
 * that failure on purpose (it was there before, it is not this work's, it is kept for later), or null. The rest of
 * the turn is given (`turn`); only the agent's own words count, not a tool's output, and words that go on to fix it
 * ("The name clashes with a pre-existing export. Let me rename it.") leave nothing.
 */
export function deferralSaid(turn: readonly TranscriptEntry[]): { words: string; line: number } | null {
  const said = turn.find((e) => e.role === 'assistant' && e.kind === 'text' && e.text.trim() !== '');
  if (!said || fixesIt.test(said.text)) return null;
  const words = sentencesOf(said.text).find((s) => deferral.test(s) && ofTheFailure.test(s.trim()));
  return words ? { words: clip(words.replace(/\s+/g, ' ').trim(), 160), line: said.line } : null;
}
