import { doingAnyForm } from './doing-verbs.js';
import { lookPurpose, looking, processStep } from './looks-and-steps.js';
import { announcesFragment, isNotAChoice } from './not-choices.js';
import { native } from '../native-regexp.js';

/**
 * A cause named, then the change it calls for: "There's `BatchUploadTimeout` (defaults to 10 seconds!) - that's
 * likely the issue. Let me set aggressive timeouts and a no-op logger to silence warnings:". An engineer reads the
 * change that follows a diagnosis as a decision on how to fix it, whatever words it uses, as long as it changes
 * something (not another look) and says what.
 */

/** A sentence that names why something fails or is slow. */
export const diagnosis = native(
  /\b(?:the|one|this|that)(?: (?:real|actual|underlying|root|main|likely|only))? (?:issue|problem|cause|culprit)(?: here)? (?:is|was|seems to be)\b|\broot cause\b|\b(?:that's|that is|this is|which is|it's) (?:likely |probably |clearly |definitely )?(?:the|our) (?:issue|problem|cause|culprit|bottleneck)\b|\bfound (?:it|the (?:issue|problem|cause|bug|culprit))\b|\b(?:fails?|failing|failed|broken|breaks|hangs?|blocks) because\b|\bbecause of\b|\b(?:is|are|was|were) (?:likely |probably )?(?:because|due to|caused by)\b|\bcaught (?:one|an?|the) (?:issue|problem|bug)\b|\b(?:I|we) (?:couldn't|could not|can't|cannot|wasn't able to|was unable to)\b|\b(?:was|were) (?:blocked|denied|rejected) by\b|\bI (?:can )?see (?:it|the (?:issue|problem|bug))\b|\b(?:is|are|may be|might be|seems|looks|could be) (?:redundant|unnecessary|conflicting|clashing|stale|outdated)\b|\bfix (?:that|this|the) (?:mismatch|bug|typo)\b/i,
);

/** Who acts: the agent, now or just now ("I've applied"). */
const agentActs =
  /\b(?:I'll|I will|I'm going to|let me|let's|we'll|I need to|we need to|I should|I've|I have|I'm|I am|I did|I used|I instead|(?:I|we) need (?:it|this|them|the \w+) to)\b/i;

/** Adding prints, fixtures or logging to trace a cause: a step of debugging. */
const debugStep =
  /\b(?:add|adding|insert|inserting|put|putting)\b.{0,40}\b(?:print\w*|console\.log|log(?:ging)? (?:line|statement)|debug\w*|fixture|breakpoint)\b|\bto (?:trace|debug|see|find out|inspect)\b/i;

/** A change the agent makes right after naming a cause: it acts, changes something, and says what (5+ words). */
export function isRemedy(text: string): boolean {
  if (announcesFragment(text)) return false;
  const sentence = text
    .replace(/:$/, '')
    .replace(/\b(let me|I'll|I will|let's|I need to) (?:also |now |just )?try (?:to )?/i, '$1 ');
  if (isNotAChoice(sentence) || looking.test(sentence)) return false;
  // a debugging step or a test or fixture added is how a fix is checked, not a choice of how to fix
  if (processStep.test(sentence) || lookPurpose.test(sentence) || debugStep.test(sentence)) return false;
  if (sentence.split(/\s+/).length < 5) return false;
  return agentActs.test(sentence) && doingAnyForm.test(sentence);
}

/** "...caught one issue ... so I've applied X": the change stated in the same sentence as its cause; the cause. */
export function remedyInSentence(sentence: string): string | null {
  const cause = diagnosis.exec(sentence);
  if (!cause) return null;
  const after = sentence.slice(cause.index + cause[0].length);
  const then = /(?:\bso|\btherefore|\bhence|[—–]\s*so)\b,?\s+(.+)$/i.exec(after);
  if (then?.[1] === undefined || !isRemedy(then[1])) return null;
  return sentence.slice(0, cause.index + cause[0].length + then.index).replace(/[\s,—–-]+$/, '');
}
