import { choiceWord } from './choice-signs.js';
import { doingAnyForm } from './doing-verbs.js';
import { isStep } from './looks-and-steps.js';
import { isNotAChoice } from './not-choices.js';
import { rationale } from './reason-shapes.js';
import { native } from '../native-regexp.js';

/**
 * Choices the agent states as a change rather than as an intention: a fix or solution given under its label
 * ("Solution: prefer X and fall back to Y", "Root cause: ... Fix (applied): also treat ..."), a change summarised with
 * the alternative it replaced ("`game.js`: replaced X with Y", "hover is now an overlay instead of an inset shadow,
 * so ..."), and a plan's answer to a gap in what it was given ("the brief never says how. The plan takes X from a
 * header"). A change summarised without the alternative it replaced ("Reverted the overlay so the highlight is
 * back") is a report of work done, not a choice.
 */

/** "Fix:", "The fix:", "Solution (applied):", "Workaround:": a label, then what was or will be done. */
const fixLabel =
  /^(?:the |my |our )?(?:fix|solution|workaround|resolution|remedy)(?:\s*\([^)]{1,40}\))?:\s+(.+)$/i;

/** A label whose parenthesis sets the option aside: "Alternative (not applied): ...", "Fix (rejected): ...". */
const setAside = /^[\w ]{1,30}\([^)]*\b(?:not|rejected|discarded|proposed)\b[^)]*\):/i;

/** The agent's own fix under its label: "The fix:", "My fix:" (not a bare "Fix:" or "Solution:" of a review). */
const ownFix = /^(?:the|my|our) (?:fix|solution):/i;

/** The label says the fix was the one taken ("Fix (applied):", "Solution (chosen):"): whatever its verb. */
const taken = /^[\w ]{1,30}\([^)]*\b(?:applied|chosen|adopted|implemented|done)\b/i;

/**
 * What the labelled fix says: it changes something, in a clause (4+ words) that is not a look and does not announce
 * what follows (a proposal spelled out below its colon), and it is the one taken: the label says so, or the fix
 * gives its reason or a sign of choice ("prefer X and fall back to Y", "now truncate instead of dropping, so ..."), or
 * it is the agent's own ("The fix: ...").
 * "Solution: Move filtering into processors or make it processor-aware" under a problem is a proposal.
 */
function labelledFix(sentence: string): boolean {
  const body = fixLabel.exec(sentence)?.[1];
  if (body === undefined || body.endsWith(':') || body.split(/\s+/).length < 4) return false;
  if (taken.test(sentence)) return true;
  // "The fix: flush inside emitCondBranch, before the branch itself": the agent's own fix, as "the fix is" states it,
  // opening with what is done ("The fix: the count has to reach both paths" says what it must achieve, not how)
  if (
    ownFix.test(sentence) &&
    !isStep(body) &&
    !/^(?:the|a|an|this|that|it|its|we|they|there|our|my)\b/i.test(body)
  )
    return true;
  if (!doingAnyForm.test(body) || isStep(body)) return false;
  return choiceWord.test(body) || /\bnow\b/i.test(body) || rationale.test(body);
}

/** Who or what changed, when the summary names it: "`game.js`: replaced ...", "Validation: changed ...", "I've ...". */
const by = String.raw`^(?:\`[^\`]+\`\s*:\s*|[\w ]{2,30}:\s+|(?:I|we)(?:'ve| have)?\s+)?`;
/** "replaced X with Y", "swapped X for Y", "switched from X to Y": the old way named beside the new. */
const replaced = new RegExp(
  by +
    String.raw`(?:(?:replaced|swapped)\b.{3,120}?\b(?:with|for|by)\b|(?:switched|migrated|converted|changed|moved)\b.{0,60}?\bfrom\b.{2,80}?\bto\b)`,
  'i',
);
/** "X is now Y instead of Z", "X now uses Y rather than Z": the state a change left, the alternative named. */
const nowInstead =
  /^(?!now\b).*?\bnow\b(?! being\b| getting\b).{3,}?\b(?:instead of|rather than|in place of)\b/i;
/**
 * "Workspace location: sibling folders instead of the nested `.ws/`": a summary's labelled item, the old way named
 * (a label of four words at most; a finding's label, "Impact: X becomes Y instead of Z", says what happens, not what
 * was chosen, as does a clause that reports a failure, "The sub test fails: sub adds instead of subtracting"; a
 * label of nouns, "Validation errors: collected instead of thrown", is an item).
 */
const labelInstead =
  /^(?!(?:impact|problem|issue|risk|(?:root )?cause|symptom|result|bug|finding|severity|effect|behaviou?r|before|current|observed|expected|actual)\b)(?!(?:the|this|that|its|our|my|a|an)\s[^:]*\b(?:fails?|failed|failing|breaks|broke|crash(?:es|ed)|errors|errored|throws|threw|returns|returned)\s*:)(?:[\w`'./-]+ ){0,3}[\w`'./-]+:\s+\S.{2,}?\b(?:instead of|rather than|in place of)\b/i;
/** "Stopped re-rendering the board on drag start. Instead the targets are highlighted in place": the other way. */
const insteadOpening = /^instead\b,?\s+(?!(?:let me|I'll|I will|let's)\b)/i;

/** A change summarised with the alternative it replaced, in its sentence or in the change just before it. */
export function replacedAlternative(sentence: string, previous: string | undefined): boolean {
  if (isStep(sentence)) return false;
  if (replaced.test(sentence) || nowInstead.test(sentence) || labelInstead.test(sentence)) return true;
  return (
    insteadOpening.test(sentence) &&
    previous !== undefined &&
    doingAnyForm.test(previous) &&
    !isStep(previous)
  );
}

/** What a brief or request leaves open: "never says how", "only says 'hashed'", "is silent on". */
const gap =
  /\b(?:never|doesn't|does not|don't|do not) (?:says?|specif\w+|mention\w*|define\w*|state\w*)\b|\bonly (?:says|asks|mentions)\b|\b(?:unspecified|ambiguous|left open|is silent)\b/i;
/** "The plan takes ...", "The design keeps ...": the plan the agent wrote, acting. */
const planActs = native(
  /^(?:the|my|our) (?:plan|design|proposal|spec|draft) (?:(?:now|instead|also) )?(?:takes|uses|reads|derives|keys|stores|keeps|puts|hashes|treats|adds|splits|moves|relies on|picks|prefers|falls back)\b/i,
);

/** The plan's answer to a gap the sentence before names, or one that gives its reason. */
function planAnswer(sentence: string, previous: string | undefined): boolean {
  if (!planActs.test(sentence)) return false;
  return (previous !== undefined && gap.test(previous)) || rationale.test(sentence);
}

/** A choice stated as a change, a labelled fix or a plan's answer to a gap (the sentence before given for the gap). */
export function isStatedChange(sentence: string, previous?: string): boolean {
  if (isNotAChoice(sentence)) return false;
  if (setAside.test(sentence)) return false;
  return labelledFix(sentence) || replacedAlternative(sentence, previous) || planAnswer(sentence, previous);
}
